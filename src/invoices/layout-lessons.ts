// Learning from one correction (docs/invoice-parsing.md, "Learning from a correction"). A PATCH
// that changes what the layout reader read from a PDF records a lesson for the invoice's supplier,
// in the PATCH's own transaction, so a correction is never lost; the API opens no PDF. The worker
// learns the layout from the lesson's document the first time an import of that supplier needs it
// (learnedLayoutsFor), and reads the new PDF with it.
import { randomUUID } from 'node:crypto';
import { Prisma } from '../db/client.js';
import type { Invoice, InvoiceLine } from '../generated/prisma/client.js';
import type { ExtractionInfo } from './parsing/model.js';
import type { ConfirmedValues, RememberedField } from './parsing/layout/memory.js';
import { MAX_LINES_LEARNED_FROM } from './parsing/layout/learn.js';
import { orgNumberKey, vatIdKey } from './parsing/layout/supplier-keys.js';

/** What the worker needs to learn: the document the person looked at and what they confirmed on it. */
export interface LayoutLesson {
  documentId: string;
  invoiceId: string;
  confirmed: ConfirmedValues;
}

type InvoiceWithLines = Invoice & { lines: InvoiceLine[] };

// The PATCH's fields (as the activity entry names them) and what the reader calls them.
const HEADER_FIELDS: ReadonlyArray<[string, RememberedField]> = [
  ['invoice_number', 'invoiceNumber'],
  ['issue_date', 'issueDate'],
  ['due_date', 'dueDate'],
  ['order_reference', 'orderReference'],
  ['contract_reference', 'contractReference'],
  ['buyer_reference', 'buyerReference'],
];
type AmountColumn = 'taxExclusiveAmount' | 'vatAmount' | 'taxInclusiveAmount' | 'payableAmount';
const AMOUNT_FIELDS: ReadonlyArray<[AmountColumn, RememberedField]> = [
  ['taxExclusiveAmount', 'totals.taxExclusive'],
  ['vatAmount', 'totals.vatTotal'],
  ['taxInclusiveAmount', 'totals.taxInclusive'],
  ['payableAmount', 'totals.payable'],
];

/**
 * Records (or renews) the supplier's lesson when a PATCH changed what was read from a PDF's text
 * layer. A supplier the reading found no org number, VAT id or IBAN for is not recognisable
 * again, so nothing is recorded for it.
 */
export async function recordLayoutLesson(
  tx: Prisma.TransactionClient,
  before: InvoiceWithLines,
  after: InvoiceWithLines,
  changed: readonly string[],
): Promise<void> {
  const extraction = before.extraction as Partial<ExtractionInfo> | null;
  if (extraction?.method !== 'pdf_text' || !before.primaryDocumentId) return;
  const corrected = correctedFields(before, after, changed);
  if (corrected.length === 0) return;
  const supplierKeys = await keysOf(tx, before, extraction);
  if (supplierKeys.length === 0) return;
  const lesson: LayoutLesson = {
    documentId: before.primaryDocumentId,
    invoiceId: before.id,
    confirmed: confirmedValuesOf(after, corrected),
  };
  const { organizationId } = before;
  const existing = await tx.supplierLayout.findFirst({
    where: { organizationId, supplierKeys: { hasSome: supplierKeys } },
    orderBy: { updatedAt: 'desc' },
  });
  const data = { lesson: lesson as unknown as Prisma.InputJsonValue, memory: Prisma.DbNull, learnedAt: null };
  if (existing) {
    const keys = [...new Set([...existing.supplierKeys, ...supplierKeys])];
    await tx.supplierLayout.update({ where: { id: existing.id }, data: { ...data, supplierKeys: keys } });
  } else {
    await tx.supplierLayout.create({ data: { id: randomUUID(), organizationId, supplierKeys, ...data } });
  }
}

function correctedFields(
  before: InvoiceWithLines,
  after: InvoiceWithLines,
  changed: readonly string[],
): ConfirmedValues['corrected'] {
  const corrected: ConfirmedValues['corrected'] = HEADER_FIELDS.filter(([name]) => changed.includes(name)).map(
    ([, field]) => field,
  );
  if (changed.includes('amounts')) {
    for (const [column, field] of AMOUNT_FIELDS) {
      if ((before[column]?.toString() ?? '') !== (after[column]?.toString() ?? '')) corrected.push(field);
    }
  }
  if (changed.includes('line_items')) corrected.push('lines');
  return corrected;
}

/** The keys the reading found, and the invoice's supplier's org number and VAT id. */
async function keysOf(
  tx: Prisma.TransactionClient,
  invoice: InvoiceWithLines,
  extraction: Partial<ExtractionInfo>,
): Promise<string[]> {
  const keys = new Set(extraction.supplierKeys ?? []);
  if (invoice.supplierId) {
    const supplier = await tx.supplier.findFirst({
      where: { id: invoice.supplierId, organizationId: invoice.organizationId },
      select: { orgNumber: true, vatId: true },
    });
    for (const key of [orgNumberKey(supplier?.orgNumber), vatIdKey(supplier?.vatId)]) if (key) keys.add(key);
  }
  return [...keys];
}

const isoDate = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : null);
const decimal = (value: Prisma.Decimal | null) => (value === null ? null : value.toString());

function confirmedValuesOf(invoice: InvoiceWithLines, corrected: ConfirmedValues['corrected']): ConfirmedValues {
  return {
    invoiceNumber: invoice.invoiceNumber,
    issueDate: isoDate(invoice.issueDate),
    dueDate: isoDate(invoice.dueDate),
    orderReference: invoice.orderReference,
    contractReference: invoice.contractReference,
    buyerReference: invoice.buyerReference,
    totals: {
      taxExclusive: decimal(invoice.taxExclusiveAmount),
      vatTotal: decimal(invoice.vatAmount),
      taxInclusive: decimal(invoice.taxInclusiveAmount),
      payable: decimal(invoice.payableAmount),
    },
    // Only the lines the learner reads: the lesson of a 70,000-line invoice stays small.
    lines: invoice.lines.slice(0, MAX_LINES_LEARNED_FROM).map((line) => ({
      description: line.description,
      quantity: decimal(line.quantity),
      unitPrice: decimal(line.unitPrice),
      netAmount: decimal(line.netAmount),
    })),
    corrected,
  };
}
