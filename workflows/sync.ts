import { continueAsNew, ParentClosePolicy, proxyActivities, startChild, workflowInfo } from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy } from '@temporalio/common';
import type { IntegrationActivities, SyncImportResult } from '../activities/integrations.js';
import type { ScheduledSyncArgs } from '../src/integrations/schedules.js';
import type { SyncInput } from '../src/integrations/syncs.js';
import type { RunArgs } from '../src/runs/run-args.js';
import { runSearchAttributes } from '../src/temporal/search-attributes.js';
import {
  executeRun,
  executeSingleItemRun,
  processItems,
  registerItems,
  runModel,
  type RunItemRef,
} from './runs/lifecycle.js';

// Provider calls: a network error or a 5xx is retried a few times (with backoff), then the sync
// fails and keeps its checkpoint; POST /v1/workflow-runs/{id}/retry resumes it from there.
// Heartbeats keep long rate-limit waits alive and let a dead worker's attempt be retried soon.
const provider = proxyActivities<IntegrationActivities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 4 },
});

// Waiting for an import (a child workflow) to end.
const imports = proxyActivities<IntegrationActivities>({
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 20 },
});

// Pages per workflow execution before continueAsNew keeps the history short.
const PAGES_PER_EXECUTION = 20;
// Invoices of a page imported at once.
const IMPORT_CONCURRENCY = 4;

// One invoice: its files become the documents of a normal import (source sync), whose own
// workflow (importInvoiceWorkflow, as for uploads) parses, de-duplicates, matches and checks it.
async function importInvoice(args: RunArgs<SyncInput>, item: RunItemRef): Promise<SyncImportResult> {
  const staged = await provider.stageSyncedInvoice(args.runId, item.key);
  if (staged.kind === 'duplicate') return { outcome: 'duplicate', invoice_id: staged.invoiceId, import_id: null };
  try {
    await startChild('importInvoiceWorkflow', {
      workflowId: staged.importRunId,
      args: [{ runId: staged.importRunId, organizationId: args.organizationId, input: { importId: staged.importId } }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      typedSearchAttributes: runSearchAttributes({
        organizationId: args.organizationId,
        type: 'import',
        ownerType: 'invoice_import',
        ownerId: staged.importId,
      }),
      memo: { runId: staged.importRunId },
    });
  } catch (error) {
    // Started by an earlier attempt of this item: wait for it like for a new one.
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
  return imports.awaitSyncImport(staged.importId);
}

// A sync: pages through the provider's invoices of the period; each invoice is a run item.
// After each page the checkpoint (the next page) is saved, so a failed sync resumed under the same
// id continues after the last page done; items an earlier attempt left unfinished go first.
export async function syncWorkflow(args: RunArgs<SyncInput>): Promise<void> {
  const { runId } = args;
  const ended = await executeRun(runId, async () => {
    const leftovers = await provider.unfinishedSyncItems(runId);
    await processItems(leftovers, (item) => importInvoice(args, item), { concurrency: IMPORT_CONCURRENCY });
    let checkpoint = await provider.loadSyncCheckpoint(runId);
    for (let pages = 0; !checkpoint.done; pages++) {
      if (pages >= PAGES_PER_EXECUTION || workflowInfo().continueAsNewSuggested) return 'continue_as_new';
      const page = await provider.listSyncPage(runId, checkpoint.page);
      const items = await registerItems(
        runId,
        page.invoices.map((invoice) => ({ key: invoice.key, label: invoice.label })),
        page.nextPage === null,
      );
      await processItems(items, (item) => importInvoice(args, item), { concurrency: IMPORT_CONCURRENCY });
      checkpoint = { page: page.nextPage, pagesDone: checkpoint.pagesDone + 1, done: page.nextPage === null };
      await runModel.saveRunCheckpoint(runId, checkpoint);
    }
  });
  if (ended === 'continue_as_new') await continueAsNew<typeof syncWorkflow>(args);
  await provider.recordSyncSuccess(runId);
}

// Started by an integration's nightly Schedule: opens a sync run and starts it as the
// integration's one sync (workflow id sync-<integration id>); nothing when one is running.
export async function scheduledSyncWorkflow(args: ScheduledSyncArgs): Promise<void> {
  const prepared = await provider.prepareScheduledSync(args.integrationId);
  if (!prepared) return;
  try {
    await startChild(syncWorkflow, {
      workflowId: prepared.workflowId,
      args: [prepared.args],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
      typedSearchAttributes: runSearchAttributes({
        organizationId: args.organizationId,
        type: 'sync',
        ownerType: 'integration',
        ownerId: args.integrationId,
      }),
      memo: { runId: prepared.args.runId },
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    await provider.dropScheduledSync(prepared.args.runId);
  }
}

// Fetches the provider's supplier list (a single-item run).
export async function refreshSuppliersWorkflow(args: RunArgs<{ integrationId: string }>): Promise<void> {
  await executeSingleItemRun(
    args.runId,
    {
      key: 'suppliers',
      label: "Fetch the provider's supplier list",
      recordType: 'integration',
      recordId: args.input.integrationId,
    },
    () => provider.refreshIntegrationSuppliers(args.input.integrationId),
  );
}
