import { Prisma } from '../generated/prisma/client.js';
import { amountProblems } from './amounts.js';
import type { NormalizedInvoice } from './parsing/model.js';
import { findOrCreateParty } from './parties.js';
import { batchesOf } from '../shared/batches.js';
import { orderedUuids } from '../shared/ids.js';

// Writing an invoice's content (header, parties, lines) from the normalized model, the one shape
// every source (parsed files, JSON invoices, syncs) is turned into first.

type Tx = Prisma.TransactionClient;

const dateOrNull = (value: string | null | undefined) => (value ? new Date(`${value}T00:00:00Z`) : null);
const decimalOrNull = (value: string | null | undefined) =>
  value === null || value === undefined ? null : new Prisma.Decimal(value);

// Where the lines of a normalized invoice do not add up to its totals.
export function totalsProblems(invoice: NormalizedInvoice) {
  const t = invoice.totals;
  return amountProblems({
    lines: invoice.lines,
    lineExtension: t.lineExtension,
    allowanceTotal: t.allowanceTotal,
    chargeTotal: t.chargeTotal,
    taxExclusive: t.taxExclusive,
    vatTotal: t.vatTotal,
    taxInclusive: t.taxInclusive,
    prepaid: t.prepaid,
    rounding: t.payableRounding,
    payable: t.payable,
  });
}

export function amountsAreValid(invoice: NormalizedInvoice): boolean {
  return totalsProblems(invoice).length === 0;
}

function headerOf(invoice: NormalizedInvoice) {
  const t = invoice.totals;
  return {
    documentType: invoice.documentType,
    typeCode: invoice.typeCode,
    invoiceNumber: invoice.invoiceNumber,
    issueDate: dateOrNull(invoice.issueDate),
    dueDate: dateOrNull(invoice.dueDate),
    currencyCode: invoice.currencyCode,
    taxCurrencyCode: invoice.taxCurrencyCode,
    exchangeRate: decimalOrNull(invoice.exchangeRate?.rate),
    supplierParty: invoice.supplier as unknown as Prisma.InputJsonValue,
    recipientParty: invoice.recipient as unknown as Prisma.InputJsonValue,
    buyerReference: invoice.buyerReference,
    orderReference: invoice.orderReference,
    contractReference: invoice.contractReference,
    deliveryCountryCode: invoice.deliveryCountryCode ?? invoice.deliveryAddress?.countryCode ?? null,
    deliveryAddress: invoice.deliveryAddress
      ? (invoice.deliveryAddress as unknown as Prisma.InputJsonValue)
      : Prisma.DbNull,
    invoicePeriodStart: dateOrNull(invoice.invoicePeriod?.start),
    invoicePeriodEnd: dateOrNull(invoice.invoicePeriod?.end),
    deliveryDate: dateOrNull(invoice.deliveryDate),
    lineExtensionAmount: decimalOrNull(t.lineExtension),
    taxExclusiveAmount: decimalOrNull(t.taxExclusive),
    vatAmount: decimalOrNull(t.vatTotal),
    taxInclusiveAmount: decimalOrNull(t.taxInclusive),
    allowanceTotal: decimalOrNull(t.allowanceTotal),
    chargeTotal: decimalOrNull(t.chargeTotal),
    prepaidAmount: decimalOrNull(t.prepaid),
    roundingAmount: decimalOrNull(t.payableRounding),
    payableAmount: decimalOrNull(t.payable),
    amountsValid: amountsAreValid(invoice),
    allowanceCharges: invoice.allowanceCharges as unknown as Prisma.InputJsonValue,
    vatBreakdown: invoice.vatBreakdown as unknown as Prisma.InputJsonValue,
    notes: invoice.notes,
    extraction: invoice.extraction as unknown as Prisma.InputJsonValue,
    creditedInvoiceReference: invoice.creditedInvoiceReference,
    classification: invoice.documentType,
    contentChangedAt: new Date(),
  };
}

// An invoice line as written by insertInvoiceLines: decimals as the plain decimal strings the
// parser and the API schemas produce (PostgreSQL reads them; no Decimal object per value for
// 50,000 lines), VAT as the percent the documents write (the column keeps the fraction the API
// speaks: "25" is stored as 0.25), dates as YYYY-MM-DD.
export interface InvoiceLineRow {
  id: string;
  invoiceId: string;
  organizationId: string;
  position: number;
  lineNumber: string | null;
  description: string | null;
  sellerItemId: string | null;
  buyerItemId: string | null;
  quantity: string | null;
  unitCode: string | null;
  unitPrice: string | null;
  priceBaseQuantity: string | null;
  netAmount: string | null;
  vatCategory: string | null;
  vatPercent: string | null;
  periodStart: string | null;
  periodEnd: string | null;
  /** The line's allowances and charges (BG-27/BG-28) as JSON text; null when not known. */
  allowanceCharges: string | null;
}

// Line ids in line order (orderedUuids): a large invoice's lines append to the primary-key index.
export function lineRowsOf(
  lines: NormalizedInvoice['lines'],
  invoiceId: string,
  organizationId: string,
): InvoiceLineRow[] {
  const ids = orderedUuids(lines.length);
  return lines.map((line, position) => ({
    id: ids[position]!,
    invoiceId,
    organizationId,
    position,
    lineNumber: line.id,
    description: line.description,
    sellerItemId: line.sellerItemId,
    buyerItemId: line.buyerItemId,
    quantity: line.quantity ?? null,
    unitCode: line.unitCode,
    unitPrice: line.unitPrice ?? null,
    priceBaseQuantity: line.priceBaseQuantity ?? null,
    netAmount: line.netAmount ?? null,
    vatCategory: line.vatCategory,
    vatPercent: line.vatPercent ?? null,
    periodStart: line.period?.start || null,
    periodEnd: line.period?.end || null,
    allowanceCharges: line.allowanceCharges ? JSON.stringify(line.allowanceCharges) : null,
  }));
}

// An invoice can have tens of thousands of lines: each column goes as one array parameter
// (unnest), a chunk of rows per statement, instead of Prisma's createMany with a bind parameter
// per value (PostgreSQL allows 65,535) and a far higher cost per row (docs/benchmarks.md).
const LINE_CHUNK = 10_000;

export async function insertInvoiceLines(tx: Tx, rows: InvoiceLineRow[]): Promise<void> {
  for (const chunk of batchesOf(rows, LINE_CHUNK)) {
    const column = <V>(pick: (row: InvoiceLineRow) => V): V[] => chunk.map(pick);
    await tx.$executeRaw`
      INSERT INTO invoice_lines (id, invoice_id, organization_id, position, line_number, description, seller_item_id, buyer_item_id,
                                 quantity, unit_code, unit_price, price_base_quantity, net_amount, vat_category, vat_rate, period_start, period_end,
                                 allowance_charges)
      SELECT id, invoice_id, organization_id, position, line_number, description, seller_item_id, buyer_item_id, quantity, unit_code,
             unit_price, price_base_quantity, net_amount, vat_category, vat_percent / 100, period_start, period_end, allowance_charges
        FROM unnest(${column((r) => r.id)}::uuid[], ${column((r) => r.invoiceId)}::uuid[], ${column((r) => r.organizationId)}::uuid[],
                           ${column((r) => r.position)}::int[], ${column((r) => r.lineNumber)}::text[], ${column((r) => r.description)}::text[],
                           ${column((r) => r.sellerItemId)}::text[], ${column((r) => r.buyerItemId)}::text[], ${column((r) => r.quantity)}::numeric[],
                           ${column((r) => r.unitCode)}::text[], ${column((r) => r.unitPrice)}::numeric[], ${column((r) => r.priceBaseQuantity)}::numeric[],
                           ${column((r) => r.netAmount)}::numeric[], ${column((r) => r.vatCategory)}::text[], ${column((r) => r.vatPercent)}::numeric[],
                           ${column((r) => r.periodStart)}::date[], ${column((r) => r.periodEnd)}::date[], ${column((r) => r.allowanceCharges)}::jsonb[])
             AS t(id, invoice_id, organization_id, position, line_number, description, seller_item_id, buyer_item_id, quantity, unit_code,
                  unit_price, price_base_quantity, net_amount, vat_category, vat_percent, period_start, period_end, allowance_charges)`;
  }
}

export interface PartyIds {
  supplierId: string | null;
  recipientId: string | null;
}

// Finds or creates the invoice's supplier and recipient outside the transaction that writes the
// invoice: a party's lock (taken only to create it) is then never held while a whole invoice is
// written.
export async function resolveParties(
  db: Parameters<typeof findOrCreateParty>[0],
  organizationId: string,
  invoice: NormalizedInvoice,
): Promise<PartyIds> {
  const [supplierId, recipientId] = await Promise.all([
    findOrCreateParty(db, 'supplier', organizationId, invoice.supplier),
    findOrCreateParty(db, 'recipient', organizationId, invoice.recipient),
  ]);
  return { supplierId, recipientId };
}

export interface InvoiceContentWrite {
  invoiceId: string;
  organizationId: string;
  invoice: NormalizedInvoice;
  format: string | null;
  parties: PartyIds;
  // Written in the same statement (an import's status, its duplicate links).
  also?: Prisma.InvoiceUncheckedUpdateInput;
  // False when the invoice is known to have no lines yet (an upload's new invoice): nothing to delete.
  mayHaveLines?: boolean;
}

// Replaces the invoice's content (its lines included) with the given invoice, linked to its
// parties.
export async function writeInvoiceContent(tx: Tx, write: InvoiceContentWrite): Promise<void> {
  const { invoiceId, organizationId, invoice, parties } = write;
  const { supplierId, recipientId } = parties;
  await tx.invoice.update({
    where: { id: invoiceId },
    data: { ...headerOf(invoice), format: write.format, supplierId, recipientId, ...write.also },
  });
  if (write.mayHaveLines !== false) await tx.invoiceLine.deleteMany({ where: { invoiceId } });
  await insertInvoiceLines(tx, lineRowsOf(invoice.lines, invoiceId, organizationId));
}

// What makes two invoices the same one sent twice.
export interface SemanticKey {
  supplierId: string | null;
  invoiceNumber: string | null;
  issueDate: Date | null;
  taxInclusiveAmount: Prisma.Decimal | null;
  documentType: 'invoice' | 'credit_note' | null;
  createdAt: Date;
}

// The key the invoice will have once `invoice` is written to it (amounts as the column keeps them).
export function semanticKeyOf(invoice: NormalizedInvoice, supplierId: string | null, createdAt: Date): SemanticKey {
  return {
    supplierId,
    invoiceNumber: invoice.invoiceNumber,
    issueDate: dateOrNull(invoice.issueDate),
    taxInclusiveAmount: decimalOrNull(invoice.totals.taxInclusive)?.toDecimalPlaces(4) ?? null,
    documentType: invoice.documentType,
    createdAt,
  };
}

// Another file with the same supplier, number, total and date: the earliest such invoice.
export async function findSemanticDuplicate(tx: Tx, invoiceId: string, organizationId: string): Promise<string | null> {
  return findSemanticDuplicateOf(
    tx,
    invoiceId,
    organizationId,
    await tx.invoice.findUniqueOrThrow({ where: { id: invoiceId } }),
  );
}

export async function findSemanticDuplicateOf(
  tx: Tx,
  invoiceId: string,
  organizationId: string,
  key: SemanticKey,
): Promise<string | null> {
  if (!key.invoiceNumber || !key.supplierId || !key.issueDate || key.taxInclusiveAmount === null) return null;
  const original = await tx.invoice.findFirst({
    where: {
      organizationId,
      id: { not: invoiceId },
      deletedAt: null,
      duplicateOfInvoiceId: null,
      supplierId: key.supplierId,
      invoiceNumber: key.invoiceNumber,
      issueDate: key.issueDate,
      taxInclusiveAmount: key.taxInclusiveAmount,
      documentType: key.documentType,
      createdAt: { lte: key.createdAt },
    },
    orderBy: { createdAt: 'asc' },
    select: { id: true },
  });
  return original?.id ?? null;
}

interface CreditFacts {
  documentType: 'invoice' | 'credit_note' | null;
  invoiceNumber: string | null;
  creditedInvoiceReference: string | null;
  supplierId: string | null;
}

// A credit note is linked to the invoice it credits, whichever of the two arrives first.
export async function linkCreditNotes(tx: Tx, invoiceId: string, organizationId: string): Promise<void> {
  const invoice = await tx.invoice.findUniqueOrThrow({ where: { id: invoiceId } });
  const credited = await findCreditedInvoice(tx, organizationId, invoice);
  if (credited) await tx.invoice.update({ where: { id: invoiceId }, data: { creditedInvoiceId: credited } });
  await linkCreditNotesTo(tx, invoiceId, organizationId, invoice);
}

// The invoice a credit note credits, when it is already here.
export async function findCreditedInvoice(
  tx: Tx,
  organizationId: string,
  creditNote: CreditFacts,
): Promise<string | null> {
  if (creditNote.documentType !== 'credit_note' || !creditNote.creditedInvoiceReference) return null;
  const credited = await tx.invoice.findFirst({
    where: {
      organizationId,
      deletedAt: null,
      documentType: 'invoice',
      invoiceNumber: creditNote.creditedInvoiceReference,
      ...(creditNote.supplierId ? { supplierId: creditNote.supplierId } : {}),
    },
    orderBy: { createdAt: 'asc' },
    select: { id: true },
  });
  return credited?.id ?? null;
}

// Credit notes that arrived before the invoice they credit.
export async function linkCreditNotesTo(
  tx: Tx,
  invoiceId: string,
  organizationId: string,
  invoice: CreditFacts,
): Promise<void> {
  if (invoice.documentType !== 'invoice' || !invoice.invoiceNumber) return;
  await tx.invoice.updateMany({
    where: {
      organizationId,
      documentType: 'credit_note',
      creditedInvoiceId: null,
      creditedInvoiceReference: invoice.invoiceNumber,
      ...(invoice.supplierId ? { OR: [{ supplierId: invoice.supplierId }, { supplierId: null }] } : {}),
    },
    data: { creditedInvoiceId: invoiceId },
  });
}
