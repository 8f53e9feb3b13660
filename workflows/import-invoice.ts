import { isCancellation, proxyLocalActivities } from '@temporalio/workflow';
import type { ImportActivities } from '../activities/imports.js';
import type { RunArgs } from '../src/runs/run-args.js';
import { publicFailure } from '../src/shared/failures.js';
import { executeRunInOneActivity } from './runs/lifecycle.js';

// Local activities: each is a few database statements and, for parsing, CPU work bounded by the
// parser's own limits (20 MiB, 20 s per PDF). Run in the worker without a server round trip, an
// import takes a fraction of the time; after a crash they are retried like any activity.
const imports = proxyLocalActivities<ImportActivities>({
  startToCloseTimeout: '2 minutes',
  localRetryThreshold: '10 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 10 },
});

// The activity's own failure (its code and message), whether it arrives as is or wrapped in an
// ActivityFailure; anything else is internal_error (src/shared/failures.ts).
function failureOf(error: unknown) {
  if (isCancellation(error)) return { code: 'cancelled', message: 'The import was cancelled.' };
  return publicFailure(error);
}

// One invoice file: start the run, classify and parse the file, store it (or find it is a
// duplicate), match it to agreements, check it and finish the run, all in one local activity, so
// an import is one marker in the history the Temporal server keeps. A file that cannot be read
// fails the run's item; an import that fails for good (retries used up) records why.
export async function importInvoiceWorkflow(args: RunArgs<{ importId: string }>): Promise<void> {
  const { importId } = args.input;
  const item = { key: 'invoice', label: 'Import the invoice file', recordType: 'invoice_import', recordId: importId };
  await executeRunInOneActivity(
    args.runId,
    item,
    () => imports.runInvoiceImport(args.runId, item, importId, args.organizationId),
    (error) => imports.failImport(importId, failureOf(error)),
  );
}
