import { proxyActivities } from '@temporalio/workflow';
import type { TopicActivities } from '../activities/topics.js';
import type { RunArgs } from '../src/runs/run-args.js';
import { executeRun, processItems, registerItems } from './runs/lifecycle.js';

const topics = proxyActivities<TopicActivities>({
  startToCloseTimeout: '5 minutes',
  // Heartbeated by the worker while it runs (src/temporal/activity-heartbeats.ts): if the worker
  // dies, another one retries it a minute later.
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 10 },
});

// Sorts one agreement's alerts into topics: a run of one item (src/alerts/topic-reconcile).
export async function reconcileTopicsWorkflow(args: RunArgs<{ agreementId: string }>): Promise<void> {
  const { organizationId, runId, input } = args;
  await executeRun(runId, async () => {
    const items = await registerItems(
      runId,
      [
        {
          key: 'reconcile',
          label: "Sort the agreement's alerts into topics",
          recordType: 'agreement',
          recordId: input.agreementId,
        },
      ],
      true,
    );
    await processItems(items, () => topics.reconcileAlertTopics(organizationId, input.agreementId));
  });
}
