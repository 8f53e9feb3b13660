import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { Prisma } from '../../db/client.js';
import type {
  AgreementDocument,
  Document,
  DocumentClassification,
  DocumentIndex,
} from '../../generated/prisma/client.js';
import { errors, type FieldIssue } from '../../http/errors.js';
import { keyset, pageOf, resolvePage, type SortColumn } from '../../http/pagination.js';
import { isTerminal } from '../../runs/read-model.js';
import { reconcileRuns, startRun } from '../../runs/service.js';
import { sealDocuments } from '../../documents/service.js';
import { deterministicUuid } from '../../shared/ids.js';
import { findAgreement, type AgreementWithLinks } from '../service.js';
import { markAgreementTermsChanged } from '../terms-state.js';
import type { agreementDocumentListQuery } from './schemas.js';

// Documents attached to an agreement: admitted by a document import (one run for all entries),
// classified and indexed in the background (activities/agreement-documents.ts).

type Deps = Pick<AppDeps, 'db' | 'temporal' | 'config' | 'runTypes' | 'logger' | 'storage'>;

export type AgreementDocumentRecord = AgreementDocument & {
  document: Document & { searchIndex: DocumentIndex | null };
};
export const WITH_DOCUMENT = { document: { include: { searchIndex: true } } } as const;

const CREATED_AT: SortColumn = { field: 'createdAt', kind: 'date' };

const RUN_ENDED = { code: 'run_ended', message: 'The run ended before this document was processed; import it again.' };

export async function importAgreementDocuments(
  deps: Deps,
  agreement: AgreementWithLinks,
  entries: { document_id: string }[],
  request: { createdByUserId: string | null; idempotencyKey: string | null },
): Promise<{ runId: string | null; documents: { record: AgreementDocumentRecord; reused: boolean }[] }> {
  const documentIds = entries.map((e) => e.document_id);
  await assertImportable(deps, agreement.organizationId, documentIds);
  // With an Idempotency-Key the run id is derived from it, so a repeat can never start a second run.
  const runId = request.idempotencyKey
    ? deterministicUuid(`document-import:${agreement.organizationId}:${agreement.id}:${request.idempotencyKey}`)
    : randomUUID();
  const admission = await admit(deps, agreement, documentIds, runId);
  const records = await deps.db.agreementDocument.findMany({
    where: { agreementId: agreement.id, documentId: { in: documentIds } },
    include: WITH_DOCUMENT,
  });
  const admitted = records.filter((r) => r.workflowRunId === runId);
  if (admitted.length > 0) {
    try {
      await startRun(deps, {
        organizationId: agreement.organizationId,
        type: 'document_import',
        runId,
        owner: { type: 'agreement', id: agreement.id },
        input: {
          agreementDocumentIds: admitted.map((r) => r.id),
          maxPassages: deps.config.DOCUMENT_INDEX_MAX_PASSAGES,
        },
        createdByUserId: request.createdByUserId,
      });
    } catch (error) {
      await admission.undo();
      throw error;
    }
  }
  const byDocument = new Map(records.map((r) => [r.documentId, r]));
  return {
    runId: admitted.length > 0 ? runId : null,
    documents: documentIds.map((id) => ({
      record: byDocument.get(id)!,
      reused: byDocument.get(id)!.workflowRunId !== runId,
    })),
  };
}

// Each entry must name an uploaded document of the organization, once.
async function assertImportable(deps: Deps, organizationId: string, documentIds: string[]): Promise<void> {
  const documents = await deps.db.document.findMany({ where: { organizationId, id: { in: documentIds } } });
  const issues: FieldIssue[] = [];
  for (const [index, id] of documentIds.entries()) {
    const field = `entries.${index}.document_id`;
    const document = documents.find((d) => d.id === id);
    if (documentIds.indexOf(id) !== index) issues.push({ field, message: `document ${id} is listed twice` });
    else if (!document) issues.push({ field, message: `no document ${id}` });
    else {
      // Every entry is named at once; sealing below checks again, on the bytes it keeps.
      const stat = document.uploadedAt ? { size: document.fileSize } : await deps.storage.stat(document.storageKey);
      if (!stat) issues.push({ field, message: 'not uploaded yet; PUT the bytes to its upload_url first' });
      else if (stat.size !== document.fileSize)
        issues.push({ field, message: `registered with ${document.fileSize} bytes but ${stat.size} arrived` });
    }
  }
  if (issues.length > 0) throw errors.validation('Some entries cannot be imported.', issues);
  // Each checked against its registration and sealed (an upload that is missing or of another size is refused).
  await sealDocuments(
    deps,
    documentIds.map((id) => documents.find((d) => d.id === id)!),
    (index) => `entries.${index}.document_id`,
  );
}

// New documents are queued for this run; a document that failed before is queued again; one that
// is queued, processing or completed is left alone (reused), so nothing is processed twice.
async function admit(deps: Deps, agreement: AgreementWithLinks, documentIds: string[], runId: string) {
  const existing = await deps.db.agreementDocument.findMany({
    where: { agreementId: agreement.id, documentId: { in: documentIds } },
  });
  const fresh = documentIds
    .filter((id) => !existing.some((e) => e.documentId === id))
    .map((documentId) => ({ id: randomUUID(), documentId }));
  const retried = existing.filter((e) => e.status === 'failed' && e.workflowRunId !== runId);
  await deps.db.agreementDocument.createMany({
    data: fresh.map((f) => ({
      id: f.id,
      organizationId: agreement.organizationId,
      agreementId: agreement.id,
      documentId: f.documentId,
      workflowRunId: runId,
    })),
    // A concurrent import of the same document won: that one is reused.
    skipDuplicates: true,
  });
  for (const record of retried) {
    await deps.db.agreementDocument.updateMany({
      where: { id: record.id, status: 'failed', workflowRunId: record.workflowRunId },
      data: { status: 'queued', failure: Prisma.DbNull, workflowRunId: runId, processedAt: null },
    });
  }
  return {
    // The run could not be started: the request changes nothing.
    async undo() {
      await deps.db.agreementDocument.deleteMany({
        where: { id: { in: fresh.map((f) => f.id) }, workflowRunId: runId },
      });
      for (const record of retried) {
        await deps.db.agreementDocument.updateMany({
          where: { id: record.id, workflowRunId: runId },
          data: {
            status: 'failed',
            failure: record.failure ?? Prisma.DbNull,
            workflowRunId: record.workflowRunId,
            processedAt: record.processedAt,
          },
        });
      }
    },
  };
}

export async function findAgreementDocument(
  deps: Deps,
  agreement: AgreementWithLinks,
  documentId: string,
): Promise<AgreementDocumentRecord> {
  const record = await deps.db.agreementDocument.findFirst({
    where: { agreementId: agreement.id, documentId },
    include: WITH_DOCUMENT,
  });
  if (!record) throw errors.notFound('agreement document');
  return (await settleEnded(deps, [record]))[0]!;
}

// A document whose run ended without reaching it (terminated in Temporal UI, say) is failed, so
// the agreement does not report documents_processing forever.
export async function settleEnded(deps: Deps, records: AgreementDocumentRecord[]): Promise<AgreementDocumentRecord[]> {
  const pending = records.filter((r) => r.status === 'queued' || r.status === 'processing');
  if (pending.length === 0) return records;
  const runs = await deps.db.workflowRun.findMany({
    where: { id: { in: [...new Set(pending.map((r) => r.workflowRunId))] } },
  });
  const ended = (await reconcileRuns(deps, runs)).filter((run) => isTerminal(run.status)).map((run) => run.id);
  if (ended.length === 0) return records;
  await deps.db.agreementDocument.updateMany({
    where: {
      id: { in: pending.map((r) => r.id) },
      workflowRunId: { in: ended },
      status: { in: ['queued', 'processing'] },
    },
    data: { status: 'failed', failure: RUN_ENDED, processedAt: new Date() },
  });
  return deps.db.agreementDocument
    .findMany({ where: { id: { in: records.map((r) => r.id) } }, include: WITH_DOCUMENT })
    .then((fresh) => records.map((r) => fresh.find((f) => f.id === r.id)!));
}

// A page of the documents of an agreement of the organization, oldest first.
export async function listAgreementDocumentsPage(
  deps: Deps & Pick<AppDeps, 'cursors'>,
  organizationId: string,
  agreementId: string,
  query: z.infer<typeof agreementDocumentListQuery>,
) {
  const agreement = await findAgreement(deps, organizationId, agreementId);
  const { limit, cursor, sort, direction, fields: _fields, ...filters } = query;
  const page = resolvePage(
    deps.cursors,
    { limit, cursor, sort, direction },
    { sort: 'created_at', direction: 'asc' },
    filters,
  );
  const { where, orderBy, take } = keyset(page, CREATED_AT);
  const rows = await deps.db.agreementDocument.findMany({
    where: {
      AND: [
        { agreementId: agreement.id },
        filters.classifications ? { classification: { in: filters.classifications } } : {},
        filters.statuses ? { status: { in: filters.statuses } } : {},
        where,
      ],
    },
    orderBy,
    take,
    include: WITH_DOCUMENT,
  });
  const { rows: visible, nextCursor } = pageOf(deps.cursors, page, CREATED_AT, rows);
  return { data: (await settleEnded(deps, visible)).map(serializeAgreementDocument), next_cursor: nextCursor };
}

// A user's classification; a changed one makes earlier checks of the agreement outdated.
export async function classifyByUser(
  deps: Deps,
  record: AgreementDocumentRecord,
  classification: DocumentClassification,
): Promise<AgreementDocumentRecord> {
  if (record.classification === classification && record.classifiedBy === 'user') return record;
  const changed = record.classification !== classification;
  await deps.db.$transaction(async (tx) => {
    await tx.agreementDocument.update({
      where: { id: record.id },
      data: { classification, classifiedBy: 'user', classificationConfidence: null, classificationReason: null },
    });
    if (changed) await markAgreementTermsChanged(tx, record.agreementId);
  });
  return deps.db.agreementDocument.findUniqueOrThrow({ where: { id: record.id }, include: WITH_DOCUMENT });
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function serializeAgreementDocument(record: AgreementDocumentRecord) {
  const index = record.document.searchIndex;
  return {
    id: record.id,
    agreement_id: record.agreementId,
    document_id: record.documentId,
    file_name: record.document.fileName,
    mime_type: record.document.mimeType,
    status: record.status,
    classification: record.classification,
    classified_by: record.classifiedBy as 'automatic' | 'user' | null,
    classification_confidence: record.classificationConfidence as 'high' | 'medium' | 'low' | null,
    classification_reason: record.classificationReason,
    failure: (record.failure as { code: string; message: string } | null) ?? null,
    search_index: index
      ? {
          status: index.status,
          passage_count: index.passageCount,
          partial: index.partial,
          partial_reason: index.partialReason,
          indexed_at: iso(index.indexedAt),
        }
      : null,
    workflow_run_id: record.workflowRunId,
    created_at: record.createdAt.toISOString(),
    updated_at: record.updatedAt.toISOString(),
    processed_at: iso(record.processedAt),
  };
}
