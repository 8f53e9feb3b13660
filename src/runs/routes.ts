import { z } from 'zod';
import { assertIfMatch } from '../http/etag.js';
import { defineRoute, idParams } from '../http/route.js';
import { listResponse } from '../http/schemas.js';
import { workflowRunItemSchema, workflowRunSchema } from './schemas.js';
import { assertMayResumeSync } from '../integrations/syncs.js';
import { listRunItemsPage, listRunsPage, runItemListQuery, runListQuery } from './list.js';
import { cancelRun, findRun, retryRun, viewRun } from './service.js';

const tag = 'Workflow runs';

const cancelBody = z
  .object({ item_ids: z.array(z.string().uuid()).min(1).max(1000).optional() })
  .strict()
  .optional();

export const runRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/workflow-runs',
    operationId: 'listWorkflowRuns',
    summary: 'List workflow runs, newest first',
    tag,
    access: { level: 'read' },
    query: runListQuery,
    fieldsOf: workflowRunSchema,
    responses: { 200: { description: 'A page of runs', schema: listResponse(workflowRunSchema) } },
    handler: async ({ query, actor, deps }) => ({ body: await listRunsPage(deps, actor.organizationId, query) }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/workflow-runs/{id}',
    operationId: 'getWorkflowRun',
    summary: 'Read a run with its progress',
    tag,
    access: { level: 'read' },
    params: idParams,
    etag: true,
    fieldsOf: workflowRunSchema,
    query: z.object({ fields: z.string().optional() }),
    responses: { 200: { description: 'The run (a failed run is read with 200 too)', schema: workflowRunSchema } },
    handler: async ({ params, actor, deps }) => {
      const run = await findRun(deps, actor.organizationId, params.id);
      return { body: await viewRun(deps, run) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/workflow-runs/{id}/items',
    operationId: 'listWorkflowRunItems',
    summary: 'List the items of a run with their results',
    tag,
    access: { level: 'read' },
    params: idParams,
    query: runItemListQuery,
    fieldsOf: workflowRunItemSchema,
    responses: { 200: { description: 'A page of items', schema: listResponse(workflowRunItemSchema) } },
    handler: async ({ params, query, actor, deps }) => ({
      body: await listRunItemsPage(deps, actor.organizationId, params.id, query),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/workflow-runs/{id}/cancel',
    operationId: 'cancelWorkflowRun',
    summary: 'Cancel unfinished work of a run, or only the given items',
    tag,
    access: { level: 'write' },
    params: idParams,
    body: cancelBody,
    responses: {
      200: {
        description:
          'The run, cancelled (finished items keep their results); with item_ids, the run with those items cancelled',
        schema: workflowRunSchema,
      },
      409: {
        description:
          'run_already_finished: the run ended (completed, failed, cancelled) before the cancel; the message names its status',
      },
    },
    handler: async ({ params, body, actor, deps, ctx }) => {
      const current = await findRun(deps, actor.organizationId, params.id);
      assertIfMatch(ctx, await viewRun(deps, current));
      const run = await cancelRun(deps, actor.organizationId, params.id, body?.item_ids);
      return { body: await viewRun(deps, run) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/workflow-runs/{id}/retry',
    operationId: 'retryWorkflowRun',
    summary: 'Retry a failed import or check (a new run), or resume a failed sync (the same run)',
    tag,
    access: { level: 'write' },
    params: idParams,
    idempotent: true,
    responses: {
      202: {
        description: 'The retrying run; Location points to it',
        schema: workflowRunSchema.extend({ workflow_run_id: z.string().uuid() }),
      },
      409: {
        description:
          'run_not_retryable: the run is not failed; run_type_not_retryable: only import, check and sync runs can be retried',
      },
    },
    handler: async ({ params, actor, deps }) => {
      // Retrying needs the level starting the work needs: a sync's depends on its scope.
      const failed = await findRun(deps, actor.organizationId, params.id);
      if (failed.type === 'sync') await assertMayResumeSync(deps, actor, failed);
      const run = await retryRun(deps, actor.organizationId, params.id);
      return {
        status: 202,
        body: { ...(await viewRun(deps, run)), workflow_run_id: run.id },
        headers: { Location: `/v1/workflow-runs/${run.id}` },
      };
    },
  }),
];
