import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client.js';
import { Prisma } from '../db/client.js';
import type { RunItemStatus, RunStatus } from '../generated/prisma/enums.js';

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

const notTerminal = { notIn: TERMINAL_RUN_STATUSES };

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
  const rows = await db.workflowRunItem.findMany({ where: { runId, key: { in: keys } }, select: { id: true, key: true } });
  return Object.fromEntries(rows.map((row) => [row.key, row.id]));
}

// False when the item was cancelled (or already finished) and must not be worked on.
export async function beginItem(db: Db, itemId: string): Promise<boolean> {
  const { count } = await db.workflowRunItem.updateMany({ where: { id: itemId, status: 'queued' }, data: { status: 'running' } });
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
      result: outcome.status === 'completed' ? ((outcome.result ?? Prisma.DbNull) as Prisma.InputJsonValue) : Prisma.DbNull,
      failure: outcome.status === 'failed' ? (outcome.failure as unknown as Prisma.InputJsonValue) : Prisma.DbNull,
      finishedAt: new Date(),
    },
  });
}

export async function itemCounts(db: Db, runIds: string[]): Promise<Map<string, ItemCounts>> {
  const groups = await db.workflowRunItem.groupBy({ by: ['runId', 'status'], where: { runId: { in: runIds } }, _count: { _all: true } });
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
  const runFailure = failure ?? (status === 'failed' ? { code: 'all_items_failed', message: 'Every item of this run failed; see its items.' } : null);
  await closeRun(db, runId, status, runFailure, failure ? 'failed' : 'cancelled');
  const run = await db.workflowRun.findUniqueOrThrow({ where: { id: runId }, select: { status: true } });
  return run.status;
}

// Ends a run that has not ended yet; its unfinished items take `unfinishedItemsBecome`.
export async function closeRun(
  db: Db,
  runId: string,
  status: RunStatus,
  failure: RunFailure | null,
  unfinishedItemsBecome: 'cancelled' | 'failed',
): Promise<boolean> {
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
    if (count === 0) return false;
    await tx.workflowRunItem.updateMany({
      where: { runId, status: { in: UNFINISHED_ITEM_STATUSES } },
      data: {
        status: unfinishedItemsBecome,
        finishedAt: new Date(),
        ...(unfinishedItemsBecome === 'failed' && failure ? { failure: failure as unknown as Prisma.InputJsonValue } : {}),
      },
    });
    return true;
  });
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
