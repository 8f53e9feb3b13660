import { z } from 'zod';

export const SEARCH_MODES = ['ranked', 'exact'] as const;
export const UNAVAILABLE_REASONS = ['not_found', 'not_indexed', 'indexing', 'failed'] as const;

export const searchRequestSchema = z
  .object({
    query: z.string().trim().min(1).max(500).meta({
      description: 'ranked: words, "quoted phrases", or and -exclusions (websearch syntax); exact: the literal phrase',
    }),
    mode: z.enum(SEARCH_MODES).default('ranked').meta({
      description:
        'ranked (default) orders passages by relevance; exact finds the literal phrase, case-insensitive, and needs document_ids',
    }),
    agreement_id: z
      .string()
      .uuid()
      .optional()
      .meta({ description: "Scope: the agreement's documents (ranked mode only)" }),
    document_ids: z.array(z.string().uuid()).min(1).max(100).optional().meta({ description: 'Scope: these documents' }),
    limit: z.number().int().min(1).max(100).default(20).meta({ description: 'Passages to answer, at most 100' }),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.mode === 'exact') {
      if (!body.document_ids)
        ctx.addIssue({ code: 'custom', path: ['document_ids'], message: 'exact mode needs explicit document_ids' });
      if (body.agreement_id)
        ctx.addIssue({
          code: 'custom',
          path: ['agreement_id'],
          message: 'exact mode searches explicit documents; leave agreement_id out',
        });
      return;
    }
    if (!body.agreement_id && !body.document_ids)
      ctx.addIssue({ code: 'custom', path: ['agreement_id'], message: 'give a scope: agreement_id or document_ids' });
    if (body.agreement_id && body.document_ids)
      ctx.addIssue({
        code: 'custom',
        path: ['document_ids'],
        message: 'give one scope: agreement_id or document_ids, not both',
      });
    if (body.document_ids && new Set(body.document_ids).size !== body.document_ids.length)
      ctx.addIssue({ code: 'custom', path: ['document_ids'], message: 'lists a document twice' });
  });

export type SearchRequest = z.output<typeof searchRequestSchema>;

const highlightSchema = z.object({ start: z.number().int(), end: z.number().int() });

export const searchPassageSchema = z.object({
  document_id: z.string().uuid(),
  file_name: z.string(),
  agreement_ids: z.array(z.string().uuid()).meta({ description: 'Agreements the document is attached to' }),
  position: z.object({
    passage: z.number().int().meta({ description: '0-based passage number in reading order' }),
    page: z.number().int().nullable().meta({ description: '1-based PDF page; null for other formats' }),
    sheet: z.string().nullable().meta({ description: 'Worksheet (XLSX); null for other formats' }),
    start_offset: z
      .number()
      .int()
      .meta({ description: "Character offset of the passage in the document's whole text" }),
    end_offset: z.number().int(),
  }),
  text: z.string().meta({ description: 'The whole passage' }),
  highlights: z.array(highlightSchema).meta({
    description: 'Matched ranges as offsets into text (ts_headline in ranked mode, the phrase in exact mode)',
  }),
  score: z.number().nullable().meta({ description: 'ts_rank_cd relevance (ranked mode); null in exact mode' }),
});

export const searchResponseSchema = z
  .object({
    query: z.string(),
    mode: z.enum(SEARCH_MODES),
    passages: z
      .array(searchPassageSchema)
      .meta({ description: 'Best first (ranked), or in document and reading order (exact)' }),
    has_more: z.boolean().meta({ description: 'More passages matched than limit' }),
    unavailable_documents: z
      .array(
        z.object({
          document_id: z.string().uuid(),
          reason: z.enum(UNAVAILABLE_REASONS),
          message: z.string(),
        }),
      )
      .meta({ description: 'Documents of the scope that were not searched' }),
    partial: z.boolean().meta({
      description:
        'Some searched document is only partly indexed: no passage from it does not prove the text is absent',
    }),
    partial_documents: z.array(
      z.object({ document_id: z.string().uuid(), indexed_passages: z.number().int(), reason: z.string() }),
    ),
  })
  .meta({ id: 'DocumentSearchResult' });

export const indexStartedSchema = z
  .object({ workflow_run_id: z.string().uuid(), document_id: z.string().uuid() })
  .meta({ id: 'DocumentIndexStarted' });
