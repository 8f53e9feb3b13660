import { proxyActivities } from '@temporalio/workflow';
import type { MatchingActivities } from '../activities/matching.js';
import type { RunArgs } from '../src/runs/run-args.js';
import { executeRun, processItems, registerItems } from './runs/lifecycle.js';

const matching = proxyActivities<MatchingActivities>({
  startToCloseTimeout: '5 minutes',
  // Heartbeated by the worker while it runs (src/temporal/activity-heartbeats.ts): if the worker
  // dies, another one retries it a minute later.
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 10 },
});

export interface RefreshInput {
  // Given: re-match these invoices. Absent: every invoice of the organization (an agreement changed).
  invoiceIds?: string[];
}

// Re-matches invoices to agreements, one item per batch of invoices.
export async function refreshMatchesWorkflow(args: RunArgs<RefreshInput>): Promise<void> {
  const { organizationId, runId, input } = args;
  await executeRun(runId, async () => {
    if (input.invoiceIds) {
      const items = await registerItems(
        runId,
        [{ key: 'invoices', label: `Re-match ${input.invoiceIds.length} invoice(s)` }],
        true,
      );
      await processItems(items, () => matching.refreshMatchesForInvoices(organizationId, input.invoiceIds!));
      return;
    }
    let afterId: string | null = null;
    for (let batch = 1; ; batch++) {
      const invoiceIds: string[] = await matching.nextInvoiceBatch(organizationId, afterId);
      if (invoiceIds.length === 0) break;
      const items = await registerItems(
        runId,
        [{ key: `batch-${batch}`, label: `Re-match invoice batch ${batch} (${invoiceIds.length})` }],
        false,
      );
      await processItems(items, () => matching.refreshMatchesForInvoices(organizationId, invoiceIds));
      afterId = invoiceIds[invoiceIds.length - 1]!;
    }
    await registerItems(runId, [], true);
  });
}
