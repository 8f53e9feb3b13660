import { z } from 'zod';
import { assertIfMatch } from '../http/etag.js';
import { pageOfRanked, pageParams, resolvePage } from '../http/pagination.js';
import { defineRoute, idParams } from '../http/route.js';
import { listResponse } from '../http/schemas.js';
import { workflowRunSchema } from '../runs/schemas.js';
import { viewRun } from '../runs/service.js';
import { listIntegrationsPage } from './list.js';
import {
  createIntegrationSchema,
  integrationSchema,
  integrationSupplierSchema,
  listQuery,
  patchIntegrationSchema,
  providerSchema,
  startSyncSchema,
  supplierListQuery,
  syncSchema,
  testResultSchema,
} from './schemas.js';
import {
  createIntegration,
  deleteIntegration,
  findIntegration,
  listProviders,
  patchIntegration,
  testIntegration,
  viewIntegration,
} from './service.js';
import { getSync, listSyncsPage, startSync, viewSyncs } from './syncs.js';
import { listIntegrationSuppliersPage, refreshIntegrationSuppliers } from './suppliers.js';

const tag = 'Integrations';
const syncParams = z.object({ id: z.string().uuid(), sync_id: z.string().uuid() });

export const integrationRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/integration-providers',
    operationId: 'listIntegrationProviders',
    summary: 'Supported providers, the credentials each needs and what scope means for it',
    tag,
    access: { level: 'read' },
    query: z.object(pageParams(['id'])),
    responses: { 200: { description: 'A page of providers, by id', schema: listResponse(providerSchema) } },
    handler: async ({ query, deps }) => {
      // A fixed handful, paged like every list.
      const page = resolvePage(deps.cursors, query, { sort: 'id', direction: 'asc' }, {});
      const { rows, nextCursor } = pageOfRanked(deps.cursors, page, listProviders(), (provider) => [provider.id]);
      return { body: { data: rows, next_cursor: nextCursor } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/integrations',
    operationId: 'listIntegrations',
    summary: 'List integrations, newest first',
    tag,
    access: { level: 'read' },
    query: listQuery,
    fieldsOf: integrationSchema,
    responses: { 200: { description: 'A page of integrations', schema: listResponse(integrationSchema) } },
    handler: async ({ query, actor, deps }) => ({
      body: await listIntegrationsPage(deps, actor.organizationId, query),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/integrations',
    operationId: 'createIntegration',
    summary: 'Connect a provider; the credentials are checked against its schema, the provider is not contacted',
    tag,
    access: { level: 'admin' },
    idempotent: true,
    body: createIntegrationSchema,
    responses: {
      201: { description: 'The integration (its credentials are never returned)', schema: integrationSchema },
    },
    handler: async ({ body, actor, deps }) => {
      const integration = await createIntegration(deps, actor.organizationId, body);
      return {
        status: 201,
        body: await viewIntegration(deps, integration),
        headers: { Location: `/v1/integrations/${integration.id}` },
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/integrations/{id}',
    operationId: 'getIntegration',
    summary: 'Read an integration',
    tag,
    access: { level: 'read' },
    params: idParams,
    etag: true,
    query: z.object({ fields: z.string().optional() }),
    fieldsOf: integrationSchema,
    responses: { 200: { description: 'The integration', schema: integrationSchema } },
    handler: async ({ params, actor, deps }) => ({
      body: await viewIntegration(deps, await findIntegration(deps, actor.organizationId, params.id)),
    }),
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/integrations/{id}',
    operationId: 'updateIntegration',
    summary: 'Rename, scope, turn the nightly sync on or off, or replace credentials (which then need a new test)',
    tag,
    access: { level: 'admin' },
    params: idParams,
    body: patchIntegrationSchema,
    responses: {
      200: { description: 'The integration', schema: integrationSchema },
      412: { description: 'If-Match does not match' },
    },
    handler: async ({ params, body, actor, deps, ctx }) => {
      const integration = await findIntegration(deps, actor.organizationId, params.id);
      assertIfMatch(ctx, await viewIntegration(deps, integration));
      return { body: await viewIntegration(deps, await patchIntegration(deps, integration, body)) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/integrations/{id}',
    operationId: 'deleteIntegration',
    summary: 'Remove an integration: its schedule goes and a running sync stops; imported invoices stay',
    tag,
    access: { level: 'admin' },
    params: idParams,
    responses: { 204: { description: 'Deleted' }, 412: { description: 'If-Match does not match' } },
    handler: async ({ params, actor, deps, ctx }) => {
      const integration = await findIntegration(deps, actor.organizationId, params.id);
      assertIfMatch(ctx, await viewIntegration(deps, integration));
      await deleteIntegration(deps, integration);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/integrations/{id}/test',
    operationId: 'testIntegration',
    summary: 'Sign in to the provider and read a few invoices; the result is kept on the integration',
    tag,
    access: { level: 'admin' },
    params: idParams,
    responses: {
      200: { description: 'The test result (a failed test is answered with 200 too)', schema: testResultSchema },
    },
    handler: async ({ params, actor, deps }) => {
      const integration = await findIntegration(deps, actor.organizationId, params.id);
      return { body: await testIntegration(deps, integration) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/integrations/{id}/suppliers',
    operationId: 'listIntegrationSuppliers',
    summary: "The provider's suppliers as last refreshed, by name",
    tag,
    access: { level: 'read' },
    params: idParams,
    query: supplierListQuery,
    fieldsOf: integrationSupplierSchema,
    responses: { 200: { description: 'A page of suppliers', schema: listResponse(integrationSupplierSchema) } },
    handler: async ({ params, query, actor, deps }) => ({
      body: await listIntegrationSuppliersPage(deps, actor.organizationId, params.id, query),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/integrations/{id}/suppliers/refresh',
    operationId: 'refreshIntegrationSuppliers',
    summary: "Fetch the provider's supplier list (a workflow run)",
    tag,
    access: { level: 'write' },
    params: idParams,
    idempotent: true,
    responses: {
      202: {
        description: 'The run; Location points to it',
        schema: workflowRunSchema.extend({ workflow_run_id: z.string().uuid() }),
      },
      409: { description: 'The integration has not passed its test' },
    },
    handler: async ({ params, actor, deps }) => {
      const run = await refreshIntegrationSuppliers(deps, actor, params.id);
      return {
        status: 202,
        body: { ...(await viewRun(deps, run)), workflow_run_id: run.id },
        headers: { Location: `/v1/workflow-runs/${run.id}` },
      };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/integrations/{id}/syncs',
    operationId: 'startSync',
    summary: 'Import the invoices of a period (default: the last calendar month); one sync per integration at a time',
    tag,
    access: { level: 'write' },
    params: idParams,
    body: startSyncSchema,
    idempotent: true,
    responses: {
      202: { description: 'The sync; its id is its workflow run id; Location points to the run', schema: syncSchema },
      403: { description: 'Write level without a scope naming the suppliers' },
      409: { description: 'A sync is running (running_sync_id names it), or the integration has not passed its test' },
    },
    handler: async ({ params, body, actor, deps, idempotencyKey }) => {
      const integration = await findIntegration(deps, actor.organizationId, params.id);
      const run = await startSync(deps, actor, integration, body, idempotencyKey);
      const [view] = await viewSyncs(deps, [run]);
      return { status: 202, body: view, headers: { Location: `/v1/workflow-runs/${run.id}` } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/integrations/{id}/syncs',
    operationId: 'listSyncs',
    summary: 'Syncs of an integration, newest first',
    tag,
    access: { level: 'read' },
    params: idParams,
    query: listQuery,
    fieldsOf: syncSchema,
    responses: { 200: { description: 'A page of syncs', schema: listResponse(syncSchema) } },
    handler: async ({ params, query, actor, deps }) => ({
      body: await listSyncsPage(deps, actor.organizationId, params.id, query),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/integrations/{id}/syncs/{sync_id}',
    operationId: 'getSync',
    summary: 'Read a sync with its progress (found, imported, duplicate, failed)',
    tag,
    access: { level: 'read' },
    params: syncParams,
    etag: true,
    query: z.object({ fields: z.string().optional() }),
    fieldsOf: syncSchema,
    responses: { 200: { description: 'The sync (a failed sync is read with 200 too)', schema: syncSchema } },
    handler: async ({ params, actor, deps }) => ({
      body: await getSync(deps, actor.organizationId, params.id, params.sync_id),
    }),
  }),
];
