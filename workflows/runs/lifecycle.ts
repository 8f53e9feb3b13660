import { ApplicationFailure, CancellationScope, isCancellation, proxyLocalActivities } from '@temporalio/workflow';
import type { RunActivities } from '../../activities/runs.js';
import type { ItemOutcome } from '../../src/runs/read-model.js';
import { publicFailure } from '../../src/shared/failures.js';

// The life of every run, shared by all workflows: started → items → a terminal status in the read
// model, mirrored by the Temporal execution status (a failed run fails its workflow, so Temporal UI
// and the API agree).

// Read-model writes are short database statements: local activities run them in the worker
// without a round trip through the Temporal server per step (several times faster per run), and
// are retried the same way after a crash because they are idempotent.
export const runModel = proxyLocalActivities<RunActivities>({
  startToCloseTimeout: '1 minute',
  localRetryThreshold: '10 seconds',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '30 seconds', maximumAttempts: 30 },
});

export interface NewRunItem {
  key: string;
  label?: string;
  recordType?: string;
  recordId?: string;
}

export interface RunItemRef {
  id: string;
  key: string;
}

// What the run or item says when its work failed: the public failure of the activity's error
// (its own code and message, or internal_error), never the error's raw text.
const failureOf = (error: unknown) => publicFailure(error);

// `body` may answer 'continue_as_new' (a long sync): the run stays open and the caller continues
// it as a new execution of the same workflow.
export async function executeRun(
  runId: string,
  body: () => Promise<void | 'continue_as_new'>,
): Promise<'finished' | 'continue_as_new'> {
  await runModel.markRunStarted(runId);
  try {
    if ((await body()) === 'continue_as_new') return 'continue_as_new';
  } catch (error) {
    return endRunOnError(runId, error);
  }
  const status = await runModel.finishRun(runId, null);
  if (status === 'failed') throw ApplicationFailure.nonRetryable('Every item of this run failed.', 'AllItemsFailed');
  return 'finished';
}

// A run whose only work is one item (an invoice import): the same life as executeRun with
// processItems, in two read-model activities instead of five (fewer statements, and fewer
// markers in the workflow's history).
export async function executeSingleItemRun(
  runId: string,
  item: NewRunItem,
  work: () => Promise<unknown>,
): Promise<void> {
  let status: string;
  try {
    const { itemId, proceed } = await runModel.startSingleItemRun(runId, item);
    const outcome = proceed ? await outcomeOf(work) : null;
    status = await runModel.finishSingleItemRun(runId, itemId, outcome);
  } catch (error) {
    return endRunOnError(runId, error);
  }
  if (status === 'failed') throw ApplicationFailure.nonRetryable('Every item of this run failed.', 'AllItemsFailed');
}

// A single-item run whose one local activity starts the run, does the work and finishes the
// run itself (runSingleItem in src/runs/read-model.ts): one marker in the workflow's history
// instead of three, for work as short as an invoice import. When the activity fails for good,
// `failed` lets the work record its side of it, and the item fails here as in
// executeSingleItemRun.
export async function executeRunInOneActivity(
  runId: string,
  item: NewRunItem,
  activity: () => Promise<string>,
  failed: (error: unknown) => Promise<void>,
): Promise<void> {
  let status: string;
  try {
    status = await activity();
  } catch (error) {
    await CancellationScope.nonCancellable(() => failed(error));
    if (isCancellation(error)) return endRunOnError(runId, error);
    try {
      const { itemId } = await runModel.startSingleItemRun(runId, item);
      status = await runModel.finishSingleItemRun(runId, itemId, { status: 'failed', failure: failureOf(error) });
    } catch (finishError) {
      return endRunOnError(runId, finishError);
    }
  }
  if (status === 'failed') throw ApplicationFailure.nonRetryable('Every item of this run failed.', 'AllItemsFailed');
}

// An item's failure is its outcome; a cancellation stops the run.
async function outcomeOf(work: () => Promise<unknown>): Promise<ItemOutcome> {
  try {
    return { status: 'completed', result: (await work()) ?? null };
  } catch (error) {
    if (isCancellation(error)) throw error;
    return { status: 'failed', failure: failureOf(error) };
  }
}

async function endRunOnError(runId: string, error: unknown): Promise<never> {
  if (isCancellation(error)) {
    await CancellationScope.nonCancellable(() => runModel.markRunCancelled(runId));
    throw error;
  }
  const failure = failureOf(error);
  await runModel.finishRun(runId, failure);
  throw ApplicationFailure.nonRetryable(failure.message, 'RunFailed');
}

export async function registerItems(runId: string, items: NewRunItem[], complete: boolean): Promise<RunItemRef[]> {
  const ids = await runModel.registerRunItems(runId, items, complete);
  return items.map((item) => ({ id: ids[item.key]!, key: item.key }));
}

// Runs `work` for each item that is still queued (items cancelled through the API are skipped);
// an item's failure is recorded on the item and does not stop the others.
export async function processItems<T extends RunItemRef>(
  items: T[],
  work: (item: T) => Promise<unknown>,
  options: { concurrency?: number } = {},
): Promise<void> {
  const concurrency = Math.max(1, options.concurrency ?? 1);
  let next = 0;
  // `concurrency` lanes take the next item in list order; with 1, items run one after another.
  const lane = async () => {
    while (next < items.length) await processItem(items[next++]!, work);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
}

// Runs `work` on the items in batches of `size`, `concurrency` batches at a time, for work short
// enough per item that an activity per item would cost more than the work (check runs). Each
// batch's activity begins and finishes its own items (skipping items cancelled through the API);
// when it fails for good, its unfinished items fail with its error and the other batches go on.
export async function processItemBatches<T extends RunItemRef>(
  items: T[],
  work: (batch: T[]) => Promise<unknown>,
  options: { size: number; concurrency?: number },
): Promise<void> {
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += options.size)
    batches.push(items.slice(start, start + options.size));
  let next = 0;
  const lane = async () => {
    while (next < batches.length) {
      const batch = batches[next++]!;
      try {
        await work(batch);
      } catch (error) {
        if (isCancellation(error)) throw error;
        await runModel.failRunItems(
          batch.map((item) => item.id),
          failureOf(error),
        );
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, options.concurrency ?? 1), batches.length) }, lane));
}

async function processItem<T extends RunItemRef>(item: T, work: (item: T) => Promise<unknown>): Promise<void> {
  if (!(await runModel.beginRunItem(item.id))) return;
  try {
    const result = await work(item);
    await runModel.completeRunItem(item.id, result ?? null);
  } catch (error) {
    if (isCancellation(error)) throw error;
    await runModel.failRunItem(item.id, failureOf(error));
  }
}
