import { defineRoute, idParams } from '../../http/route.js';
import { indexStartedSchema, searchRequestSchema, searchResponseSchema } from './schemas.js';
import { searchDocuments, startDocumentIndex } from './service.js';

const tag = 'Document search';

export const documentSearchRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/documents/search',
    operationId: 'searchDocuments',
    summary: "Search the text of an agreement's documents (ranked) or of named documents (ranked or exact phrase)",
    tag,
    access: { level: 'read' },
    body: searchRequestSchema,
    responses: {
      200: {
        description: 'Matching passages, documents not searched, and whether the result is partial',
        schema: searchResponseSchema,
      },
    },
    handler: async ({ body, actor, deps }) => ({ body: await searchDocuments(deps, actor.organizationId, body) }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/documents/{id}/index',
    operationId: 'indexDocument',
    summary: 'Extract and index an uploaded document for search (again), in a background run',
    tag,
    access: { level: 'write' },
    params: idParams,
    idempotent: true,
    responses: { 202: { description: 'The indexing run; Location points to it', schema: indexStartedSchema } },
    handler: async ({ params, actor, deps, idempotencyKey }) => {
      const started = await startDocumentIndex(deps, actor.organizationId, params.id, {
        createdByUserId: actor.userId,
        idempotencyKey,
      });
      return { status: 202, body: started, headers: { Location: `/v1/workflow-runs/${started.workflow_run_id}` } };
    },
  }),
];
