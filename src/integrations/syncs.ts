import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { RequestActor } from '../auth/actor.js';
import { Prisma, type Db } from '../db/client.js';
import type { AppDeps } from '../deps.js';
import type { Integration, WorkflowRun } from '../generated/prisma/client.js';
import { ApiError, errors } from '../http/errors.js';
import { countRunStarted } from '../http/metrics.js';
import { keyset, pageOf, resolvePage, type SortColumn } from '../http/pagination.js';
import { holderRunId, reconcileRuns, startSharedWorkflow } from '../runs/service.js';
import type { RunFailure } from '../runs/read-model.js';
import { assertKnownSuppliers, findIntegration, runningSync, scopeOf, type IntegrationScope } from './service.js';
import type { listQuery, SyncView } from './schemas.js';

type Deps = Pick<AppDeps, 'db' | 'temporal' | 'config' | 'runTypes' | 'logger'>;

// A sync: a run of type `sync` owned by its integration, whose workflow (workflows/sync.ts) pages
// through the provider and imports every invoice found. All syncs of one integration share the
// Temporal workflow ID sync-<integration id> (Temporal refuses a second one while one runs) and a
// unique index allows one unfinished sync row per integration (the database refuses it too).

export interface SyncInput {
  integrationId: string;
  dateFrom: string;
  dateThrough: string;
  // Ids of integration suppliers (scope), null: every supplier.
  supplierIds: string[] | null;
  trigger: 'manual' | 'schedule';
}

export interface SyncCheckpoint {
  // The next page to read (the provider's own token), null once all pages are read.
  page: string | null;
  pagesDone: number;
  done: boolean;
}

export const syncWorkflowIdOf = (integrationId: string) => `sync-${integrationId}`;
const MAX_PERIOD_DAYS = 3 * 366;

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

// The last calendar month (UTC), the spec's default period.
export function lastCalendarMonth(today = new Date()): { from: string; through: string } {
  const firstOfThisMonth = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1));
  const firstOfLastMonth = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1));
  return { from: day(firstOfLastMonth), through: day(new Date(firstOfThisMonth.getTime() - 86_400_000)) };
}

// Missing dates: both missing is the last calendar month; only date_from runs through today; only
// date_through starts on the first of its month.
export function syncPeriod(
  body: { date_from?: string; date_through?: string },
  today = new Date(),
): { from: string; through: string } {
  if (!body.date_from && !body.date_through) return lastCalendarMonth(today);
  const through = body.date_through ?? day(today);
  const from = body.date_from ?? `${through.slice(0, 7)}-01`;
  if (from > through)
    throw errors.validation('date_from is after date_through.', [
      { field: 'date_from', message: 'must not be after date_through' },
    ]);
  const days = (Date.parse(through) - Date.parse(from)) / 86_400_000;
  if (days > MAX_PERIOD_DAYS)
    throw errors.validation('A sync covers at most three years.', [
      { field: 'date_from', message: 'must be at most three years before date_through' },
    ]);
  return { from, through };
}

export function syncAlreadyRunning(runningSyncId: string | null): ApiError {
  return errors.conflict(
    'sync_already_running',
    'A sync of this integration is running; one sync per integration runs at a time.',
    {
      running_sync_id: runningSyncId,
    },
  );
}

// The sync run's row; a unique violation means another sync of the integration is unfinished.
export async function insertSyncRun(
  db: Db,
  integration: Integration,
  input: SyncInput,
  createdByUserId: string | null,
  runId = randomUUID(),
): Promise<WorkflowRun> {
  try {
    return await db.workflowRun.create({
      data: {
        id: runId,
        organizationId: integration.organizationId,
        type: 'sync',
        ownerType: 'integration',
        ownerId: integration.id,
        input: input as unknown as Prisma.InputJsonValue,
        checkpoint: {
          page: null,
          pagesDone: 0,
          done: false,
        } satisfies SyncCheckpoint,
        workflowId: syncWorkflowIdOf(integration.id),
        createdByUserId,
      },
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      const running = await runningSync(db, integration.id);
      if (running?.id === runId) return running;
      throw syncAlreadyRunning(running?.id ?? null);
    }
    throw error;
  }
}

function isAdmin(actor: RequestActor): boolean {
  return actor.kind === 'member' && actor.level === 'admin';
}

// Write may sync only named suppliers: the request's scope or the saved one must list them. A
// request's scope stays within the saved scope.
async function effectiveScope(
  deps: Deps,
  actor: RequestActor,
  integration: Integration,
  requested: IntegrationScope | undefined,
): Promise<string[] | null> {
  const saved = scopeOf(integration)?.supplier_ids ?? null;
  if (requested) {
    const outside = saved ? requested.supplier_ids.filter((id) => !saved.includes(id)) : [];
    if (outside.length > 0) {
      throw errors.validation(
        "The scope goes beyond the integration's saved scope.",
        outside.slice(0, 20).map((id) => ({ field: 'scope.supplier_ids', message: `${id} is not in the saved scope` })),
      );
    }
    await assertKnownSuppliers(deps.db, integration.id, requested.supplier_ids, 'scope.supplier_ids');
  }
  const supplierIds = requested ? [...new Set(requested.supplier_ids)] : saved;
  if (!supplierIds && !isAdmin(actor)) {
    throw new ApiError(
      403,
      'insufficient_level',
      'With the Write level a sync must name its suppliers: send scope.supplier_ids, or have an Admin save a scope on the integration.',
    );
  }
  return supplierIds;
}

// Resuming a sync (POST /v1/workflow-runs/{id}/retry) needs the level starting it would need
// now: Write only when it names suppliers that are all within the integration's saved scope (which
// an Admin may have narrowed since); an unscoped sync, or one beyond the saved scope, is Admin's.
export async function assertMayResumeSync(
  deps: Pick<AppDeps, 'db'>,
  actor: RequestActor,
  run: WorkflowRun,
): Promise<void> {
  if (isAdmin(actor)) return;
  const input = run.input as unknown as SyncInput | null;
  const named = input?.supplierIds ?? null;
  const integration = input
    ? await deps.db.integration.findFirst({
        where: { id: input.integrationId, organizationId: run.organizationId },
        select: { scope: true },
      })
    : null;
  const saved = integration ? (scopeOf(integration)?.supplier_ids ?? null) : null;
  if (!named || (saved && named.some((id) => !saved.includes(id)))) {
    throw new ApiError(
      403,
      'insufficient_level',
      "Resuming this sync needs the Admin level: it syncs every supplier, or suppliers beyond the integration's saved scope, which only an Admin may start.",
    );
  }
}

export async function startSync(
  deps: Deps,
  actor: RequestActor,
  integration: Integration,
  body: { date_from?: string; date_through?: string; scope?: IntegrationScope } | undefined,
  idempotencyKey: string | null,
): Promise<WorkflowRun> {
  const period = syncPeriod(body ?? {});
  const supplierIds = await effectiveScope(deps, actor, integration, body?.scope);
  if (integration.testStatus !== 'passed') {
    throw errors.conflict(
      'integration_not_tested',
      'The integration must pass its test (POST /v1/integrations/{id}/test) before it can sync.',
    );
  }
  // A sync row left open by a workflow that ended outside our code must not block forever.
  const open = await runningSync(deps.db, integration.id);
  if (open) {
    const [current] = await reconcileRuns(deps, [open]);
    if (current && (current.status === 'queued' || current.status === 'running')) throw syncAlreadyRunning(current.id);
  }
  const input: SyncInput = {
    integrationId: integration.id,
    dateFrom: period.from,
    dateThrough: period.through,
    supplierIds,
    trigger: 'manual',
  };
  const userId = actor.userId;
  const runId = idempotencyKey ? undefined : randomUUID();
  const run = await insertSyncRun(deps.db, integration, input, userId, runId);
  try {
    await startSharedWorkflow(deps, run);
  } catch (error) {
    await deps.db.workflowRun.deleteMany({ where: { id: run.id, status: 'queued' } });
    if (error instanceof WorkflowExecutionAlreadyStartedError) {
      // Temporal's side of one sync at a time: the running execution names its run in its memo.
      throw syncAlreadyRunning(await holderRunId(deps, syncWorkflowIdOf(integration.id)));
    }
    deps.logger.error({ err: error, run_id: run.id }, 'could not start the sync workflow');
    throw errors.serviceUnavailable('The sync could not be started right now; retry shortly.');
  }
  countRunStarted('sync');
  return run;
}

interface OutcomeCount {
  run_id: string;
  status: string;
  outcome: string | null;
  count: bigint;
}

export async function viewSyncs(deps: Pick<AppDeps, 'db'>, runs: WorkflowRun[]): Promise<SyncView[]> {
  if (runs.length === 0) return [];
  const rows = await deps.db.$queryRaw<OutcomeCount[]>`
    SELECT run_id::text AS run_id, status::text AS status, result->>'outcome' AS outcome, count(*) AS count
      FROM workflow_run_items WHERE run_id = ANY(${runs.map((run) => run.id)}::uuid[])
     GROUP BY 1, 2, 3`;
  return runs.map((run) => {
    const progress = { found: 0, imported: 0, duplicate: 0, not_invoice: 0, failed: 0, pending: 0 };
    for (const row of rows.filter((r) => r.run_id === run.id)) {
      const count = Number(row.count);
      progress.found += count;
      if (row.status === 'failed') progress.failed += count;
      else if (
        row.status === 'completed' &&
        (row.outcome === 'imported' || row.outcome === 'duplicate' || row.outcome === 'not_invoice')
      )
        progress[row.outcome] += count;
      else if (row.status === 'queued' || row.status === 'running') progress.pending += count;
    }
    const input = run.input as unknown as SyncInput;
    const checkpoint = (run.checkpoint as SyncCheckpoint | null) ?? { page: null, pagesDone: 0, done: false };
    return {
      id: run.id,
      workflow_run_id: run.id,
      integration_id: input.integrationId,
      status: run.status,
      trigger: input.trigger,
      date_from: input.dateFrom,
      date_through: input.dateThrough,
      scope: input.supplierIds ? { supplier_ids: input.supplierIds } : null,
      progress: { ...progress, complete: checkpoint.done },
      pages_done: checkpoint.pagesDone,
      failure: (run.failure as RunFailure | null) ?? null,
      attempt: run.attempt,
      created_at: run.createdAt.toISOString(),
      started_at: run.startedAt?.toISOString() ?? null,
      finished_at: run.finishedAt?.toISOString() ?? null,
    };
  });
}

const CREATED_AT: SortColumn = { field: 'createdAt', kind: 'date' };

// A page of the syncs of an integration of the organization, newest first, reconciled with Temporal.
export async function listSyncsPage(
  deps: Deps & Pick<AppDeps, 'cursors'>,
  organizationId: string,
  integrationId: string,
  query: z.infer<typeof listQuery>,
) {
  const integration = await findIntegration(deps, organizationId, integrationId);
  const { limit, cursor, sort, direction } = query;
  const page = resolvePage(
    deps.cursors,
    { limit, cursor, sort, direction },
    { sort: 'created_at', direction: 'desc' },
    { integration: integration.id },
  );
  const { where, orderBy, take } = keyset(page, CREATED_AT);
  const rows = await deps.db.workflowRun.findMany({
    where: {
      AND: [
        {
          organizationId: integration.organizationId,
          type: 'sync',
          ownerType: 'integration',
          ownerId: integration.id,
        },
        where,
      ],
    },
    orderBy,
    take,
  });
  const { rows: visible, nextCursor } = pageOf(deps.cursors, page, CREATED_AT, rows);
  return { data: await viewSyncs(deps, await reconcileRuns(deps, visible)), next_cursor: nextCursor };
}

// One sync of an integration of the organization, reconciled with Temporal.
export async function getSync(
  deps: Deps,
  organizationId: string,
  integrationId: string,
  syncId: string,
): Promise<SyncView> {
  const run = await deps.db.workflowRun.findFirst({
    where: { id: syncId, organizationId, type: 'sync', ownerType: 'integration', ownerId: integrationId },
  });
  if (!run) throw errors.notFound('sync');
  const [reconciled] = await reconcileRuns(deps, [run]);
  return (await viewSyncs(deps, [reconciled!]))[0]!;
}
