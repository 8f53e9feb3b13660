import { ApplicationFailure, CancellationScope, isCancellation, proxyLocalActivities } from '@temporalio/workflow';
import type { ImportActivities } from '../activities/imports.js';
import type { RunArgs } from '../src/runs/run-args.js';
import { executeSingleItemRun } from './runs/lifecycle.js';

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

// One invoice file: classify, parse and store it (or find it is a duplicate), match it to
// agreements and check it, in one local activity; with the run's start and end, three in all
// (each one is a marker in the history the Temporal server keeps).
export async function importInvoiceWorkflow(args: RunArgs<{ importId: string }>): Promise<void> {
  const { importId } = args.input;
  const item = { key: 'invoice', label: 'Import the invoice file', recordType: 'invoice_import', recordId: importId };
  await executeSingleItemRun(args.runId, item, async () => {
    let result;
    try {
      result = await imports.importInvoiceFile(importId, args.runId, args.organizationId);
    } catch (error) {
      const failure = isCancellation(error) ? { code: 'cancelled', message: 'The import was cancelled.' } : failureOf(error);
      await CancellationScope.nonCancellable(() => imports.failImport(importId, failure));
      throw error;
    }
    // A file that is no invoice, or could not be read, is recorded as such by the import itself.
    if (result.kind === 'failed') throw ApplicationFailure.nonRetryable(result.message, result.code);
    if (result.kind === 'not_invoice') return { outcome: 'not_invoice', classification_reason: result.reason };
    const { kind: _stored, ...summary } = result;
    return summary;
  });
}
