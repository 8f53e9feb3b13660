import { randomUUID } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError, WorkflowFailedError, WorkflowNotFoundError } from '@temporalio/client';
import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/common';
import type { AppDeps } from '../deps.js';
import type { WorkflowRun } from '../generated/prisma/client.js';
import { Prisma } from '../db/client.js';
import { errors, type ApiError } from '../http/errors.js';
import { countRunFinished, countRunStarted } from '../http/metrics.js';
import { runSearchAttributes } from '../temporal/search-attributes.js';
import { publicFailure } from '../shared/failures.js';
import { deterministicUuid } from '../shared/ids.js';
import {
  cancelRunDecision,
  closeRun,
  finishRun,
  isTerminal,
  itemCounts,
  UNFINISHED_ITEM_STATUSES,
  type RunFailure,
} from './read-model.js';
import type { RunArgs } from './run-args.js';
import { serializeRun } from './serialize.js';
import type { WorkflowRunView } from './schemas.js';

// A run row exists before its workflow starts, so a poll right after the 202 finds it. A row
// whose workflow never started (the API died in between) is started by reconciliation below, or
// failed when that is too late or its workflow ID is shared.
const MISSING_WORKFLOW_GRACE_MS = 60_000;
const LATE_START_LIMIT_MS = 24 * 3_600_000;

export interface StartRunRequest {
  organizationId: string;
  type: string;
  owner?: { type: string; id: string } | null;
  input?: Record<string, unknown>;
  // Fixed ids make starting idempotent (see http/idempotency.ts and retryRun).
  runId?: string;
  // A Temporal workflow ID shared by runs that must never overlap (syncs: sync-<integration id>);
  // the run id otherwise.
  workflowId?: string | null;
  retryOfRunId?: string | null;
  createdByUserId?: string | null;
}

type Deps = Pick<AppDeps, 'db' | 'temporal' | 'config' | 'runTypes' | 'logger'>;

// The run's row, for startRun or for a caller that inserts it in the same transaction as the
// records the run works on (then startRecordedRun).
export function newRunRow(
  deps: Pick<Deps, 'runTypes'>,
  request: StartRunRequest,
  id: string,
): Prisma.WorkflowRunUncheckedCreateInput {
  deps.runTypes.get(request.type);
  return {
    id,
    organizationId: request.organizationId,
    type: request.type,
    ownerType: request.owner?.type ?? null,
    ownerId: request.owner?.id ?? null,
    input: (request.input ?? {}) as Prisma.InputJsonValue,
    retryOfRunId: request.retryOfRunId ?? null,
    createdByUserId: request.createdByUserId ?? null,
    workflowId: request.workflowId ?? null,
  };
}

// The Temporal workflow ID of a run: its own id, unless it shares one with runs that must not overlap.
export function workflowIdOf(run: Pick<WorkflowRun, 'id' | 'workflowId'>): string {
  return run.workflowId ?? run.id;
}

// Another run holds the shared workflow ID of `run` (one sync per integration): the 409 names it.
async function runningHolderOf(deps: Deps, run: WorkflowRun): Promise<ApiError> {
  const holder = await deps.db.workflowRun.findFirst({
    where: {
      organizationId: run.organizationId,
      workflowId: run.workflowId,
      id: { not: run.id },
      status: { in: ['queued', 'running'] },
    },
    select: { id: true },
  });
  return errors.conflict(
    'run_already_running',
    'Another run of this record is running; retry when it has finished.',
    holder ? { running_run_id: holder.id } : undefined,
  );
}

async function insertRunOnce(
  deps: Deps,
  request: StartRunRequest,
  id: string,
): Promise<{ run: WorkflowRun; created: boolean }> {
  try {
    const run = await deps.db.workflowRun.create({ data: newRunRow(deps, request, id) });
    return { run, created: true };
  } catch (error) {
    if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002')) throw error;
    const run = await deps.db.workflowRun.findFirstOrThrow({ where: { id, organizationId: request.organizationId } });
    return { run, created: false };
  }
}

export async function startWorkflow(deps: Deps, run: WorkflowRun, reuse: WorkflowIdReusePolicy): Promise<void> {
  const runType = deps.runTypes.get(run.type);
  const args: RunArgs = {
    runId: run.id,
    organizationId: run.organizationId,
    input: (run.input ?? {}) as Record<string, unknown>,
  };
  await deps.temporal.workflow.start(runType.workflowType, {
    workflowId: workflowIdOf(run),
    taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
    args: [args],
    typedSearchAttributes: runSearchAttributes(run),
    // A shared workflow ID is reused run after run; FAIL refuses it while one is running.
    workflowIdReusePolicy: run.workflowId ? WorkflowIdReusePolicy.ALLOW_DUPLICATE : reuse,
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.FAIL,
    memo: { runId: run.id },
  });
}

// Starts a run whose workflow ID is shared (syncs). The previous run's workflow closes a moment
// after its row turned terminal (its last activities run after the read model is final): while
// the execution holding the ID belongs to a finished run, wait for it (a few seconds at most).
// Throws WorkflowExecutionAlreadyStartedError when an unfinished run holds it.
export async function startSharedWorkflow(deps: Deps, run: WorkflowRun): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await startWorkflow(deps, run, WorkflowIdReusePolicy.ALLOW_DUPLICATE);
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError) || attempt >= 50) throw error;
      const holderId = await holderRunId(deps, workflowIdOf(run));
      const holder = holderId
        ? await deps.db.workflowRun.findUnique({ where: { id: holderId }, select: { status: true } })
        : null;
      if (holderId !== run.id && holder && !isTerminal(holder.status)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

// The run whose execution currently holds a workflow ID (from the execution's memo).
export async function holderRunId(deps: Deps, workflowId: string): Promise<string | null> {
  const description = await deps.temporal.workflow
    .getHandle(workflowId)
    .describe()
    .catch(() => null);
  return (description?.memo as { runId?: string } | undefined)?.runId ?? null;
}

export async function startRun(deps: Deps, request: StartRunRequest): Promise<WorkflowRun> {
  const { run, created } = await insertRunOnce(deps, request, request.runId ?? randomUUID());
  if (!created && run.status !== 'queued') return run;
  try {
    await startRecordedRun(deps, run);
  } catch (error) {
    // A rejected request changes nothing: the run row goes again.
    if (created) await deps.db.workflowRun.delete({ where: { id: run.id } }).catch(() => undefined);
    throw error;
  }
  return run;
}

// Starts the workflow of a run whose row is already written; a workflow started already counts
// as started. Throws service_unavailable when Temporal cannot take it (the caller undoes its rows).
export async function startRecordedRun(deps: Deps, run: WorkflowRun): Promise<void> {
  try {
    await startWorkflow(deps, run, WorkflowIdReusePolicy.REJECT_DUPLICATE);
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return;
    deps.logger.error({ err: error, run_id: run.id }, 'could not start workflow');
    throw errors.serviceUnavailable('The background work could not be started right now; retry shortly.');
  }
  countRunStarted(run.type);
}

const WORKFLOW_FAILED: RunFailure = { code: 'workflow_failed', message: 'The workflow failed in Temporal.' };

async function failureFromTemporal(deps: Deps, workflowId: string): Promise<RunFailure> {
  try {
    await deps.temporal.workflow.getHandle(workflowId).result();
  } catch (error) {
    if (error instanceof WorkflowFailedError) {
      // The workflow's own failure when it is one of ours; never a library's text.
      const failure = publicFailure(error.cause, WORKFLOW_FAILED);
      deps.logger.warn(
        { err: error, workflow_id: workflowId, public_code: failure.code },
        'workflow failed in Temporal',
      );
      return failure;
    }
  }
  return WORKFLOW_FAILED;
}

// The API that wrote the row stopped (a crash, a kill, a lost machine) before it started the
// workflow; the row and its records (an uploaded invoice, a check's pairs) are committed, and the
// client's repeated request finds them rather than starting the work again. Started now, the work
// it was promised is done. Not a run that has begun (its workflow existed), one whose workflow ID
// is shared (a sync: a later sync may hold it), nor one left for a day.
function mayStartLate(run: WorkflowRun, age: number): boolean {
  return run.status === 'queued' && run.startedAt === null && run.workflowId === null && age < LATE_START_LIMIT_MS;
}

// Temporal is the source of truth: a run whose workflow ended outside our own code (cancelled
// or terminated in Temporal UI, timed out, never started) must not stay running in the API.
async function reconcileOne(deps: Deps, run: WorkflowRun): Promise<boolean> {
  if (isTerminal(run.status)) return false;
  let status: string;
  try {
    const description = await deps.temporal.workflow.getHandle(workflowIdOf(run)).describe();
    // A shared workflow ID's latest execution may be an earlier run's (this one not started yet).
    if (run.workflowId && (description.memo as { runId?: string } | undefined)?.runId !== run.id) {
      throw new WorkflowNotFoundError('not this run', workflowIdOf(run), undefined);
    }
    status = description.status.name;
  } catch (error) {
    if (!(error instanceof WorkflowNotFoundError)) throw error;
    const age = Date.now() - run.createdAt.getTime();
    if (age < MISSING_WORKFLOW_GRACE_MS) return false;
    if (mayStartLate(run, age)) {
      await startRecordedRun(deps, run);
      deps.logger.warn(
        { run_id: run.id, type: run.type },
        'started the workflow of a run whose API stopped before starting it',
      );
      return false;
    }
    return closeRun(
      deps.db,
      run.id,
      'failed',
      { code: 'workflow_not_found', message: 'The workflow of this run was never started.' },
      'failed',
    );
  }
  switch (status) {
    case 'RUNNING':
      return false;
    case 'COMPLETED':
      await finishRun(deps.db, run.id);
      return true;
    case 'CANCELLED':
      return closeRun(deps.db, run.id, 'cancelled', null, 'cancelled');
    case 'TERMINATED':
      return closeRun(
        deps.db,
        run.id,
        'failed',
        { code: 'workflow_terminated', message: 'The workflow was terminated in Temporal.' },
        'cancelled',
      );
    case 'TIMED_OUT':
      return closeRun(
        deps.db,
        run.id,
        'failed',
        { code: 'workflow_timed_out', message: 'The workflow timed out in Temporal.' },
        'failed',
      );
    case 'FAILED':
      return closeRun(deps.db, run.id, 'failed', await failureFromTemporal(deps, workflowIdOf(run)), 'failed');
    default:
      return false;
  }
}

export async function reconcileRuns(deps: Deps, runs: WorkflowRun[]): Promise<WorkflowRun[]> {
  return Promise.all(
    runs.map(async (run) => {
      try {
        if (!(await reconcileOne(deps, run))) return run;
        const fresh = await deps.db.workflowRun.findUniqueOrThrow({ where: { id: run.id } });
        countRunFinished(fresh.type, fresh.status);
        return fresh;
      } catch (error) {
        // Temporal unreachable: answer from the read model rather than failing the read.
        deps.logger.warn({ err: error, run_id: run.id }, 'could not reconcile run with Temporal');
        return run;
      }
    }),
  );
}

export async function findRun(deps: Deps, organizationId: string, runId: string): Promise<WorkflowRun> {
  const run = await deps.db.workflowRun.findFirst({ where: { id: runId, organizationId } });
  if (!run) throw errors.notFound('workflow run');
  const [reconciled] = await reconcileRuns(deps, [run]);
  return reconciled!;
}

export async function viewRuns(deps: Pick<AppDeps, 'db'>, runs: WorkflowRun[]): Promise<WorkflowRunView[]> {
  const counts = await itemCounts(
    deps.db,
    runs.map((run) => run.id),
  );
  return runs.map((run) => serializeRun(run, counts.get(run.id)!));
}

export async function viewRun(deps: Pick<AppDeps, 'db'>, run: WorkflowRun): Promise<WorkflowRunView> {
  return (await viewRuns(deps, [run]))[0]!;
}

// Running items of a cancelled run finish on their own; the answer waits briefly for them so it
// shows their results, and never longer than `timeoutMs`.
async function waitForRunningItems(deps: Deps, runId: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const running = await deps.db.workflowRunItem.count({ where: { runId, status: 'running' } });
    if (running === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// Said the same way by every endpoint that cannot act on a finished run.
export function alreadyFinished(run: Pick<WorkflowRun, 'status'>) {
  return errors.conflict(
    'run_already_finished',
    `This run has already finished: it is ${run.status}. A finished run cannot be cancelled.`,
  );
}

async function cancelItems(deps: Deps, run: WorkflowRun, itemIds: string[]): Promise<void> {
  const found = await deps.db.workflowRunItem.findMany({
    where: { runId: run.id, id: { in: itemIds } },
    select: { id: true },
  });
  const known = new Set(found.map((item) => item.id));
  const unknown = itemIds.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw errors.validation(
      'Some item_ids are not items of this run.',
      unknown.map((id) => ({ field: 'item_ids', message: `${id} is not an item of this run` })),
    );
  }
  // Only queued items can still be stopped; the workflow skips them (read-model beginItem).
  await deps.db.workflowRunItem.updateMany({
    where: { runId: run.id, id: { in: itemIds }, status: 'queued' },
    data: { status: 'cancelled', finishedAt: new Date() },
  });
}

// A 2xx cancel means the run ends cancelled: the decision is one conditional update of the read
// model (cancelRunDecision), taken before Temporal is told, and no finishing step of the
// workflow can overwrite it. A run that finished first is a 409 saying how it finished.
export async function cancelRun(
  deps: Deps,
  organizationId: string,
  runId: string,
  itemIds?: string[],
): Promise<WorkflowRun> {
  const run = await findRun(deps, organizationId, runId);
  if (isTerminal(run.status)) throw alreadyFinished(run);
  if (itemIds) {
    await cancelItems(deps, run, itemIds);
    return deps.db.workflowRun.findUniqueOrThrow({ where: { id: run.id } });
  }
  if (!(await cancelRunDecision(deps.db, run.id))) {
    throw alreadyFinished(await deps.db.workflowRun.findUniqueOrThrow({ where: { id: run.id } }));
  }
  countRunFinished(run.type, 'cancelled');
  try {
    await deps.temporal.workflow.getHandle(workflowIdOf(run)).cancel();
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) {
      // No workflow left to finish its items (it never started, or has just closed).
      await deps.db.workflowRunItem.updateMany({
        where: { runId: run.id, status: { in: UNFINISHED_ITEM_STATUSES } },
        data: { status: 'cancelled', finishedAt: new Date() },
      });
    } else {
      // The run is cancelled all the same: its workflow begins no further item and cannot
      // change the run's status; it stops when Temporal delivers the cancellation.
      deps.logger.warn({ err: error, run_id: run.id }, 'could not send the cancellation to Temporal');
    }
  }
  await waitForRunningItems(deps, run.id, 5_000);
  return deps.db.workflowRun.findUniqueOrThrow({ where: { id: run.id } });
}

export async function retryRun(deps: Deps, organizationId: string, runId: string): Promise<WorkflowRun> {
  const run = await findRun(deps, organizationId, runId);
  const strategy = deps.runTypes.get(run.type).retry;
  if (strategy === 'none') {
    throw errors.conflict(
      'run_type_not_retryable',
      `Runs of type ${run.type} cannot be retried; only failed import, check and sync runs can. Start the work again with the request that started it.`,
    );
  }
  if (strategy === 'new_run') {
    const existingRetry = await deps.db.workflowRun.findFirst({ where: { retryOfRunId: run.id, organizationId } });
    if (existingRetry) return existingRetry;
  }
  if (run.status !== 'failed') {
    throw errors.conflict('run_not_retryable', `Only a failed run can be retried; this one is ${run.status}.`);
  }
  return strategy === 'new_run' ? retryAsNewRun(deps, run) : resumeRun(deps, run);
}

function retryAsNewRun(deps: Deps, run: WorkflowRun): Promise<WorkflowRun> {
  // One retry per failed run: its id is derived from the failed run, so repeats find it again.
  const runId = deterministicUuid(`retry-of:${run.id}`);
  return startRun(deps, {
    organizationId: run.organizationId,
    type: run.type,
    owner: run.ownerType && run.ownerId ? { type: run.ownerType, id: run.ownerId } : null,
    input: (run.input ?? {}) as Record<string, unknown>,
    runId,
    retryOfRunId: run.id,
    createdByUserId: run.createdByUserId,
  });
}

// A failed resumable run (a sync) starts again under the same id; finished items and its
// checkpoint stay, failed items are queued again.
async function resumeRun(deps: Deps, run: WorkflowRun): Promise<WorkflowRun> {
  const resumed = await reopenFailedRun(deps, run);
  const current = await deps.db.workflowRun.findUniqueOrThrow({ where: { id: run.id } });
  if (!resumed) return current;
  try {
    if (current.workflowId) await startSharedWorkflow(deps, current);
    else await startWorkflow(deps, current, WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY);
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError && !run.workflowId) return current;
    await closeRun(
      deps.db,
      run.id,
      'failed',
      (run.failure as RunFailure | null) ?? { code: 'resume_failed', message: 'The run could not be resumed.' },
      'failed',
    );
    // A shared workflow ID held by another running execution: that run must finish first.
    if (error instanceof WorkflowExecutionAlreadyStartedError) throw await runningHolderOf(deps, run);
    throw errors.serviceUnavailable('The run could not be resumed right now; retry shortly.');
  }
  countRunStarted(run.type);
  return current;
}

// failed → queued, its failed items queued again; false when another request reopened it first.
// A unique index allows one unfinished sync per integration: reopening one while another runs is a 409.
async function reopenFailedRun(deps: Deps, run: WorkflowRun): Promise<boolean> {
  try {
    return await reopenFailedRunRows(deps, run);
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002')
      throw await runningHolderOf(deps, run);
    throw error;
  }
}

async function reopenFailedRunRows(deps: Deps, run: WorkflowRun): Promise<boolean> {
  return deps.db.$transaction(async (tx) => {
    const { count } = await tx.workflowRun.updateMany({
      where: { id: run.id, status: 'failed' },
      data: {
        status: 'queued',
        failure: Prisma.DbNull,
        finishedAt: null,
        attempt: { increment: 1 },
        version: { increment: 1 },
      },
    });
    if (count === 1) {
      await tx.workflowRunItem.updateMany({
        where: { runId: run.id, status: 'failed' },
        data: { status: 'queued', failure: Prisma.DbNull, finishedAt: null },
      });
    }
    return count === 1;
  });
}
