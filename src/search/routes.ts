import { defineRoute } from '../http/route.js';
import { searchQuery, searchResponseSchema } from './schemas.js';
import { search } from './service.js';

export const searchRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/search',
    operationId: 'search',
    summary: 'Find agreements, invoices, alerts, topics and claims by name or number, best matches first; a query under 3 characters matches only the start of a name or number',
    tag: 'Search',
    access: { level: 'read' },
    query: searchQuery,
    responses: { 200: { description: 'The best matches, best first', schema: searchResponseSchema } },
    handler: async ({ query, credential, deps }) => ({ body: { data: await search(deps, credential.organizationId!, query) } }),
  }),
];
