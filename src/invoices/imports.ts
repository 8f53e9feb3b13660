import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../deps.js';
import { findDocuments, putDocumentFile, sealDocuments } from '../documents/service.js';
import { Prisma } from '../db/client.js';
import type { Invoice, InvoiceImport, WorkflowRun } from '../generated/prisma/client.js';
import { errors } from '../http/errors.js';
import { isTerminal, rowAfterRun, workStatusOf, type RunFailure } from '../runs/read-model.js';
import { findRun, newRunRow, startRecordedRun, startRun } from '../runs/service.js';
import { publicFailure } from '../shared/failures.js';
import { deterministicUuid } from '../shared/ids.js';
import { reserveProcessingCapacity } from './capacity.js';
import { MAX_INPUT_BYTES } from './parsing/limits.js';

// Invoice imports: an import record plus an import workflow run (workflows/import-invoice.ts).
// Two ways in: POST /v1/invoices/imports with documents already in storage, and the Ingestion
// API's multipart upload, which creates the invoice (pending) at once and fills it later.

type Deps = Pick<AppDeps, 'db' | 'temporal' | 'config' | 'runTypes' | 'logger' | 'storage'>;

export const INVOICE_MIME_TYPES = ['application/pdf', 'application/xml', 'text/xml'];
// The parser refuses larger files anyway; refusing them here gives the client a clear error at once.
export const MAX_INVOICE_FILE_BYTES = MAX_INPUT_BYTES;
// The Ingestion upload: the primary file and up to 50 attachments, 200 MiB in all.
export const MAX_UPLOAD_FILES = 51;
export const MAX_UPLOAD_TOTAL_BYTES = 200 * 1024 * 1024;

export function uploadLimits(config: { UPLOAD_TEMP_DIR: string; UPLOAD_MAX_CONCURRENT: number }) {
  return {
    tempRoot: config.UPLOAD_TEMP_DIR,
    maxFileBytes: MAX_INVOICE_FILE_BYTES,
    maxFiles: MAX_UPLOAD_FILES,
    maxTotalBytes: MAX_UPLOAD_TOTAL_BYTES,
    maxConcurrent: config.UPLOAD_MAX_CONCURRENT,
  };
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
  return {
    importId: deterministicUuid(`invoice-import:${name}`),
    runId: deterministicUuid(`invoice-import-run:${name}`),
  };
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

async function insertImport(
  tx: Prisma.TransactionClient,
  request: ImportRequest,
  ids: { importId: string; runId: string },
) {
  // Only an Idempotency-Key gives a repeated request the same ids.
  if (request.idempotencyKey) {
    const existing = await tx.invoiceImport.findFirst({
      where: { id: ids.importId, organizationId: request.organizationId },
    });
    if (existing) return existing;
  }
  await reserveProcessingCapacity(tx, request.organizationId);
  return tx.invoiceImport.create({ data: importData(request, ids) });
}

function importRun(
  organizationId: string,
  ids: { importId: string; runId: string },
  createdByUserId: string | null | undefined,
) {
  return {
    organizationId,
    type: 'import',
    runId: ids.runId,
    owner: { type: 'invoice_import', id: ids.importId },
    input: { importId: ids.importId },
    createdByUserId,
  };
}

async function launch(deps: Deps, invoiceImport: InvoiceImport, createdByUserId: string | null | undefined) {
  await startRun(
    deps,
    importRun(
      invoiceImport.organizationId,
      { importId: invoiceImport.id, runId: invoiceImport.workflowRunId },
      createdByUserId,
    ),
  );
}

export async function createImport(deps: Deps, request: ImportRequest): Promise<InvoiceImport> {
  const [primary, ...attachments] = await findDocuments(deps, request.organizationId, [
    request.primaryDocumentId,
    ...request.attachmentDocumentIds,
  ]);
  if (!INVOICE_MIME_TYPES.includes(primary!.mimeType)) {
    throw errors.validation(
      'The invoice itself must be a PDF or an XML file (Peppol BIS Billing 3.0, EHF 2.0 or Finvoice 3.0).',
      [{ field: 'primary_document_id', message: `is ${primary!.mimeType}` }],
    );
  }
  // Checked against the registration and sealed: the workflow reads the bytes that were checked.
  await sealDocuments(deps, [primary!, ...attachments], (index) =>
    index === 0 ? 'primary_document_id' : `attachment_document_ids.${index - 1}`,
  );
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
  const rows = await deps.db.$queryRaw<
    { capacity: number | null; existing_id: string | null; existing_deleted_at: Date | null }[]
  >`
    SELECT o.invoice_processing_capacity AS capacity, i.id AS existing_id, i.deleted_at AS existing_deleted_at
      FROM organizations o LEFT JOIN invoices i ON i.organization_id = o.id AND i.primary_md5 = ${md5}
     WHERE o.id = ${organizationId}::uuid`;
  const row = rows[0];
  if (!row) throw errors.notFound('organization');
  return {
    capacity: row.capacity,
    existing: row.existing_id ? { id: row.existing_id, deletedAt: row.existing_deleted_at } : null,
  };
}

// Streams the upload's files to storage; when one fails (storage down), those already stored go.
async function storeUploadedFiles(
  deps: Deps,
  organizationId: string,
  primary: UploadedFile,
  attachments: UploadedFile[],
) {
  const documents: Awaited<ReturnType<typeof putDocumentFile>>[] = [];
  try {
    for (const [file, category] of [
      [primary, 'invoice'] as const,
      ...attachments.map((a) => [a, 'attachment'] as const),
    ]) {
      documents.push(await putDocumentFile(deps, organizationId, { ...file, category }));
    }
    return documents;
  } catch (error) {
    for (const document of documents) await deps.storage.remove(document.storageKey).catch(() => undefined);
    throw error;
  }
}

// The Ingestion API upload: 201 with the new (pending) invoice, or 409 for a repeated file.
export async function uploadInvoice(
  deps: Deps,
  organizationId: string,
  primary: UploadedFile,
  attachments: UploadedFile[],
  createdByUserId: string | null,
) {
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
      const winner = await deps.db.invoice.findFirst({
        where: { organizationId, primaryMd5: md5 },
        select: { id: true, deletedAt: true },
      });
      if (winner) throw duplicateUpload(winner);
    }
    throw error;
  }
}

// A rejected upload leaves nothing behind: not its run, invoice, import, documents or bytes.
async function discardUpload(
  deps: Deps,
  invoiceId: string,
  runId: string,
  documents: { id: string; storageKey: string }[],
) {
  await deps.db.workflowRun.deleteMany({ where: { id: runId } });
  await deps.db.invoiceImport.deleteMany({ where: { invoiceId } });
  await deps.db.invoice.deleteMany({ where: { id: invoiceId } });
  await deps.db.document.deleteMany({ where: { id: { in: documents.map((d) => d.id) } } });
  for (const document of documents) await deps.storage.remove(document.storageKey).catch(() => undefined);
}

export async function viewImport(deps: Deps, readBeforeRun: InvoiceImport) {
  const run = await findRun(deps, readBeforeRun.organizationId, readBeforeRun.workflowRunId);
  const invoiceImport = await rowAfterRun(run, readBeforeRun, () =>
    findImport(deps, readBeforeRun.organizationId, readBeforeRun.id),
  );
  await settleInvoiceOfEndedImport(deps, invoiceImport, run);
  const status = workStatusOf(run.status);
  const failure = status === 'failed' ? await importFailure(deps, invoiceImport, run) : null;
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

// Why a failed import failed: its own failure, else its one item's (what failed after the invoice
// was stored), else the run's.
async function importFailure(
  deps: Pick<Deps, 'db'>,
  invoiceImport: InvoiceImport,
  run: WorkflowRun,
): Promise<RunFailure | null> {
  if (invoiceImport.failure) return invoiceImport.failure as unknown as RunFailure;
  const item = await deps.db.workflowRunItem.findFirst({
    where: { runId: run.id, status: 'failed' },
    select: { failure: true },
  });
  return ((item?.failure ?? run.failure) as RunFailure | null) ?? null;
}

export async function findImport(
  deps: Pick<AppDeps, 'db'>,
  organizationId: string,
  importId: string,
): Promise<InvoiceImport> {
  const invoiceImport = await deps.db.invoiceImport.findFirst({ where: { id: importId, organizationId } });
  if (!invoiceImport) throw errors.notFound('invoice import');
  return invoiceImport;
}

// ---- an import and its invoice never disagree ----
//
// The import workflow settles its invoice itself, also when it fails (failImport). A workflow that
// ends outside our code (terminated or timed out in Temporal, a worker that never came back)
// cannot: reading the invoice (or its import) then reconciles the import's run with Temporal, as
// every run read does, and an ended run settles the invoice here. Every write is conditional on
// the invoice still being unsettled, so a repeat or a late writer changes nothing.

const UNSETTLED = ['pending', 'processing'];
const RECONCILE_AFTER_MS = 10_000;
const IMPORT_ENDED: RunFailure = {
  code: 'import_incomplete',
  message:
    'The import ended before this invoice was completely processed; retry the import run or upload the file again.',
};

type InvoiceState = Pick<
  Invoice,
  | 'id'
  | 'organizationId'
  | 'createdAt'
  | 'processingStatus'
  | 'processingFailure'
  | 'alertCheckStatus'
  | 'alertCheckSkipReason'
  | 'alertCheckFailure'
>;

export const isSettled = (invoice: Pick<Invoice, 'processingStatus' | 'alertCheckStatus'>) =>
  !UNSETTLED.includes(invoice.processingStatus) && !UNSETTLED.includes(invoice.alertCheckStatus);

function failureOfEndedRun(invoiceImport: InvoiceImport, run: WorkflowRun): RunFailure {
  if (run.status === 'cancelled') return { code: 'cancelled', message: 'The import was cancelled.' };
  return publicFailure(invoiceImport.failure ?? run.failure ?? IMPORT_ENDED, IMPORT_ENDED);
}

async function settleInvoiceOfEndedImport(
  deps: Pick<Deps, 'db'>,
  invoiceImport: InvoiceImport,
  run: WorkflowRun,
): Promise<void> {
  if (!invoiceImport.invoiceId || !isTerminal(run.status)) return;
  const failure = failureOfEndedRun(invoiceImport, run) as unknown as Prisma.InputJsonValue;
  // Not stored (or not completely): the invoice's processing failed.
  await deps.db.invoice.updateMany({
    where: { id: invoiceImport.invoiceId, processingStatus: { in: ['pending', 'processing'] } },
    data: { processingStatus: 'failed', processingFailure: failure },
  });
  // Stored, but the run ended before its check settled. A completed import run settled its own
  // check; a check still running then belongs to a check run, which settles it.
  if (run.status !== 'completed') {
    await deps.db.invoice.updateMany({
      where: {
        id: invoiceImport.invoiceId,
        processingStatus: 'completed',
        alertCheckStatus: { in: ['pending', 'processing'] },
      },
      data: { alertCheckStatus: 'failed', alertCheckSkipReason: null, alertCheckFailure: failure },
    });
  }
}

// An invoice read while pending or processing: if its import's run has ended (reconciled with
// Temporal), the invoice follows. Returns the invoice with its settled state.
export async function reconcileInvoiceProcessing<T extends InvoiceState>(deps: Deps, invoice: T): Promise<T> {
  // Clients poll an invoice while it is processing: the first seconds, when the import is almost
  // always still at work, stay one database read (no Temporal call).
  if (isSettled(invoice) || Date.now() - invoice.createdAt.getTime() < RECONCILE_AFTER_MS) return invoice;
  const invoiceImport = await deps.db.invoiceImport.findFirst({
    where: { invoiceId: invoice.id, organizationId: invoice.organizationId },
    orderBy: { createdAt: 'desc' },
  });
  if (!invoiceImport) return invoice;
  const run = await findRun(deps, invoiceImport.organizationId, invoiceImport.workflowRunId);
  if (!isTerminal(run.status)) return invoice;
  await settleInvoiceOfEndedImport(deps, invoiceImport, run);
  const state = await deps.db.invoice.findUnique({
    where: { id: invoice.id },
    select: {
      processingStatus: true,
      processingFailure: true,
      alertCheckStatus: true,
      alertCheckSkipReason: true,
      alertCheckFailure: true,
    },
  });
  return state ? { ...invoice, ...state } : invoice;
}

// The import an invoice came from (the latest, if it was imported more than once), for the
// application's link from a failed invoice to its run: the invoice's representation names no run.
export async function latestImportIdOf(
  deps: Pick<AppDeps, 'db'>,
  organizationId: string,
  invoiceId: string,
): Promise<string | null> {
  const found = await deps.db.invoiceImport.findFirst({
    where: { organizationId, invoiceId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { id: true },
  });
  return found?.id ?? null;
}
