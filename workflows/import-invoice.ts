import { ApplicationFailure, CancellationScope, isCancellation, proxyLocalActivities } from '@temporalio/workflow';
import type { ImportActivities } from '../activities/imports.js';
import type { MatchingActivities } from '../activities/matching.js';
import type { RunArgs } from '../src/runs/run-args.js';
import { executeRun, processItems, registerItems } from './runs/lifecycle.js';

// Local activities: each step is a few database statements and, for parsing, CPU work bounded by
// the parser's own limits (20 MiB, 20 s per PDF). Run in the worker without a server round trip per
// step, an import takes a fraction of the time; after a crash they are retried like any activity.
const imports = proxyLocalActivities<ImportActivities>({
  startToCloseTimeout: '2 minutes',
  localRetryThreshold: '10 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 10 },
});

function failureOf(error: unknown) {
  const cause = (error as { cause?: { message?: string; type?: string } }).cause;
  return { code: cause?.type ?? 'import_failed', message: cause?.message ?? (error as Error).message ?? String(error) };
}

const matching = proxyLocalActivities<MatchingActivities>({
  startToCloseTimeout: '2 minutes',
  localRetryThreshold: '10 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 10 },
});

// One invoice file: classify and parse it, then store it (or find it is a duplicate).
export async function importInvoiceWorkflow(args: RunArgs<{ importId: string }>): Promise<void> {
  const { importId } = args.input;
  await executeRun(args.runId, async () => {
    const items = await registerItems(args.runId, [{ key: 'invoice', label: 'Import the invoice file', recordType: 'invoice_import', recordId: importId }], true);
    await processItems(items, async () => {
      try {
        const parsed = await imports.parseImport(importId, args.runId);
        if (parsed.kind === 'invoice') {
          const stored = await imports.storeImport(importId);
          // Hand over to matching: the new invoice falls under the agreements it matches.
          const matched = await matching.refreshMatchesForInvoices(args.organizationId, [stored.invoice_id]);
          return { ...stored, matched_agreements: matched.matches };
        }
        await imports.rejectImport(importId, parsed);
        if (parsed.kind === 'failed') throw ApplicationFailure.nonRetryable(parsed.message, parsed.code);
        return { outcome: 'not_invoice', classification_reason: parsed.reason };
      } catch (error) {
        const failure = isCancellation(error) ? { code: 'cancelled', message: 'The import was cancelled.' } : failureOf(error);
        await CancellationScope.nonCancellable(() => imports.failImport(importId, failure));
        throw error;
      }
    });
  });
}
