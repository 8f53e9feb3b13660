import { z } from 'zod';
import { pageParams } from '../http/pagination.js';
import { commaList } from '../http/schemas.js';

export const SEARCH_TYPES = ['agreement', 'invoice', 'alert', 'topic', 'claim'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

// Under this many characters a query matches only the start of a name or number (spec Limits).
export const ANYWHERE_MIN_LENGTH = 3;
export const MAX_QUERY_LENGTH = 200;

// Pages like every list (limit, cursor); the one order is best first (sort=score, direction=desc).
export const searchQuery = z.object({
  query: z.string().trim().min(1).max(MAX_QUERY_LENGTH),
  types: commaList(z.enum(SEARCH_TYPES))
    .optional()
    .meta({ description: `Comma list of ${SEARCH_TYPES.join(', ')}; all when omitted` }),
  ...pageParams(['score']),
  direction: z.enum(['desc']).optional().meta({ description: 'Best first only' }),
});
export type SearchQuery = z.infer<typeof searchQuery>;

export const MATCH_KINDS = ['exact', 'prefix', 'anywhere', 'text'] as const;

export const searchResultSchema = z
  .object({
    type: z.enum(SEARCH_TYPES),
    id: z.string().uuid(),
    title: z.string(),
    matched_field: z
      .string()
      .meta({ description: 'Which text matched, e.g. invoice_number, supplier_name, title, reference, explanation' }),
    matched_text: z.string().meta({ description: 'The matched text (a passage of it for long texts)' }),
    match: z
      .enum(MATCH_KINDS)
      .meta({ description: 'exact, prefix (starts with the query), anywhere (trigram), text (full-text words)' }),
    score: z.number().meta({ description: 'Between 0 and 1; results come best first' }),
    url: z.string().meta({ description: 'The record in the API' }),
  })
  .meta({ id: 'SearchResult' });

export const searchResponseSchema = z
  .object({
    data: z.array(searchResultSchema),
    next_cursor: z
      .string()
      .nullable()
      .meta({ description: 'Send back as cursor with the same query and types; null at the end.' }),
  })
  .meta({ id: 'SearchResults' });
export type SearchResult = z.infer<typeof searchResultSchema>;
