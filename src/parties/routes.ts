import { defineRoute } from '../http/route.js';
import { listResponse } from '../http/schemas.js';
import { partyListQuery, partySchema } from './schemas.js';
import { listPartiesPage, type PartyKind } from './service.js';

function partyListRoute<const Id extends string>(kind: PartyKind, path: string, operationId: Id) {
  return defineRoute({
    method: 'get',
    path,
    operationId,
    summary: `List ${kind}s to look up their IDs`,
    tag: 'Parties',
    access: { level: 'read' },
    query: partyListQuery,
    fieldsOf: partySchema,
    responses: { 200: { description: `A page of ${kind}s`, schema: listResponse(partySchema) } },
    handler: async ({ query, actor, deps }) => ({
      body: await listPartiesPage(deps, actor.organizationId, kind, query),
    }),
  });
}

export const partyRoutes = [
  partyListRoute('supplier', '/v1/suppliers', 'listSuppliers'),
  partyListRoute('recipient', '/v1/recipients', 'listRecipients'),
];
