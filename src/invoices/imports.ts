import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../deps.js';
import { findDocuments, putDocumentFile, sealDocuments } from '../documents/service.js';
import { Prisma } from '../db/client.js';
import type { InvoiceImport } from '../generated/prisma/client.js';
import { errors } from '../http/errors.js';
import { workStatusOf } from '../runs/read-model.js';
import { findRun, newRunRow, startRecordedRun, startRun } from '../runs/service.js';
import { deterministicUuid } from '../shared/ids.js';
import { reserveProcessingCapacity } from './capacity.js';

// Invoice imports: an import record plus an import workflow run (workflows/import-invoice.ts).
// Two ways in: POST /v1/invoices/imports with documents already in storage, and the Ingestion
// API's multipart upload, which creates the invoice (pending) at once and fills it later.

type Deps = Pick<AppDeps, 'db' | 'temporal' | 'config' | 'runTypes' | 'logger' | 'storage'>;

export const INVOICE_MIME_TYPES = ['application/pdf', 'application/xml', 'text/xml'];
// The parser refuses larger files anyway; refusing them here gives the client a clear error at once.
export const MAX_INVOICE_FILE_BYTES = 20 * 1024 * 1024;
// The Ingestion upload: the primary file and up to 50 attachments, 200 MiB in all.
export const MAX_UPLOAD_FILES = 51;
export const MAX_UPLOAD_TOTAL_BYTES = 200 * 1024 * 1024;

export function uploadLimits(config: { UPLOAD_TEMP_DIR: string; UPLOAD_MAX_CONCURRENT: number }) {
  return { tempRoot: config.UPLOAD_TEMP_DIR, maxFileBytes: MAX_INVOICE_FILE_BYTES, maxFiles: MAX_UPLOAD_FILES, maxTotalBytes: MAX_UPLOAD_TOTAL_BYTES, maxConcurrent: config.UPLOAD_MAX_CONCURRENT };
}

interface ImportRequest {
  organizationId: string;
  primaryDocumentId: string;
  attachmentDocumentIds: string[];
  source: 'api' | 'upload' | 'sync';
  invoiceId?: string;
  createdByUserId?: string | null;
  idempotencyKey?: string | null;
}

function idsFor(request: ImportRequest) {
  if (!request.idempotencyKey) return { importId: randomUUID(), runId: randomUUID() };
  const name = `${request.organizationId}:${request.idempotencyKey}`;
  return { importId: deterministicUuid(`invoice-import:${name}`), runId: deterministicUuid(`invoice-import-run:${name}`) };
}

function importData(request: ImportRequest, ids: { importId: string; runId: string }) {
  return {
    id: ids.importId,
    organizationId: request.organizationId,
    primaryDocumentId: request.primaryDocumentId,
    attachmentDocumentIds: request.attachmentDocumentIds,
    source: request.source,
    workflowRunId: ids.runId,
    invoiceId: request.invoiceId ?? null,
  };
}

async function insertImport(tx: Prisma.TransactionClient, request: ImportRequest, ids: { importId: string; runId: string }) {
  // Only an Idempotency-Key gives a repeated request the same ids.
  if (request.idempotencyKey) {
    const existing = await tx.invoiceImport.findFirst({ where: { id: ids.importId, organizationId: request.organizationId } });
    if (existing) return existing;
  }
  await reserveProcessingCapacity(tx, request.organizationId);
  return tx.invoiceImport.create({ data: importData(request, ids) });
}

function importRun(organizationId: string, ids: { importId: string; runId: string }, createdByUserId: string | null | undefined) {
  return { organizationId, type: 'import', runId: ids.runId, owner: { type: 'invoice_import', id: ids.importId }, input: { importId: ids.importId }, createdByUserId };
}

async function launch(deps: Deps, invoiceImport: InvoiceImport, createdByUserId: string | null | undefined) {
  await startRun(deps, importRun(invoiceImport.organizationId, { importId: invoiceImport.id, runId: invoiceImport.workflowRunId }, createdByUserId));
}

export async function createImport(deps: Deps, request: ImportRequest): Promise<InvoiceImport> {
  const [primary, ...attachments] = await findDocuments(deps, request.organizationId, [request.primaryDocumentId, ...request.attachmentDocumentIds]);
  if (!INVOICE_MIME_TYPES.includes(primary!.mimeType)) {
    throw errors.validation('The invoice itself must be a PDF or an XML file (Peppol BIS Billing 3.0, EHF 2.0 or Finvoice 3.0).', [
      { field: 'primary_document_id', message: `is ${primary!.mimeType}` },
    ]);
  }
  // Checked against the registration and sealed: the workflow reads the bytes that were checked.
  await sealDocuments(deps, [primary!, ...attachments], (index) => (index === 0 ? 'primary_document_id' : `attachment_document_ids.${index - 1}`));
  const ids = idsFor(request);
  const invoiceImport = await deps.db.$transaction((tx) => insertImport(tx, request, ids));
  try {
    await launch(deps, invoiceImport, request.createdByUserId);
  } catch (error) {
    await deps.db.invoiceImport.delete({ where: { id: invoiceImport.id } }).catch(() => undefined);
    throw error;
  }
  return invoiceImport;
}

// A file of the multipart upload, in the request's temporary folder (removed after the request).
export interface UploadedFile {
  fileName: string;
  mimeType: string;
  path: string;
  size: number;
  md5: string;
}

function duplicateUpload(existing: { id: string; deletedAt: Date | null }) {
  if (existing.deletedAt) {
    return errors.conflict(
      'primary_md5_locked_by_deleted_invoice',
      'This file belongs to a deleted invoice; an administrator must remove that invoice permanently before it can be uploaded again.',
      { existing_invoice_id: existing.id },
    );
  }
  return errors.conflict('conflict', 'This invoice file was already uploaded.', { existing_invoice_id: existing.id });
}

// What an upload needs to know before it stores any bytes, in one query: the organization's
// capacity (null: unlimited) and an invoice that already has this file.
async function uploadPreconditions(deps: Deps, organizationId: string, md5: string) {
  const rows = await deps.db.$queryRaw<{ capacity: number | null; existing_id: string | null; existing_deleted_at: Date | null }[]>`
    SELECT o.invoice_processing_capacity AS capacity, i.id AS existing_id, i.deleted_at AS existing_deleted_at
      FROM organizations o LEFT JOIN invoices i ON i.organization_id = o.id AND i.primary_md5 = ${md5}
     WHERE o.id = ${organizationId}::uuid`;
  const row = rows[0];
  if (!row) throw errors.notFound('organization');
  return { capacity: row.capacity, existing: row.existing_id ? { id: row.existing_id, deletedAt: row.existing_deleted_at } : null };
}

// Streams the upload's files to storage; when one fails (storage down), those already stored go.
async function storeUploadedFiles(deps: Deps, organizationId: string, primary: UploadedFile, attachments: UploadedFile[]) {
  const documents: Awaited<ReturnType<typeof putDocumentFile>>[] = [];
  try {
    for (const [file, category] of [[primary, 'invoice'] as const, ...attachments.map((a) => [a, 'attachment'] as const)]) {
      documents.push(await putDocumentFile(deps, organizationId, { ...file, category }));
    }
    return documents;
  } catch (error) {
    for (const document of documents) await deps.storage.remove(document.storageKey).catch(() => undefined);
    throw error;
  }
}

// The Ingestion API upload: 201 with the new (pending) invoice, or 409 for a repeated file.
export async function uploadInvoice(deps: Deps, organizationId: string, primary: UploadedFile, attachments: UploadedFile[], createdByUserId: string | null) {
  const md5 = primary.md5;
  const { capacity, existing } = await uploadPreconditions(deps, organizationId, md5);
  if (existing) throw duplicateUpload(existing);
  // Fail fast, before storing any bytes, when the capacity is used up (checked again, under lock,
  // when the import is recorded).
  const limited = capacity !== null;
  if (limited) await deps.db.$transaction((tx) => reserveProcessingCapacity(tx, organizationId));

  const documents = await storeUploadedFiles(deps, organizationId, primary, attachments);
  const [primaryDocument, ...attachmentDocuments] = documents;
  const invoiceId = randomUUID();
  const request: ImportRequest = {
    organizationId,
    primaryDocumentId: primaryDocument!.id,
    attachmentDocumentIds: attachmentDocuments.map((d) => d.id),
    source: 'upload',
    invoiceId,
    createdByUserId,
  };
  const invoiceData = {
    id: invoiceId,
    organizationId,
    source: 'upload',
    primaryMd5: md5,
    primaryDocumentId: primaryDocument!.id,
    attachmentDocumentIds: request.attachmentDocumentIds,
  };
  const ids = idsFor(request);
  const runRow = newRunRow(deps, importRun(organizationId, ids, createdByUserId), ids.runId);
  try {
    // The documents, the invoice, its import and the import's run in one transaction: an API that
    // dies before the workflow starts leaves a run that reconciliation fails and a retry starts
    // again, never an invoice without one. An unlimited organization takes no capacity lock: the
    // rows go in one batch.
    const [, invoice, , run] = limited
      ? await deps.db.$transaction(async (tx) => {
          await reserveProcessingCapacity(tx, organizationId);
          return [
            await tx.document.createMany({ data: documents }),
            await tx.invoice.create({ data: invoiceData }),
            await tx.invoiceImport.create({ data: importData(request, ids) }),
            await tx.workflowRun.create({ data: runRow }),
          ] as const;
        })
      : await deps.db.$transaction([
          deps.db.document.createMany({ data: documents }),
          deps.db.invoice.create({ data: invoiceData }),
          deps.db.invoiceImport.create({ data: importData(request, ids) }),
          deps.db.workflowRun.create({ data: runRow }),
        ]);
    await startRecordedRun(deps, run);
    return invoice;
  } catch (error) {
    await discardUpload(deps, invoiceId, ids.runId, documents);
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      const winner = await deps.db.invoice.findFirst({ where: { organizationId, primaryMd5: md5 }, select: { id: true, deletedAt: true } });
      if (winner) throw duplicateUpload(winner);
    }
    throw error;
  }
}

// A rejected upload leaves nothing behind: not its run, invoice, import, documents or bytes.
async function discardUpload(deps: Deps, invoiceId: string, runId: string, documents: { id: string; storageKey: string }[]) {
  await deps.db.workflowRun.deleteMany({ where: { id: runId } });
  await deps.db.invoiceImport.deleteMany({ where: { invoiceId } });
  await deps.db.invoice.deleteMany({ where: { id: invoiceId } });
  await deps.db.document.deleteMany({ where: { id: { in: documents.map((d) => d.id) } } });
  for (const document of documents) await deps.storage.remove(document.storageKey).catch(() => undefined);
}

export async function viewImport(deps: Deps, invoiceImport: InvoiceImport) {
  const run = await findRun(deps, invoiceImport.organizationId, invoiceImport.workflowRunId);
  const status = workStatusOf(run.status);
  const failure = status === 'failed' ? ((invoiceImport.failure ?? run.failure) as { code: string; message: string } | null) : null;
  return {
    id: invoiceImport.id,
    status,
    outcome: status === 'completed' ? invoiceImport.outcome : null,
    invoice_id: invoiceImport.outcome === 'not_invoice' ? null : invoiceImport.outcome ? invoiceImport.invoiceId : null,
    classification_reason: invoiceImport.classificationReason,
    failure,
    workflow_run_id: invoiceImport.workflowRunId,
    primary_document_id: invoiceImport.primaryDocumentId,
    attachment_document_ids: invoiceImport.attachmentDocumentIds,
    source: invoiceImport.source,
    created_at: invoiceImport.createdAt.toISOString(),
    finished_at: invoiceImport.finishedAt?.toISOString() ?? null,
  };
}

export async function findImport(deps: Pick<AppDeps, 'db'>, organizationId: string, importId: string): Promise<InvoiceImport> {
  const invoiceImport = await deps.db.invoiceImport.findFirst({ where: { id: importId, organizationId } });
  if (!invoiceImport) throw errors.notFound('invoice import');
  return invoiceImport;
}
