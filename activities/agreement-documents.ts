import { ApplicationFailure } from '@temporalio/activity';
import {
  classifyAgreementDocument,
  DEFAULT_LIMITS,
  extractDocumentText,
  type AgreementDocumentClassification,
  type ExtractionResult,
} from '../src/agreements/documents/extraction/index.js';
import { Prisma, type Db } from '../src/db/client.js';
import type { Document } from '../src/generated/prisma/client.js';
import { markIndexing, storeExtraction, type IndexSummary } from '../src/documents/search/index-store.js';
import type { ObjectStorage } from '../src/storage/object-storage.js';
import { markAgreementTermsChanged } from '../src/agreements/terms-state.js';

// Document imports (classify + index each file of an agreement) and document indexing. Every
// activity is idempotent: a document already finished is answered from its record, and indexing
// replaces a document's passages as a whole.

export interface AgreementDocumentResult {
  agreement_document_id: string;
  document_id: string;
  classification: string | null;
  classified_by: string | null;
  index: IndexSummary | null;
}

const RUN_ENDED = { code: 'run_ended', message: 'The run ended before this document was processed; import it again.' };

export function createAgreementDocumentActivities(deps: { db: Db; storage: ObjectStorage }) {
  const { db, storage } = deps;

  async function extract(document: Document): Promise<ExtractionResult> {
    const stat = await storage.stat(document.storageKey);
    if (!stat) return { kind: 'failed', code: 'unreadable', message: 'The file is not in storage; upload it again.' };
    if (stat.size > DEFAULT_LIMITS.maxInputBytes) {
      return {
        kind: 'failed',
        code: 'too_large',
        message: `The file is ${(stat.size / 2 ** 20).toFixed(1)} MiB; documents up to ${DEFAULT_LIMITS.maxInputBytes / 2 ** 20} MiB are read.`,
      };
    }
    const bytes = await storage.read(document.storageKey, DEFAULT_LIMITS.maxInputBytes);
    return extractDocumentText({ bytes, fileName: document.fileName, mimeType: document.mimeType });
  }

  // Extracts and indexes one document for this run; a repeat within the run reuses its result.
  async function indexOnce(
    document: Document,
    runId: string,
    maxPassages: number,
  ): Promise<{ index: IndexSummary; extraction: ExtractionResult | null }> {
    const current = await db.documentIndex.findUnique({ where: { documentId: document.id } });
    if (current && current.workflowRunId === runId && (current.status === 'completed' || current.status === 'failed')) {
      return { index: summaryOfRow(current), extraction: null };
    }
    await markIndexing(db, document, runId);
    const extraction = await extract(document);
    return { index: await storeExtraction(db, document, runId, extraction, maxPassages), extraction };
  }

  return {
    async processAgreementDocument(
      agreementDocumentId: string,
      runId: string,
      maxPassages: number,
    ): Promise<AgreementDocumentResult> {
      const record = await db.agreementDocument.findUniqueOrThrow({ where: { id: agreementDocumentId } });
      if (
        record.status === 'completed' ||
        (record.status === 'failed' && record.workflowRunId === runId && record.processedAt)
      ) {
        const row = await db.documentIndex.findUnique({ where: { documentId: record.documentId } });
        return finished(record, row ? summaryOfRow(row) : null, record.failure as IndexSummary['failure']);
      }
      await db.agreementDocument.updateMany({
        where: { id: record.id, status: { not: 'completed' } },
        data: { status: 'processing', workflowRunId: runId },
      });
      const document = await db.document.findUniqueOrThrow({ where: { id: record.documentId } });
      const { index, extraction } = await indexOnce(document, runId, maxPassages);
      // A repeat of this activity after indexing (the extraction was not kept) reads the file again.
      const classified = classifyAgreementDocument({
        fileName: document.fileName,
        mimeType: document.mimeType,
        extraction: extraction ?? (await extract(document)),
      });
      const updated = await storeOutcome(db, record.id, classified, index);
      return finished(updated, index, index.failure);
    },

    async indexDocument(documentId: string, runId: string, maxPassages: number): Promise<IndexSummary> {
      const document = await db.document.findUniqueOrThrow({ where: { id: documentId } });
      const { index } = await indexOnce(document, runId, maxPassages);
      if (index.failure) throw ApplicationFailure.nonRetryable(index.failure.message, index.failure.code);
      return index;
    },

    // After a cancelled or failed run: documents it never reached are no longer "processing".
    async settleAgreementDocuments(runId: string): Promise<number> {
      const { count } = await db.agreementDocument.updateMany({
        where: { workflowRunId: runId, status: { in: ['queued', 'processing'] } },
        data: { status: 'failed', failure: RUN_ENDED, processedAt: new Date() },
      });
      return count;
    },
  };
}

async function storeOutcome(db: Db, id: string, classified: AgreementDocumentClassification, index: IndexSummary) {
  return db.$transaction(async (tx) => {
    const current = await tx.agreementDocument.findUniqueOrThrow({ where: { id } });
    // A user's classification (PATCH) stands; the import only fills in its own.
    const automatic = current.classifiedBy !== 'user';
    const updated = await tx.agreementDocument.update({
      where: { id },
      data: {
        ...(automatic
          ? {
              classification: classified.classification,
              classifiedBy: 'automatic',
              classificationConfidence: classified.confidence,
              classificationReason: classified.reason,
            }
          : {}),
        status: index.status,
        failure: index.failure ?? Prisma.DbNull,
        processedAt: new Date(),
      },
    });
    // The agreement's terms changed: earlier checks become outdated.
    if (index.status === 'completed') await markAgreementTermsChanged(tx, current.agreementId);
    return updated;
  });
}

function finished(
  record: { id: string; documentId: string; classification: string | null; classifiedBy: string | null },
  index: IndexSummary | null,
  failure: IndexSummary['failure'],
): AgreementDocumentResult {
  // The item fails with the document's own reason; the other documents of the run go on.
  if (failure) throw ApplicationFailure.nonRetryable(failure.message, failure.code);
  return {
    agreement_document_id: record.id,
    document_id: record.documentId,
    classification: record.classification,
    classified_by: record.classifiedBy,
    index,
  };
}

function summaryOfRow(row: {
  status: string;
  format: string | null;
  passageCount: number;
  partial: boolean;
  partialReason: string | null;
  failure: unknown;
}): IndexSummary {
  return {
    status: row.status === 'completed' ? 'completed' : 'failed',
    format: row.format,
    passage_count: row.passageCount,
    partial: row.partial,
    partial_reason: row.partialReason,
    failure: (row.failure as IndexSummary['failure']) ?? null,
  };
}

export type AgreementDocumentActivities = ReturnType<typeof createAgreementDocumentActivities>;
