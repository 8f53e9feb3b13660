import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import { errorResponseSchema } from './schemas.js';
import { z, type ZodType } from 'zod';
import { fieldSelectionOf, type RouteDefinition } from './route.js';

export const CONTRACT_VERSION = '1.0.0';
// Vendor extension carrying each operation's required level (read < write < admin).
export const LEVEL_EXTENSION = 'x-required-level';
export const SCOPE_EXTENSION = 'x-ingestion-scope';

const sharedErrorResponses = {
  '400': 'validation_error: the request could not be validated (unknown query parameters included)',
  '401': 'invalid_token',
  '403': 'token_disabled, insufficient_level or insufficient_scope',
  '404': 'not_found (also for records of other organizations)',
  '429': 'rate_limit_exceeded, with Retry-After (per credential; failed authentications per client address)',
  '500': 'internal_error',
  '503': 'service_unavailable, with Retry-After: the database, storage or Temporal is unreachable for now',
};

const fieldsParam = z.string().optional().meta({
  description: "Comma list of fields to return (dots for nested fields); id (or a group's key) is always returned",
});

// The query a route documents: its schema, plus `fields` on every read that selects fields.
function documentedQuery(route: RouteDefinition): ZodType | undefined {
  if (!fieldSelectionOf(route)) return route.query;
  if (!route.query) return z.object({ fields: fieldsParam });
  if (route.query instanceof z.ZodObject && !('fields' in route.query.shape))
    return route.query.extend({ fields: fieldsParam });
  return route.query;
}

function operationOf(route: RouteDefinition): ZodOpenApiOperationObject {
  const query = documentedQuery(route);
  const responses: Record<string, object> = {};
  for (const [status, doc] of Object.entries(route.responses)) {
    responses[status] = {
      description: doc.description,
      ...(doc.schema
        ? {
            content: Object.fromEntries(
              [doc.contentType ?? 'application/json'].flat().map((type) => [type, { schema: doc.schema }]),
            ),
          }
        : {}),
    };
  }
  for (const [status, description] of Object.entries(sharedErrorResponses)) {
    responses[status] ??= { description, content: { 'application/json': { schema: errorResponseSchema } } };
  }
  const level = route.access.level;
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    [LEVEL_EXTENSION]: level ?? 'none',
    ...(route.access.ingestionScope ? { [SCOPE_EXTENSION]: route.access.ingestionScope } : {}),
    requestParams: {
      ...(route.params ? { path: route.params as never } : {}),
      ...(query ? { query: query as never } : {}),
    },
    ...(route.body ? { requestBody: { content: { 'application/json': { schema: route.body } } } } : {}),
    ...(route.multipart ? { requestBody: { content: { 'multipart/form-data': { schema: route.multipart } } } } : {}),
    responses: responses as ZodOpenApiOperationObject['responses'],
  };
}

export function buildOpenApiDocument(routes: RouteDefinition[], serverUrl: string) {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes) {
    paths[route.path] = { ...(paths[route.path] ?? {}), [route.method]: operationOf(route) };
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Invoice Compliance Service: Organization API',
      version: CONTRACT_VERSION,
      description: 'Development preview contract. Levels: see the x-required-level extension of each operation.',
    },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
    security: [{ bearer: [] }],
    paths,
  });
}
