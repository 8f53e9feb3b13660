import { defineRoute } from '../http/route.js';
import { searchQuery, searchResponseSchema } from './schemas.js';
import { search, SEARCH_DEPTH_AFTER_CURSOR, searchRank } from './service.js';
import { pageOfRanked, resolvePage } from '../http/pagination.js';

export const searchRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/search',
    operationId: 'search',
    summary:
      'Find agreements, invoices, alerts, topics and claims by name or number, best matches first; a query under 3 characters matches only the start of a name or number',
    tag: 'Search',
    access: { level: 'read' },
    query: searchQuery,
    responses: { 200: { description: 'The best matches, best first', schema: searchResponseSchema } },
    handler: async ({ query, actor, deps }) => {
      const page = resolvePage(
        deps.cursors,
        query,
        { sort: 'score', direction: 'desc' },
        { query: query.query, types: query.types },
      );
      // The first page needs one past the limit of each text; a later one the deeper ranking.
      const results = await search(
        deps,
        actor.organizationId,
        query,
        page.after ? SEARCH_DEPTH_AFTER_CURSOR : page.limit + 1,
      );
      const { rows, nextCursor } = pageOfRanked(deps.cursors, page, results, searchRank);
      return { body: { data: rows, next_cursor: nextCursor } };
    },
  }),
];
