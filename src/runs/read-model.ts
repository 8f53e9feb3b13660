import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client.js';
import { Prisma } from '../db/client.js';
import type { RunItemStatus, RunStatus } from '../generated/prisma/enums.js';
import { publicFailure } from '../shared/failures.js';

// The Postgres read model of workflow runs: what polling clients read. Workflows write it only
// through activities (activities/runs.ts), the API only when it reconciles with Temporal. Every
// write is conditional on the current status, so an activity that runs twice changes nothing more.

export const TERMINAL_RUN_STATUSES: RunStatus[] = ['completed', 'completed_with_errors', 'failed', 'cancelled'];
export const UNFINISHED_ITEM_STATUSES: RunItemStatus[] = ['queued', 'running'];

export interface RunFailure {
  code: string;
  message: string;
}

export interface NewItem {
  key: string;
  label?: string | null;
  recordType?: string | null;
  recordId?: string | null;
}

export type ItemCounts = Record<RunItemStatus, number>;

export function isTerminal(status: RunStatus): boolean {
  return TERMINAL_RUN_STATUSES.includes(status);
}

// The row a run works on (an import), read before the run: a run that ended in between wrote the
// row's outcome after that read. Read it again then, so that a view never pairs an ended run with
// a row that has no outcome yet (a poll racing the workflow's end).
export async function rowAfterRun<Row extends { finishedAt: Date | null }>(
  run: { status: RunStatus },
  readBeforeRun: Row,
  readAgain: () => Promise<Row>,
): Promise<Row> {
  return isTerminal(run.status) && !readBeforeRun.finishedAt ? readAgain() : readBeforeRun;
}

const notTerminal = { notIn: TERMINAL_RUN_STATUSES };
const ALL_ITEMS_FAILED: RunFailure = {
  code: 'all_items_failed',
  message: 'Every item of this run failed; see its items.',
};

export async function markRunStarted(db: Db, runId: string): Promise<void> {
  await db.workflowRun.updateMany({
    where: { id: runId, status: 'queued' },
    data: { status: 'running', startedAt: new Date(), version: { increment: 1 } },
  });
}

// Adds items once per key; `complete` says the run has found all its work (progress.total known).
export async function registerItems(db: Db, runId: string, items: NewItem[], complete: boolean): Promise<void> {
  const run = await db.workflowRun.findUniqueOrThrow({ where: { id: runId }, select: { organizationId: true } });
  await db.$transaction(async (tx) => {
    const existing = await tx.workflowRunItem.count({ where: { runId } });
    await tx.workflowRunItem.createMany({
      data: items.map((item, index) => ({
        id: randomUUID(),
        runId,
        organizationId: run.organizationId,
        key: item.key,
        label: item.label ?? null,
        recordType: item.recordType ?? null,
        recordId: item.recordId ?? null,
        position: existing + index,
      })),
      skipDuplicates: true,
    });
    if (complete) {
      const total = await tx.workflowRunItem.count({ where: { runId } });
      await tx.workflowRun.update({ where: { id: runId }, data: { progressTotal: total, version: { increment: 1 } } });
    }
  });
}

export async function itemIdsByKey(db: Db, runId: string, keys: string[]): Promise<Record<string, string>> {
  const rows = await db.workflowRunItem.findMany({
    where: { runId, key: { in: keys } },
    select: { id: true, key: true },
  });
  return Object.fromEntries(rows.map((row) => [row.key, row.id]));
}

// False when the item was cancelled (or already finished) and must not be worked on. An item of
// a run that has ended (cancelled through the API) is never begun, even while the workflow has
// not yet seen the cancellation.
export async function beginItem(db: Db, itemId: string): Promise<boolean> {
  const { count } = await db.workflowRunItem.updateMany({
    where: { id: itemId, status: 'queued', run: { status: notTerminal } },
    data: { status: 'running' },
  });
  if (count === 1) return true;
  const item = await db.workflowRunItem.findUniqueOrThrow({ where: { id: itemId }, select: { status: true } });
  // A retry of this activity after it already began the item continues the same work.
  return item.status === 'running';
}

export async function finishItem(
  db: Db,
  itemId: string,
  outcome: { status: 'completed'; result?: unknown } | { status: 'failed'; failure: RunFailure },
): Promise<void> {
  await db.workflowRunItem.updateMany({
    where: { id: itemId, status: { in: UNFINISHED_ITEM_STATUSES } },
    data: {
      status: outcome.status,
      result:
        outcome.status === 'completed' ? ((outcome.result ?? Prisma.DbNull) as Prisma.InputJsonValue) : Prisma.DbNull,
      failure: outcome.status === 'failed' ? { ...publicFailure(outcome.failure) } : Prisma.DbNull,
      finishedAt: new Date(),
    },
  });
}

// Batch forms of beginItem and finishItem, for work done in batches by one activity (check runs):
// one statement each for the whole batch. Returns the items to work on (begun now, or already
// running when the activity is retried); cancelled and finished items are left out.
export async function beginItems(db: Db, itemIds: string[]): Promise<Set<string>> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    WITH begun AS (
      UPDATE workflow_run_items SET status = 'running', updated_at = now()
       WHERE id = ANY(${itemIds}::uuid[]) AND status = 'queued'
      RETURNING id)
    SELECT id::text AS "id" FROM begun
    UNION
    SELECT id::text FROM workflow_run_items WHERE id = ANY(${itemIds}::uuid[]) AND status = 'running'`;
  return new Set(rows.map((row) => row.id));
}

export async function completeItems(db: Db, completed: { itemId: string; result: unknown }[]): Promise<void> {
  if (completed.length === 0) return;
  await db.$executeRaw`
    UPDATE workflow_run_items AS item
       SET status = 'completed', result = done.result::jsonb, failure = NULL, finished_at = now(), updated_at = now()
      FROM unnest(${completed.map((c) => c.itemId)}::uuid[], ${completed.map((c) => JSON.stringify(c.result ?? null))}::text[]) AS done(id, result)
     WHERE item.id = done.id AND item.status IN ('queued', 'running')`;
}

export async function failItems(db: Db, itemIds: string[], failure: RunFailure): Promise<void> {
  await db.$executeRaw`
    UPDATE workflow_run_items
       SET status = 'failed', result = NULL, failure = ${JSON.stringify(failure)}::jsonb, finished_at = now(), updated_at = now()
     WHERE id = ANY(${itemIds}::uuid[]) AND status IN ('queued', 'running')`;
}

export async function itemCounts(db: Db, runIds: string[]): Promise<Map<string, ItemCounts>> {
  const groups = await db.workflowRunItem.groupBy({
    by: ['runId', 'status'],
    where: { runId: { in: runIds } },
    _count: { _all: true },
  });
  const counts = new Map<string, ItemCounts>();
  for (const runId of runIds) counts.set(runId, { queued: 0, running: 0, completed: 0, failed: 0, cancelled: 0 });
  for (const group of groups) counts.get(group.runId)![group.status] = group._count._all;
  return counts;
}

// completed: everything succeeded (or there was nothing to do); completed_with_errors: some items
// failed; failed: nothing succeeded, or the run itself failed.
export function statusFromItems(counts: ItemCounts): RunStatus {
  if (counts.failed === 0) return 'completed';
  return counts.completed > 0 ? 'completed_with_errors' : 'failed';
}

export async function finishRun(db: Db, runId: string, failure?: RunFailure): Promise<RunStatus> {
  const counts = (await itemCounts(db, [runId])).get(runId)!;
  const status: RunStatus = failure ? 'failed' : statusFromItems(counts);
  const runFailure = failure ?? (status === 'failed' ? ALL_ITEMS_FAILED : null);
  await closeRun(db, runId, status, runFailure, failure ? 'failed' : 'cancelled');
  const run = await db.workflowRun.findUniqueOrThrow({ where: { id: runId }, select: { status: true } });
  return run.status;
}

// The cancel decision (POST /v1/workflow-runs/{id}/cancel): the run becomes cancelled only if it
// has not ended, in one conditional statement, so a run cannot answer both "cancelled" to the
// client and "completed" to its workflow. Queued items are cancelled with it; running items
// finish and keep their results (finishItem), and no finishing step overwrites the run's status
// (every run update below is conditional on a non-terminal status). False: the run had ended.
export async function cancelRunDecision(db: Db, runId: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.workflowRun.updateMany({
      where: { id: runId, status: notTerminal },
      data: { status: 'cancelled', failure: Prisma.DbNull, finishedAt: new Date(), version: { increment: 1 } },
    });
    if (count === 0) return false;
    await tx.workflowRunItem.updateMany({
      where: { runId, status: 'queued' },
      data: { status: 'cancelled', finishedAt: new Date() },
    });
    return true;
  });
}

// Ends a run that has not ended yet; its unfinished items take `unfinishedItemsBecome`. A run
// cancelled through the API while its workflow still worked keeps its status; what the workflow
// left unfinished is cancelled when the workflow ends.
export async function closeRun(
  db: Db,
  runId: string,
  status: RunStatus,
  reported: RunFailure | null,
  unfinishedItemsBecome: 'cancelled' | 'failed',
): Promise<boolean> {
  const failure = reported ? publicFailure(reported) : null;
  return db.$transaction(async (tx) => {
    const { count } = await tx.workflowRun.updateMany({
      where: { id: runId, status: notTerminal },
      data: {
        status,
        failure: failure ? (failure as unknown as Prisma.InputJsonValue) : Prisma.DbNull,
        finishedAt: new Date(),
        version: { increment: 1 },
      },
    });
    if (count === 0) {
      await tx.workflowRunItem.updateMany({
        where: { runId, status: { in: UNFINISHED_ITEM_STATUSES }, run: { status: 'cancelled' } },
        data: { status: 'cancelled', finishedAt: new Date() },
      });
      return false;
    }
    await tx.workflowRunItem.updateMany({
      where: { runId, status: { in: UNFINISHED_ITEM_STATUSES } },
      data: {
        status: unfinishedItemsBecome,
        finishedAt: new Date(),
        ...(unfinishedItemsBecome === 'failed' && failure
          ? { failure: failure as unknown as Prisma.InputJsonValue }
          : {}),
      },
    });
    return true;
  });
}

// A run of exactly one piece of work (an invoice import) keeps its read model in two statements
// instead of a dozen: the hottest path of the service. Raw SQL, because each Prisma query costs
// the worker more CPU than the database spends on it.

export type ItemOutcome = { status: 'completed'; result: unknown } | { status: 'failed'; failure: RunFailure };

// Starts the run and adds its one item already running, in one statement. A repeat (the activity
// retried after a crash) finds the item it began: `proceed` then says whether to work on it.
export async function startSingleItemRun(
  db: Db,
  runId: string,
  item: NewItem,
): Promise<{ itemId: string; proceed: boolean }> {
  const rows = await db.$queryRaw<{ id: string; status: RunItemStatus }[]>`
    WITH run AS (
      UPDATE workflow_runs
         SET status = CASE WHEN status = 'queued' THEN 'running'::"RunStatus" ELSE status END,
             started_at = CASE WHEN status = 'queued' THEN now() ELSE started_at END,
             progress_total = 1, version = version + 1, updated_at = now()
       WHERE id = ${runId}::uuid
       RETURNING organization_id, status
    ), added AS (
      -- A run cancelled before its workflow got here gets its item cancelled, not worked on.
      INSERT INTO workflow_run_items (id, run_id, organization_id, key, label, record_type, record_id, position, status, finished_at, updated_at)
      SELECT ${randomUUID()}::uuid, ${runId}::uuid, organization_id, ${item.key}::text, ${item.label ?? null}::text, ${item.recordType ?? null}::text,
             ${item.recordId ?? null}::uuid, 0,
             CASE WHEN status = 'cancelled' THEN 'cancelled' ELSE 'running' END::"RunItemStatus",
             CASE WHEN status = 'cancelled' THEN now() END, now()
        FROM run
      ON CONFLICT (run_id, key) DO NOTHING
      RETURNING id, status
    )
    SELECT id, status FROM added
    UNION ALL
    SELECT id, status FROM workflow_run_items WHERE run_id = ${runId}::uuid AND key = ${item.key}::text`;
  const row = rows[0];
  if (!row) throw new Error(`run ${runId} does not exist`);
  if (row.status === 'queued') return { itemId: row.id, proceed: await beginItem(db, row.id) };
  return { itemId: row.id, proceed: row.status === 'running' };
}

// Records the item's outcome (null: it was not worked on) and ends the run from the item's
// final status, in one statement; returns the run's status. A repeat changes nothing and
// returns the same status.
export async function finishSingleItemRun(
  db: Db,
  runId: string,
  itemId: string,
  outcome: ItemOutcome | null,
): Promise<RunStatus> {
  const result =
    outcome?.status === 'completed' && outcome.result !== null && outcome.result !== undefined
      ? JSON.stringify(outcome.result)
      : null;
  const failure = outcome?.status === 'failed' ? JSON.stringify(publicFailure(outcome.failure)) : null;
  // With no outcome the update matches no row (status IS NULL) and the item keeps its status.
  const rows = await db.$queryRaw<{ status: RunStatus }[]>`
    WITH finished AS (
      UPDATE workflow_run_items
         SET status = ${outcome?.status ?? null}::"RunItemStatus", result = ${result}::jsonb, failure = ${failure}::jsonb, finished_at = now(), updated_at = now()
       WHERE id = ${itemId}::uuid AND status IN ('queued', 'running') AND ${outcome?.status ?? null}::"RunItemStatus" IS NOT NULL
       RETURNING status
    ), item AS (
      SELECT status FROM finished
      UNION ALL
      SELECT status FROM workflow_run_items WHERE id = ${itemId}::uuid AND NOT EXISTS (SELECT 1 FROM finished)
    ), closed AS (
      -- completed, or failed when its only item failed (statusFromItems for one item)
      UPDATE workflow_runs
         SET status = CASE WHEN (SELECT status FROM item) = 'failed' THEN 'failed' ELSE 'completed' END::"RunStatus",
             failure = CASE WHEN (SELECT status FROM item) = 'failed' THEN ${JSON.stringify(ALL_ITEMS_FAILED)}::jsonb END,
             finished_at = now(), version = version + 1, updated_at = now()
       WHERE id = ${runId}::uuid AND status NOT IN ('completed', 'completed_with_errors', 'failed', 'cancelled') -- TERMINAL_RUN_STATUSES
       RETURNING status
    )
    SELECT status FROM closed
    UNION ALL
    SELECT status FROM workflow_runs WHERE id = ${runId}::uuid AND NOT EXISTS (SELECT 1 FROM closed)`;
  return rows[0]!.status;
}

// The whole life of a single-item run inside one activity (workflows/runs/lifecycle.ts,
// executeRunInOneActivity): started, the work, finished. A repeat after a crash finds the item
// running and works again (the work is idempotent), or finds it ended and only reads the status.
export async function runSingleItem(
  db: Db,
  runId: string,
  item: NewItem,
  work: () => Promise<ItemOutcome>,
): Promise<RunStatus> {
  const { itemId, proceed } = await startSingleItemRun(db, runId, item);
  return finishSingleItemRun(db, runId, itemId, proceed ? await work() : null);
}

export async function saveCheckpoint(db: Db, runId: string, checkpoint: unknown): Promise<void> {
  await db.workflowRun.update({ where: { id: runId }, data: { checkpoint: checkpoint as Prisma.InputJsonValue } });
}

// The status of a piece of work (an import) that one run carries out: a run that ended with some
// items failed is, for the single piece of work, failed.
export function workStatusOf(runStatus: RunStatus): 'queued' | 'running' | 'completed' | 'failed' | 'cancelled' {
  if (runStatus === 'completed_with_errors') return 'failed';
  return runStatus;
}
