import { CancellationScope, proxyActivities } from '@temporalio/workflow';
import type { CheckActivities } from '../activities/checks.js';
import type { CheckPair } from '../src/checks/eligibility.js';
import type { RunArgs } from '../src/runs/run-args.js';
import { executeRun, processItems, registerItems } from './runs/lifecycle.js';

const checks = proxyActivities<CheckActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 10 },
});

// Checks of one run in flight at once: enough to overlap their database and activity round trips.
const CHECK_CONCURRENCY = 4;

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
      [...pairs.entries()].map(([key, pair]) => ({ key, label: 'Check the invoice against the agreement', recordType: 'invoice', recordId: pair.invoiceId })),
      true,
    );
    await checks.beginInvoiceChecks(invoiceIds);
    try {
      // Checks of different pairs are independent (one pair's alerts are written under its own lock).
      await processItems(
        items,
        (item) => {
          const pair = pairs.get(item.key)!;
          return checks.checkPair(organizationId, runId, pair.invoiceId, pair.agreementId);
        },
        { concurrency: CHECK_CONCURRENCY },
      );
    } finally {
      await CancellationScope.nonCancellable(() => checks.settleInvoiceChecks(organizationId, invoiceIds));
    }
  });
}
