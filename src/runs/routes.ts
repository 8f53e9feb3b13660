import { z } from 'zod';
import { assertIfMatch } from '../http/etag.js';
import { defineRoute, idParams } from '../http/route.js';
import { keyset, pageOf, pageParams, resolvePage, type SortColumn } from '../http/pagination.js';
import { commaList, createdRangeParams, createdRangeWhere, listResponse, uuidList } from '../http/schemas.js';
import { ITEM_STATUSES, RUN_STATUSES, workflowRunItemSchema, workflowRunSchema } from './schemas.js';
import { assertMayResumeSync } from '../integrations/syncs.js';
import { cancelRun, findRun, reconcileRuns, retryRun, viewRun, viewRuns } from './service.js';
import { serializeItem } from './serialize.js';

const CREATED_AT: SortColumn = { field: 'createdAt', kind: 'date' };
const POSITION: SortColumn = { field: 'position', kind: 'number' };
const tag = 'Workflow runs';

const listRunsQuery = z.object({
  ...pageParams(['created_at']),
  statuses: commaList(z.enum(RUN_STATUSES)).optional(),
  types: commaList(z.string().min(1)).optional(),
  owner_type: z.string().min(1).optional(),
  owner_ids: uuidList.optional(),
  ...createdRangeParams,
});

const listItemsQuery = z.object({
  ...pageParams(['position']),
  statuses: commaList(z.enum(ITEM_STATUSES)).optional(),
});

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
    query: listRunsQuery,
    fieldsOf: workflowRunSchema,
    responses: { 200: { description: 'A page of runs', schema: listResponse(workflowRunSchema) } },
    handler: async ({ query, actor, deps }) => {
      const { limit, cursor, sort, direction, fields, ...filters } = query;
      const page = resolvePage(
        deps.cursors,
        { limit, cursor, sort, direction },
        { sort: 'created_at', direction: 'desc' },
        filters,
      );
      const { where, orderBy, take } = keyset(page, CREATED_AT);
      const rows = await deps.db.workflowRun.findMany({
        where: {
          AND: [
            { organizationId: actor.organizationId },
            filters.statuses ? { status: { in: filters.statuses } } : {},
            filters.types ? { type: { in: filters.types } } : {},
            filters.owner_type ? { ownerType: filters.owner_type } : {},
            filters.owner_ids ? { ownerId: { in: filters.owner_ids } } : {},
            createdRangeWhere(filters),
            where,
          ],
        },
        orderBy,
        take,
      });
      const { rows: visible, nextCursor } = pageOf(deps.cursors, page, CREATED_AT, rows);
      const reconciled = await reconcileRuns(deps, visible);
      return { body: { data: await viewRuns(deps, reconciled), next_cursor: nextCursor } };
    },
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
    query: listItemsQuery,
    fieldsOf: workflowRunItemSchema,
    responses: { 200: { description: 'A page of items', schema: listResponse(workflowRunItemSchema) } },
    handler: async ({ params, query, actor, deps }) => {
      const run = await findRun(deps, actor.organizationId, params.id);
      const { limit, cursor, sort, direction, fields, ...filters } = query;
      const page = resolvePage(
        deps.cursors,
        { limit, cursor, sort, direction },
        { sort: 'position', direction: 'asc' },
        filters,
      );
      const { where, orderBy, take } = keyset(page, POSITION);
      const rows = await deps.db.workflowRunItem.findMany({
        where: { AND: [{ runId: run.id }, filters.statuses ? { status: { in: filters.statuses } } : {}, where] },
        orderBy,
        take,
      });
      const { rows: visible, nextCursor } = pageOf(deps.cursors, page, POSITION, rows);
      return { body: { data: visible.map(serializeItem), next_cursor: nextCursor } };
    },
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
