import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/activity';
import { Prisma, type Db } from '../src/db/client.js';
import { readPriceListIsolated, LIMITS, type PriceListRow } from '../src/agreements/price-lists/index.js';
import type { ObjectStorage } from '../src/storage/object-storage.js';
import { publicFailure } from '../src/shared/failures.js';
import { lockAgreementTerms, markAgreementTermsChanged } from '../src/agreements/terms-state.js';
import { recordActivity, systemActor } from '../src/activity/record.js';
import { priceItemActivity } from '../src/agreements/price-items/service.js';
import type { PriceItem } from '../src/generated/prisma/client.js';
import {
  insertImportRows,
  insertPriceItems,
  type ImportRowRecord,
  type PriceItemRow,
} from '../src/agreements/price-imports/bulk-insert.js';
import { readItemKey, storedItemKey } from '../src/agreements/price-imports/item-key.js';

// Reads a price list and writes its rows as price items, all or nothing, in one transaction that
// first checks whether this import already finished (so a retry after a crash changes nothing).

type Counts = { rows: number; added: number; skipped: number; rejected: number };

export function createPriceImportActivities(deps: { db: Db; storage: ObjectStorage }) {
  const { db, storage } = deps;

  async function recordFailure(importId: string, rows: PriceListRow[], reported: { code: string; message: string }) {
    const failure = { ...publicFailure(reported) };
    await db.$transaction([
      db.priceImportRow.deleteMany({ where: { importId } }),
      db.priceImportRow.createMany({
        data: rows.map((row, position) => ({
          importId,
          position,
          sheet: row.sheet,
          rowNumber: row.rowNumber,
          outcome: row.outcome === 'rejected' ? 'rejected' : 'not_added',
          reason: row.outcome === 'rejected' ? row.reason : `nothing was added: ${failure.message}`,
          raw: row.raw,
        })),
      }),
      db.priceImport.update({
        where: { id: importId },
        data: {
          failure,
          finishedAt: new Date(),
          rowsFound: rows.length,
          rowsAdded: 0,
          rowsSkipped: 0,
          rowsRejected: rows.filter((r) => r.outcome === 'rejected').length,
        },
      }),
    ]);
  }

  return {
    async runPriceImport(importId: string): Promise<Counts> {
      const priceImport = await db.priceImport.findUniqueOrThrow({ where: { id: importId } });
      if (priceImport.finishedAt && !priceImport.failure) {
        return {
          rows: priceImport.rowsFound ?? 0,
          added: priceImport.rowsAdded ?? 0,
          skipped: priceImport.rowsSkipped ?? 0,
          rejected: priceImport.rowsRejected ?? 0,
        };
      }
      const document = await db.document.findUniqueOrThrow({ where: { id: priceImport.documentId } });
      const bytes = await storage.read(document.storageKey, LIMITS.maxInputBytes + 1);
      const result = await readPriceListIsolated({
        bytes,
        fileName: document.fileName,
        mimeType: document.mimeType,
        defaultCurrency: priceImport.defaultCurrency,
        worksheets: priceImport.worksheets.length ? priceImport.worksheets : undefined,
      });
      if (result.kind === 'failed' || !result.complete) {
        const message = result.failure?.message ?? 'The price list could not be read completely.';
        const failure = { code: 'extraction_incomplete', message };
        await recordFailure(importId, result.rows, failure);
        throw ApplicationFailure.nonRetryable(message, 'extraction_incomplete');
      }
      return db.$transaction((tx) => storeRows(tx, priceImport, result.rows), { timeout: 120_000 });
    },
  };
}

async function storeRows(
  tx: Prisma.TransactionClient,
  priceImport: {
    id: string;
    organizationId: string;
    agreementId: string;
    documentId: string;
    mode: string;
    workflowRunId: string;
  },
  rows: PriceListRow[],
): Promise<Counts> {
  // The import's changes are the system's, done by the import's run (docs/audit.md).
  const actor = systemActor(priceImport.workflowRunId);
  await lockAgreementTerms(tx, priceImport.agreementId);
  const replaced =
    priceImport.mode === 'replace_document'
      ? { agreementId: priceImport.agreementId, sourceDocumentId: priceImport.documentId }
      : priceImport.mode === 'replace_all'
        ? { agreementId: priceImport.agreementId }
        : null;
  if (replaced) {
    const removed = await tx.priceItem.findMany({ where: replaced });
    await tx.priceItem.deleteMany({ where: replaced });
    await recordActivity(
      tx,
      priceImport.organizationId,
      actor,
      removed.map((item) => priceItemActivity('deleted', item, null)),
    );
  }
  const existing = await tx.priceItem.findMany({ where: { agreementId: priceImport.agreementId } });
  const known = new Set(existing.map(storedItemKey));
  const items: PriceItemRow[] = [];
  const rowRecords: ImportRowRecord[] = rows.map((row, position) => {
    const base = {
      importId: priceImport.id,
      position,
      sheet: row.sheet,
      rowNumber: row.rowNumber,
      raw: row.raw,
      priceItemId: null,
    };
    if (row.outcome === 'rejected' || !row.item) return { ...base, outcome: 'rejected', reason: row.reason };
    const { item } = row;
    const columns = {
      description: item.description,
      sellerItemId: item.sellerItemId,
      unit: item.unit,
      currencyCode: item.currencyCode,
      priceType: item.price.type,
      amount: item.price.type === 'amount' ? item.price.amount : null,
      fraction: item.price.type === 'rate' ? item.price.fraction : null,
      basis: item.price.type === 'rate' ? item.price.basis : null,
      validFrom: item.validFrom ?? null,
      validUntil: item.validUntil,
    };
    const key = readItemKey(item);
    if (known.has(key))
      return { ...base, outcome: 'skipped', reason: 'the same price item is already on the agreement' };
    known.add(key);
    const id = randomUUID();
    items.push({
      ...columns,
      id,
      organizationId: priceImport.organizationId,
      agreementId: priceImport.agreementId,
      sourceDocumentId: priceImport.documentId,
    });
    return { ...base, outcome: 'added', reason: null, priceItemId: id };
  });
  await insertPriceItems(tx, items);
  const now = new Date();
  const added = items.map((item): PriceItem => ({
    ...item,
    amount: item.amount as never,
    fraction: item.fraction as never,
    validFrom: item.validFrom ? new Date(`${item.validFrom}T00:00:00Z`) : null,
    validUntil: item.validUntil ? new Date(`${item.validUntil}T00:00:00Z`) : null,
    unitConversions: null,
    createdAt: now,
    updatedAt: now,
  }));
  await recordActivity(
    tx,
    priceImport.organizationId,
    actor,
    added.map((item) => priceItemActivity('created', null, item)),
  );
  await tx.priceImportRow.deleteMany({ where: { importId: priceImport.id } });
  await insertImportRows(tx, rowRecords);
  const counts = {
    rows: rows.length,
    added: items.length,
    skipped: rowRecords.filter((r) => r.outcome === 'skipped').length,
    rejected: rowRecords.filter((r) => r.outcome === 'rejected').length,
  };
  await tx.priceImport.update({
    where: { id: priceImport.id },
    data: {
      rowsFound: counts.rows,
      rowsAdded: counts.added,
      rowsSkipped: counts.skipped,
      rowsRejected: counts.rejected,
      failure: Prisma.DbNull,
      finishedAt: new Date(),
    },
  });
  await markAgreementTermsChanged(tx, priceImport.agreementId);
  return counts;
}

export type PriceImportActivities = ReturnType<typeof createPriceImportActivities>;
