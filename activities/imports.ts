import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/activity';
import { recordActivity, systemActor } from '../src/activity/record.js';
import { Prisma, type Db } from '../src/db/client.js';
import { md5Of } from '../src/documents/service.js';
import type { Document, InvoiceImport } from '../src/generated/prisma/client.js';
import {
  findCreditedInvoice,
  findSemanticDuplicateOf,
  linkCreditNotesTo,
  resolveParties,
  semanticKeyOf,
  writeInvoiceContent,
  type PartyIds,
} from '../src/invoices/content.js';
import { MAX_INVOICE_FILE_BYTES } from '../src/invoices/imports.js';
import { withLayoutMemory } from '../src/invoices/layout-memories.js';
import { parseInvoiceDocument, type ParseOutcome } from '../src/invoices/parsing/index.js';
import { isTerminal, runSingleItem, type ItemOutcome, type NewItem } from '../src/runs/read-model.js';
import type { RunStatus } from '../src/generated/prisma/enums.js';
import { isMissingObject, type ObjectStorage } from '../src/storage/object-storage.js';
import type { Logger } from '../src/logger.js';
import { publicFailure } from '../src/shared/failures.js';
import { createCheckActivities } from './checks.js';

// An invoice import in one activity: read the file, parse it, store the invoice (or record why
// there is none), match it to agreements and check it. One activity rather than a step each: every step
// costs the workflow a history event and the worker a round trip through its workflow thread.
// It may run twice (a worker or Temporal crash, a retry) and ends in the same state: parsing
// again gives the same result, the invoice is written in one transaction that first locks the
// import and looks for its own earlier result, and matching is idempotent.

// What became of the file.
type FileOutcome =
  | { kind: 'stored'; outcome: 'imported' | 'duplicate'; invoice_id: string }
  | { kind: 'not_invoice'; reason: string }
  | { kind: 'failed'; code: string; message: string };
type Stored = Extract<FileOutcome, { kind: 'stored' }>;
type MatchedAndChecked = Awaited<ReturnType<ReturnType<typeof createCheckActivities>['matchAndCheckImportedInvoice']>>;
export type ImportResult = FileOutcome | (Stored & MatchedAndChecked);

type Failure = { code: string; message: string };
type InvoiceOutcome = Extract<ParseOutcome, { kind: 'invoice' }>;
type RejectedOutcome = Exclude<ParseOutcome, { kind: 'invoice' }>;
// The file as read now: its md5 is null when it was too large to read.
type ReadFile = { document: Document; md5: string | null };

// What an earlier run of this activity already decided.
function earlierResult(
  invoiceImport: Pick<InvoiceImport, 'outcome' | 'invoiceId' | 'classificationReason'>,
): FileOutcome | null {
  if (invoiceImport.outcome === 'imported' || invoiceImport.outcome === 'duplicate') {
    return { kind: 'stored', outcome: invoiceImport.outcome, invoice_id: invoiceImport.invoiceId! };
  }
  if (invoiceImport.outcome === 'not_invoice')
    return { kind: 'not_invoice', reason: invoiceImport.classificationReason ?? '' };
  return null;
}

export function createImportActivities(deps: { db: Db; storage: ObjectStorage; logger?: Logger }) {
  const { db, storage } = deps;
  const checks = createCheckActivities(db, deps.logger);

  // A new run of the import (a retry of a failed one) takes it over and clears how the last one
  // ended; the first run has nothing to clear.
  async function takeOver(invoiceImport: InvoiceImport, runId: string): Promise<void> {
    if (invoiceImport.workflowRunId === runId && !invoiceImport.failure && !invoiceImport.finishedAt) return;
    await db.invoiceImport.update({
      where: { id: invoiceImport.id },
      data: { workflowRunId: runId, failure: Prisma.DbNull, finishedAt: null },
    });
    if (invoiceImport.invoiceId) {
      await db.invoice.updateMany({
        where: { id: invoiceImport.invoiceId, processingStatus: { in: ['pending', 'failed'] } },
        data: { processingStatus: 'processing', processingFailure: Prisma.DbNull },
      });
    }
  }

  async function readBytes(document: Document): Promise<Buffer> {
    try {
      return await storage.read(document.storageKey, MAX_INVOICE_FILE_BYTES);
    } catch (error) {
      if (isMissingObject(error))
        throw ApplicationFailure.nonRetryable('The invoice file is not in storage.', 'document_missing');
      throw error;
    }
  }

  // The registered size was checked against storage when the import was created (or is the size
  // the API received), so a file too large is refused without reading it.
  async function readAndParse(document: Document): Promise<{ outcome: ParseOutcome; file: ReadFile }> {
    if (document.fileSize > MAX_INVOICE_FILE_BYTES) {
      const message = `Invoice files may be at most ${MAX_INVOICE_FILE_BYTES} bytes.`;
      return { outcome: { kind: 'failed', code: 'file_too_large', message }, file: { document, md5: null } };
    }
    const bytes = await readBytes(document);
    const input = { bytes, fileName: document.fileName, mimeType: document.mimeType };
    // A supplier whose earlier invoice a person corrected is read with the layout that taught.
    const outcome = await withLayoutMemory(deps, document.organizationId, input, await parseInvoiceDocument(input));
    return { outcome, file: { document, md5: md5Of(bytes) } };
  }

  async function store(invoiceImport: InvoiceImport, file: ReadFile, parsed: InvoiceOutcome): Promise<FileOutcome> {
    try {
      const parties = await resolveParties(db, invoiceImport.organizationId, parsed.invoice);
      return await db.$transaction((tx) => storeInTransaction(tx, invoiceImport, file, parsed, parties), {
        timeout: 60_000,
      });
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
        // Another import of the same file won the race; the retry of this activity finds it.
        throw ApplicationFailure.retryable(
          'the same file was stored concurrently; retrying as a duplicate',
          'concurrent_duplicate',
        );
      }
      throw error;
    }
  }

  async function reject(invoiceImport: InvoiceImport, file: ReadFile, result: RejectedOutcome): Promise<FileOutcome> {
    const failure: Failure = publicFailure(
      result.kind === 'failed'
        ? { code: result.code, message: result.message }
        : { code: 'not_invoice', message: result.reason },
    );
    await recordFileFacts(db, file);
    await db.invoiceImport.update({
      where: { id: invoiceImport.id },
      data:
        result.kind === 'not_invoice'
          ? { outcome: 'not_invoice', classificationReason: result.reason, finishedAt: new Date() }
          : { failure: failure as unknown as Prisma.InputJsonValue, finishedAt: new Date() },
    });
    if (invoiceImport.invoiceId) {
      await db.invoice.update({
        where: { id: invoiceImport.invoiceId },
        data: {
          processingStatus: 'failed',
          classification: result.kind === 'not_invoice' ? 'not_invoice' : null,
          processingFailure: failure,
        },
      });
    }
    return result.kind === 'not_invoice'
      ? { kind: 'not_invoice', reason: result.reason }
      : { kind: 'failed', ...failure };
  }

  async function importFile(importId: string, runId: string): Promise<FileOutcome> {
    const invoiceImport = await db.invoiceImport.findUniqueOrThrow({ where: { id: importId } });
    const earlier = earlierResult(invoiceImport);
    if (earlier) return earlier;
    await takeOver(invoiceImport, runId);
    const document = await db.document.findUniqueOrThrow({ where: { id: invoiceImport.primaryDocumentId } });
    const { outcome, file } = await readAndParse(document);
    // The run that took the import over is the one that does (and records) its work.
    const current = { ...invoiceImport, workflowRunId: runId };
    return outcome.kind === 'invoice' ? store(current, file, outcome) : reject(current, file, outcome);
  }

  // Ties the import to this run, classifies and parses the file, stores the invoice or records
  // why there is none, and hands a stored invoice over to matching and checks (the import's
  // last step, activities/checks.ts).
  async function importInvoiceFile(importId: string, runId: string, organizationId: string): Promise<ImportResult> {
    const result = await importFile(importId, runId);
    // A duplicate is answered with the existing invoice, which was matched and checked already.
    if (result.kind !== 'stored' || result.outcome === 'duplicate') return result;
    return { ...result, ...(await checks.matchAndCheckImportedInvoice(organizationId, runId, result.invoice_id)) };
  }

  return {
    // The import as the only item of its run, the run's start and end included: the import
    // workflow's one local activity on the happy path. Returns the run's status.
    async runInvoiceImport(runId: string, item: NewItem, importId: string, organizationId: string): Promise<string> {
      return runSingleItem(db, runId, item, async () =>
        itemOutcomeOf(await importInvoiceFile(importId, runId, organizationId)),
      );
    },

    async failImport(importId: string, reported: Failure): Promise<void> {
      const failure = publicFailure(reported);
      const invoiceImport = await db.invoiceImport.findUniqueOrThrow({ where: { id: importId } });
      if (invoiceImport.outcome) {
        // Stored, but matching or checking it failed for good: say so, so clients stop polling.
        if (invoiceImport.invoiceId) {
          await db.invoice.updateMany({
            where: { id: invoiceImport.invoiceId, alertCheckStatus: { in: ['pending', 'processing'] } },
            data: {
              alertCheckStatus: 'failed',
              alertCheckSkipReason: null,
              alertCheckFailure: failure as unknown as Prisma.InputJsonValue,
            },
          });
        }
        return;
      }
      await db.invoiceImport.update({
        where: { id: importId },
        data: { failure: failure as unknown as Prisma.InputJsonValue, finishedAt: new Date() },
      });
      if (invoiceImport.invoiceId) {
        await db.invoice.updateMany({
          where: { id: invoiceImport.invoiceId, processingStatus: { in: ['pending', 'processing'] } },
          data: { processingStatus: 'failed', processingFailure: failure as unknown as Prisma.InputJsonValue },
        });
      }
    },
  };
}

// A file that is no invoice, or could not be read, was recorded as such by the import itself;
// for the run, a file that could not be read fails its item.
function itemOutcomeOf(result: ImportResult): ItemOutcome {
  if (result.kind === 'failed')
    return { status: 'failed', failure: publicFailure({ code: result.code, message: result.message }) };
  if (result.kind === 'not_invoice')
    return { status: 'completed', result: { outcome: 'not_invoice', classification_reason: result.reason } };
  const { kind: _stored, ...summary } = result;
  return { status: 'completed', result: summary };
}

// The document learns its md5 (and that its bytes arrived) the first time an import reads it;
// an upload through the API knows both already.
async function recordFileFacts(client: Prisma.TransactionClient, file: ReadFile): Promise<void> {
  const { document, md5 } = file;
  if ((md5 === null || md5 === document.md5) && document.uploadedAt) return;
  await client.document.update({
    where: { id: document.id },
    data: { md5: md5 ?? document.md5, uploadedAt: document.uploadedAt ?? new Date() },
  });
}

// Locks the import, so two attempts of this activity cannot both store it, and tells what the
// other one stored.
async function lockImport(tx: Prisma.TransactionClient, importId: string) {
  const rows = await tx.$queryRaw<
    {
      outcome: string | null;
      invoice_id: string | null;
      classification_reason: string | null;
      invoice_created_at: Date | null;
      has_lines: boolean;
      run_status: string | null;
    }[]
  >`
    SELECT i.outcome::text AS outcome, i.invoice_id, i.classification_reason, v.created_at AS invoice_created_at,
           EXISTS (SELECT 1 FROM invoice_lines l WHERE l.invoice_id = i.invoice_id) AS has_lines, r.status::text AS run_status
      FROM invoice_imports i LEFT JOIN invoices v ON v.id = i.invoice_id LEFT JOIN workflow_runs r ON r.id = i.workflow_run_id
     WHERE i.id = ${importId}::uuid
       FOR UPDATE OF i`;
  const row = rows[0]!;
  return {
    earlier: earlierResult({
      outcome: row.outcome as InvoiceImport['outcome'],
      invoiceId: row.invoice_id,
      classificationReason: row.classification_reason,
    }),
    // An upload's invoice exists, still without content, from the 201 on.
    invoice: row.invoice_id ? { id: row.invoice_id, createdAt: row.invoice_created_at, hasLines: row.has_lines } : null,
    runEnded: row.run_status !== null && isTerminal(row.run_status as RunStatus),
  };
}

async function storeInTransaction(
  tx: Prisma.TransactionClient,
  invoiceImport: InvoiceImport,
  file: ReadFile,
  parsed: InvoiceOutcome,
  parties: PartyIds,
): Promise<FileOutcome> {
  const { earlier, invoice: existingInvoice, runEnded } = await lockImport(tx, invoiceImport.id);
  if (earlier) return earlier;
  // The run ended meanwhile (its workflow terminated in Temporal, and a read reconciled it, which
  // also settled the invoice as failed): a late attempt must not store what nobody waits for.
  if (runEnded)
    throw ApplicationFailure.nonRetryable('The import was stopped before the invoice was stored.', 'import_stopped');
  await recordFileFacts(tx, file);
  const { organizationId } = invoiceImport;
  let invoice = existingInvoice;
  const creating = !invoice;
  if (!invoice) {
    const md5 = file.md5 ?? file.document.md5;
    const existing = await tx.invoice.findFirst({ where: { organizationId, primaryMd5: md5 } });
    if (existing?.deletedAt) {
      const failure = {
        code: 'primary_md5_locked_by_deleted_invoice',
        message: 'This file belongs to a deleted invoice; an administrator must remove that invoice permanently first.',
      };
      throw ApplicationFailure.nonRetryable(failure.message, failure.code, { existing_invoice_id: existing.id });
    }
    if (existing) {
      await tx.invoiceImport.update({
        where: { id: invoiceImport.id },
        data: { outcome: 'duplicate', invoiceId: existing.id, finishedAt: new Date() },
      });
      return { kind: 'stored', outcome: 'duplicate', invoice_id: existing.id };
    }
    const created = await tx.invoice.create({
      data: {
        id: randomUUID(),
        organizationId,
        source: invoiceImport.source,
        primaryMd5: md5,
        primaryDocumentId: file.document.id,
        attachmentDocumentIds: invoiceImport.attachmentDocumentIds,
      },
      select: { id: true, createdAt: true },
    });
    invoice = { ...created, hasLines: false };
  }
  if (!invoice.createdAt)
    throw ApplicationFailure.nonRetryable('The invoice of this import no longer exists.', 'invoice_missing');
  await writeParsedInvoice(
    tx,
    { id: invoice.id, createdAt: invoice.createdAt, hasLines: invoice.hasLines },
    organizationId,
    parsed,
    parties,
  );
  // The invoice is the import run's work (an attempt that created it already recorded this).
  if (creating) {
    await recordActivity(tx, organizationId, systemActor(invoiceImport.workflowRunId), [
      {
        entityType: 'invoice',
        entityId: invoice.id,
        action: 'created',
        changes: {
          source: { before: null, after: invoiceImport.source },
          import_id: { before: null, after: invoiceImport.id },
          invoice_number: { before: null, after: parsed.invoice.invoiceNumber },
        },
      },
    ]);
  }
  await tx.invoiceImport.update({
    where: { id: invoiceImport.id },
    data: { outcome: 'imported', invoiceId: invoice.id, finishedAt: new Date() },
  });
  return { kind: 'stored', outcome: 'imported', invoice_id: invoice.id };
}

// The invoice's content, its completed status and its links to duplicates and credit notes, all
// known before writing, so the invoice row is written once.
async function writeParsedInvoice(
  tx: Prisma.TransactionClient,
  invoice: { id: string; createdAt: Date; hasLines: boolean },
  organizationId: string,
  parsed: InvoiceOutcome,
  parties: PartyIds,
) {
  const facts = { ...parsed.invoice, supplierId: parties.supplierId };
  const duplicateOf = await findSemanticDuplicateOf(
    tx,
    invoice.id,
    organizationId,
    semanticKeyOf(parsed.invoice, parties.supplierId, invoice.createdAt),
  );
  const credited = await findCreditedInvoice(tx, organizationId, facts);
  await writeInvoiceContent(tx, {
    invoiceId: invoice.id,
    organizationId,
    invoice: parsed.invoice,
    format: parsed.format,
    parties,
    also: {
      processingStatus: 'completed',
      processingFailure: Prisma.DbNull,
      duplicateOfInvoiceId: duplicateOf,
      ...(credited ? { creditedInvoiceId: credited } : {}),
    },
    mayHaveLines: invoice.hasLines,
  });
  await linkCreditNotesTo(tx, invoice.id, organizationId, facts);
}

export type ImportActivities = ReturnType<typeof createImportActivities>;
