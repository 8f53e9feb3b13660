import { CancellationScope, patched, proxyActivities } from '@temporalio/workflow';
import type { CheckActivities } from '../activities/checks.js';
import type { CheckPair } from '../src/checks/eligibility.js';
import type { RunArgs } from '../src/runs/run-args.js';
import { executeRun, processItemBatches, processItems, registerItems } from './runs/lifecycle.js';

const checks = proxyActivities<CheckActivities>({
  startToCloseTimeout: '5 minutes',
  // Heartbeated by the worker while it runs (src/temporal/activity-heartbeats.ts): if the worker
  // dies, another one retries it a minute later.
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 10 },
});

// Runs started before check batches work pair by pair, this many in flight at once.
const CHECK_CONCURRENCY = 4;
// Pairs per activity, and activities in flight at once: batches are large enough that the
// activity round trip is small beside the checks, small enough that progress moves and a retried
// batch redoes little; two overlap one batch's reads with the other's checks.
const CHECK_BATCH_SIZE = 25;
const CHECK_BATCH_CONCURRENCY = 2;
const CHECK_BATCHES_PATCH = 'check-pairs-in-batches';
// Since a batch stores its checks in one transaction, each batch alternates between the worker's
// CPU (checkers) and the database's (its reads and its store): a third batch in flight keeps both
// busy. Runs started before keep two.
const CHECK_BATCHES_IN_FLIGHT = 3;
const CHECK_BATCHES_IN_FLIGHT_PATCH = 'check-batches-three-in-flight';

export interface CheckRunInput {
  pairs: CheckPair[];
}

const keyOf = (pair: CheckPair) => `${pair.invoiceId}:${pair.agreementId}`;

// Checks invoices against agreements: one run item per (invoice, agreement) pair. Whatever
// happens to the items, the invoices' check state is settled at the end.
export async function checkInvoicesWorkflow(args: RunArgs<CheckRunInput>): Promise<void> {
  const { organizationId, runId, input } = args;
  const pairs = new Map(input.pairs.map((pair) => [keyOf(pair), pair]));
  const invoiceIds = [...new Set(input.pairs.map((pair) => pair.invoiceId))];
  await executeRun(runId, async () => {
    const items = await registerItems(
      runId,
      [...pairs.entries()].map(([key, pair]) => ({
        key,
        label: 'Check the invoice against the agreement',
        recordType: 'invoice',
        recordId: pair.invoiceId,
      })),
      true,
    );
    await checks.beginInvoiceChecks(invoiceIds);
    try {
      // Checks of different pairs are independent (one pair's alerts are written under its own lock).
      if (patched(CHECK_BATCHES_PATCH)) {
        // Pairs in batches: one activity per batch instead of three steps per pair, and what the
        // pairs of a batch share (the agreement's price items, the supplier's charges) read once.
        await processItemBatches(
          items,
          (batch) =>
            checks.checkPairs(
              organizationId,
              runId,
              batch.map((item) => ({ itemId: item.id, ...pairs.get(item.key)! })),
            ),
          {
            size: CHECK_BATCH_SIZE,
            concurrency: patched(CHECK_BATCHES_IN_FLIGHT_PATCH) ? CHECK_BATCHES_IN_FLIGHT : CHECK_BATCH_CONCURRENCY,
          },
        );
      } else {
        await processItems(
          items,
          (item) => {
            const pair = pairs.get(item.key)!;
            return checks.checkPair(organizationId, runId, pair.invoiceId, pair.agreementId);
          },
          { concurrency: CHECK_CONCURRENCY },
        );
      }
    } finally {
      await CancellationScope.nonCancellable(() => checks.settleInvoiceChecks(organizationId, invoiceIds));
    }
  });
}
