import { CancellationScope, proxyActivities } from '@temporalio/workflow';
import type { AgreementDocumentActivities } from '../activities/agreement-documents.js';
import type { RunArgs } from '../src/runs/run-args.js';
import { executeRun, executeSingleItemRun, processItems, registerItems } from './runs/lifecycle.js';

// Extraction of a large PDF or workbook may take a minute of CPU; a crash is retried.
const documents = proxyActivities<AgreementDocumentActivities>({
  startToCloseTimeout: '10 minutes',
  // Heartbeated by the worker while it runs (src/temporal/activity-heartbeats.ts): if the worker
  // dies, another one retries it a minute later.
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 5 },
});

export interface DocumentImportInput {
  agreementDocumentIds: string[];
  maxPassages: number;
}

export interface DocumentIndexInput {
  documentId: string;
  maxPassages: number;
}

// Every document of one document-import request, each an item of the same run: text extracted,
// classified as terms or price list, passages indexed for search.
export async function documentImportWorkflow(args: RunArgs<DocumentImportInput>): Promise<void> {
  try {
    await executeRun(args.runId, async () => {
      const items = await registerItems(
        args.runId,
        args.input.agreementDocumentIds.map((id) => ({
          key: id,
          label: 'Classify and index an agreement document',
          recordType: 'agreement_document',
          recordId: id,
        })),
        true,
      );
      await processItems(items, (item) =>
        documents.processAgreementDocument(item.key, args.runId, args.input.maxPassages),
      );
    });
  } finally {
    // Cancelled or failed early: documents the run never reached must not stay "processing".
    await CancellationScope.nonCancellable(() => documents.settleAgreementDocuments(args.runId));
  }
}

// (Re)indexes one document for search.
export async function documentIndexWorkflow(args: RunArgs<DocumentIndexInput>): Promise<void> {
  const { documentId, maxPassages } = args.input;
  await executeSingleItemRun(
    args.runId,
    { key: documentId, label: 'Extract and index a document', recordType: 'document', recordId: documentId },
    () => documents.indexDocument(documentId, args.runId, maxPassages),
  );
}
