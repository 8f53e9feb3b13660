import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/activity';
import { Prisma, type Db } from '../src/db/client.js';
import { md5Of } from '../src/documents/service.js';
import { MAX_INVOICE_FILE_BYTES } from '../src/invoices/imports.js';
import { findSemanticDuplicate, linkCreditNotes, resolveParties, writeInvoiceContent, type PartyIds } from '../src/invoices/content.js';
import { parseInvoiceDocument, type ParseOutcome } from '../src/invoices/parsing/index.js';
import type { ObjectStorage } from '../src/storage/object-storage.js';

// The steps of an invoice import. Each may run twice (a worker or Temporal crash, a retry) and
// ends in the same state: the parse result is kept on the import, and the invoice is written in
// one transaction that first looks for its own earlier result.

export type ParseSummary =
  | { kind: 'invoice'; format: string }
  | { kind: 'not_invoice'; reason: string }
  | { kind: 'failed'; code: string; message: string };

export interface StoredImport {
  outcome: 'imported' | 'duplicate';
  invoice_id: string;
}

type Failure = { code: string; message: string };

function summaryOf(outcome: ParseOutcome): ParseSummary {
  if (outcome.kind === 'invoice') return { kind: 'invoice', format: outcome.format };
  if (outcome.kind === 'not_invoice') return { kind: 'not_invoice', reason: outcome.reason };
  return { kind: 'failed', code: outcome.code, message: outcome.message };
}

export function createImportActivities(deps: { db: Db; storage: ObjectStorage }) {
  const { db, storage } = deps;

  async function readPrimary(importId: string) {
    const invoiceImport = await db.invoiceImport.findUniqueOrThrow({ where: { id: importId } });
    const document = await db.document.findUniqueOrThrow({ where: { id: invoiceImport.primaryDocumentId } });
    const stat = await storage.stat(document.storageKey);
    if (!stat) throw ApplicationFailure.nonRetryable('The invoice file is not in storage.', 'document_missing');
    if (stat.size > MAX_INVOICE_FILE_BYTES) {
      return { document, bytes: null, tooLarge: true };
    }
    return { document, bytes: await storage.read(document.storageKey, MAX_INVOICE_FILE_BYTES), tooLarge: false };
  }

  // A new run of the import (a retry) starts from the file again; a repeat within one run keeps
  // what it already parsed.
  async function beginImport(importId: string, runId: string): Promise<void> {
    const current = await db.invoiceImport.findUniqueOrThrow({ where: { id: importId } });
    const newRun = current.workflowRunId !== runId;
    await db.invoiceImport.update({
      where: { id: importId },
      data: { workflowRunId: runId, failure: Prisma.DbNull, finishedAt: null, ...(newRun && !current.outcome ? { parsed: Prisma.DbNull } : {}) },
    });
    if (current.invoiceId && !current.outcome) {
      await db.invoice.updateMany({
        where: { id: current.invoiceId, processingStatus: { in: ['pending', 'failed'] } },
        data: { processingStatus: 'processing', processingFailure: Prisma.DbNull },
      });
    }
  }

  return {
    // Ties the import to this run (a retry is a new run), then classifies and parses the file once.
    async parseImport(importId: string, runId: string): Promise<ParseSummary> {
      await beginImport(importId, runId);
      const existing = await db.invoiceImport.findUniqueOrThrow({ where: { id: importId }, select: { parsed: true } });
      if (existing.parsed) return summaryOf(existing.parsed as unknown as ParseOutcome);
      const { document, bytes, tooLarge } = await readPrimary(importId);
      const outcome: ParseOutcome = tooLarge
        ? { kind: 'failed', code: 'file_too_large', message: `Invoice files may be at most ${MAX_INVOICE_FILE_BYTES} bytes.` }
        : await parseInvoiceDocument({ bytes: bytes!, fileName: document.fileName, mimeType: document.mimeType });
      await db.$transaction([
        db.document.update({ where: { id: document.id }, data: { md5: bytes ? md5Of(bytes) : null, uploadedAt: document.uploadedAt ?? new Date() } }),
        db.invoiceImport.update({ where: { id: importId }, data: { parsed: outcome as unknown as Prisma.InputJsonValue } }),
      ]);
      return summaryOf(outcome);
    },

    async storeImport(importId: string): Promise<StoredImport> {
      try {
        const parsed = (await db.invoiceImport.findUniqueOrThrow({ where: { id: importId }, select: { parsed: true, organizationId: true } }));
        const outcome = parsed.parsed as unknown as ParseOutcome;
        const parties = outcome?.kind === 'invoice' ? await resolveParties(db, parsed.organizationId, outcome.invoice) : { supplierId: null, recipientId: null };
        return await db.$transaction((tx) => storeInTransaction(tx, importId, parties), { timeout: 60_000 });
      } catch (error) {
        if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
          // Another import of the same file won the race; the retry of this activity finds it.
          throw ApplicationFailure.retryable('the same file was stored concurrently; retrying as a duplicate', 'concurrent_duplicate');
        }
        throw error;
      }
    },
    async rejectImport(importId: string, result: { kind: 'not_invoice'; reason: string } | { kind: 'failed'; code: string; message: string }): Promise<void> {
      const invoiceImport = await db.invoiceImport.findUniqueOrThrow({ where: { id: importId } });
      const failure: Failure = result.kind === 'failed' ? { code: result.code, message: result.message } : { code: 'not_invoice', message: result.reason };
      await db.invoiceImport.update({
        where: { id: importId },
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
            processingFailure: failure as unknown as Prisma.InputJsonValue,
          },
        });
      }
    },

    async failImport(importId: string, failure: Failure): Promise<void> {
      const invoiceImport = await db.invoiceImport.findUniqueOrThrow({ where: { id: importId } });
      if (invoiceImport.outcome) return;
      await db.invoiceImport.update({ where: { id: importId }, data: { failure: failure as unknown as Prisma.InputJsonValue, finishedAt: new Date() } });
      if (invoiceImport.invoiceId) {
        await db.invoice.updateMany({
          where: { id: invoiceImport.invoiceId, processingStatus: { in: ['pending', 'processing'] } },
          data: { processingStatus: 'failed', processingFailure: failure as unknown as Prisma.InputJsonValue },
        });
      }
    },
  };
}

async function storeInTransaction(tx: Prisma.TransactionClient, importId: string, parties: PartyIds): Promise<StoredImport> {
  const invoiceImport = await tx.invoiceImport.findUniqueOrThrow({ where: { id: importId } });
  if (invoiceImport.outcome === 'imported' || invoiceImport.outcome === 'duplicate') {
    return { outcome: invoiceImport.outcome, invoice_id: invoiceImport.invoiceId! };
  }
  const parsed = invoiceImport.parsed as unknown as ParseOutcome;
  if (parsed?.kind !== 'invoice') throw ApplicationFailure.nonRetryable('The import has no parsed invoice to store.', 'not_parsed');
  const document = await tx.document.findUniqueOrThrow({ where: { id: invoiceImport.primaryDocumentId } });

  let invoiceId = invoiceImport.invoiceId;
  if (!invoiceId) {
    const existing = await tx.invoice.findFirst({ where: { organizationId: invoiceImport.organizationId, primaryMd5: document.md5 } });
    if (existing?.deletedAt) {
      const failure = { code: 'primary_md5_locked_by_deleted_invoice', message: 'This file belongs to a deleted invoice; an administrator must remove that invoice permanently first.' };
      throw ApplicationFailure.nonRetryable(failure.message, failure.code, { existing_invoice_id: existing.id });
    }
    if (existing) {
      await tx.invoiceImport.update({ where: { id: importId }, data: { outcome: 'duplicate', invoiceId: existing.id, finishedAt: new Date() } });
      return { outcome: 'duplicate', invoice_id: existing.id };
    }
    invoiceId = randomUUID();
    await tx.invoice.create({
      data: {
        id: invoiceId,
        organizationId: invoiceImport.organizationId,
        source: invoiceImport.source,
        primaryMd5: document.md5,
        primaryDocumentId: document.id,
        attachmentDocumentIds: invoiceImport.attachmentDocumentIds,
      },
    });
  }
  await writeInvoiceContent(tx, invoiceId, invoiceImport.organizationId, parsed.invoice, parsed.format, parties);
  const duplicateOf = await findSemanticDuplicate(tx, invoiceId, invoiceImport.organizationId);
  await tx.invoice.update({ where: { id: invoiceId }, data: { processingStatus: 'completed', processingFailure: Prisma.DbNull, duplicateOfInvoiceId: duplicateOf } });
  await linkCreditNotes(tx, invoiceId, invoiceImport.organizationId);
  await tx.invoiceImport.update({ where: { id: importId }, data: { outcome: 'imported', invoiceId, finishedAt: new Date() } });
  return { outcome: 'imported', invoice_id: invoiceId };
}

export type ImportActivities = ReturnType<typeof createImportActivities>;
