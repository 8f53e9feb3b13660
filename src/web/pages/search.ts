import { z } from 'zod';
import { definePage } from '../page.js';
import { listUrl } from '../query.js';
import type { Texts } from '../texts/index.js';

// The header's search (GET /v1/search in process): results grouped by kind, each a link to its
// page. Works without JavaScript (a GET form); every result is a link in a list, so Tab and
// Shift+Tab walk them.

interface SearchResult {
  type: string;
  id: string;
  title: string;
  matched_field: string;
  matched_text: string;
  match: string;
  url: string;
}

// The order of the groups on the page.
const KINDS = ['invoice', 'agreement', 'alert', 'claim', 'topic'] as const;
const PAGE_SIZE = '50';

// The application's page of a result (the API's `url` names the API's record).
export function resultHref(result: Pick<SearchResult, 'type' | 'id'>): string {
  switch (result.type) {
    case 'invoice':
      return `/app/invoices/${result.id}`;
    case 'agreement':
      return `/app/agreements/${result.id}`;
    case 'alert':
      return `/app/alerts/${result.id}`;
    case 'claim':
      return `/app/claims/${result.id}`;
    case 'topic':
      return `/app/alerts?topic_ids=${result.id}`;
    default:
      return '/app';
  }
}

export function groupResults(
  results: SearchResult[],
  t: Texts['search'],
): { kind: string; label: string; results: (SearchResult & { href: string })[] }[] {
  return KINDS.map((kind) => ({
    kind,
    label: t.kinds[kind] ?? kind,
    results: results.filter((r) => r.type === kind).map((r) => ({ ...r, href: resultHref(r) })),
  })).filter((group) => group.results.length > 0);
}

export const searchPages = [
  definePage({
    path: '/search',
    nav: null,
    title: (t) => t.search.title,
    view: 'search',
    query: z.object({ query: z.string().optional(), cursor: z.string().optional() }).passthrough(),
    load: async ({ query, call, t }) => {
      const text = (query.query ?? '').trim();
      if (!text) return { text, groups: [], nextUrl: null, t: t.search };
      const page = await call('search', {
        query: { query: text.slice(0, 200), limit: PAGE_SIZE, ...(query.cursor ? { cursor: query.cursor } : {}) },
      });
      return {
        title: t.search.resultsForQuery(text),
        text,
        groups: groupResults(page.data, t.search),
        nextUrl: page.next_cursor ? listUrl('/app/search', { query: text }, { cursor: page.next_cursor }) : null,
        t: t.search,
      };
    },
  }),
];
