import { proxyActivities } from '@temporalio/workflow';
import type { PriceImportActivities } from '../activities/price-imports.js';
import type { RunArgs } from '../src/runs/run-args.js';
import { executeRun, processItems, registerItems } from './runs/lifecycle.js';

const priceImports = proxyActivities<PriceImportActivities>({
  startToCloseTimeout: '10 minutes',
  // Heartbeated by the worker while it runs (src/temporal/activity-heartbeats.ts): if the worker
  // dies, another one retries it a minute later.
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 5 },
});

// Every price list of one request, each an item of the same run.
export async function priceImportWorkflow(args: RunArgs<{ importIds: string[] }>): Promise<void> {
  await executeRun(args.runId, async () => {
    const items = await registerItems(
      args.runId,
      args.input.importIds.map((id) => ({
        key: id,
        label: 'Read a price list into price items',
        recordType: 'price_import',
        recordId: id,
      })),
      true,
    );
    await processItems(items, (item) => priceImports.runPriceImport(item.key));
  });
}
