import {
  ApplicationFailure,
  CancellationScope,
  condition,
  defineSignal,
  proxyActivities,
  setHandler,
} from '@temporalio/workflow';
import type { TestActivities, TestItemBehaviour } from '../activities/testing.js';
import type { RunArgs } from '../src/runs/run-args.js';
import { executeRun, processItems, registerItems, runModel } from './runs/lifecycle.js';

// Workflows that exist only for the test suite (bundled when ENABLE_TEST_WORKFLOWS=true).
export * from './index.js';

export const releaseSignal = defineSignal('release');

const testWork = proxyActivities<TestActivities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { maximumAttempts: 1 },
});

export interface TestItemsInput {
  items: { key: string; behaviour: TestItemBehaviour }[];
  // Keep progress.total null and wait for the release signal before working.
  holdUntilReleased?: boolean;
  // Fail the whole run (not an item) before any work.
  failRun?: boolean;
  // Finish every item and the run as if no cancellation came: proves a run cancelled through the
  // API is not overwritten by its workflow's finishing steps.
  ignoreCancellation?: boolean;
}

export async function testItemsWorkflow(args: RunArgs<TestItemsInput>): Promise<void> {
  let released = !args.input.holdUntilReleased;
  setHandler(releaseSignal, () => {
    released = true;
  });
  const run = () =>
    executeRun(args.runId, async () => {
      const { attempt } = await runModel.loadRunState(args.runId);
      if (args.input.failRun && attempt === 1)
        throw ApplicationFailure.nonRetryable('the test run failed as asked', 'test_run_failed');
      const items = await registerItems(
        args.runId,
        args.input.items.map(({ key }) => ({ key, label: `test item ${key}` })),
        false,
      );
      await condition(() => released);
      await registerItems(args.runId, [], true);
      const behaviours = new Map(args.input.items.map((item) => [item.key, item.behaviour]));
      await processItems(items, (item) => testWork.performTestItem(behaviours.get(item.key)!, attempt));
    });
  await (args.input.ignoreCancellation ? CancellationScope.nonCancellable(run) : run());
}

// A workflow that does nothing: the floor against which the benchmarks measure our own work.
export async function emptyWorkflow(): Promise<void> {}
