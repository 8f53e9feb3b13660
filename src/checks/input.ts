import type { Db } from '../db/client.js';
import type { Prisma } from '../generated/prisma/client.js';
import type { AllowanceCharge } from '../invoices/parsing/model.js';
import { createRateLookup } from '../exchange-rates/index.js';
import { DUPLICATE_WINDOW_DAYS } from './checkers/index.js';
import type { CheckInput, CheckLine, CheckPriceItem, PriorCharge } from './checkers/types.js';

// Loads everything one check reads: the invoice with its lines, the agreement with its price
// items, the central bank rates around the invoice date and the supplier's other charges for
// the same items. The versions it read are returned with it: they decide when the check is outdated.

const RATE_WINDOW_DAYS = 7;
// How far around the invoice date another invoice's charge can be a double billing of this one.
const PRIOR_CHARGE_WINDOW_DAYS = 400;
const PRIOR_CHARGE_LIMIT = 5000;

export interface LoadedCheck {
  input: CheckInput;
  organizationId: string;
  currencyCode: string | null;
  invoiceVersionAt: Date;
  agreementVersionAt: Date;
  instructions: string | null;
  lines: { id: string; sellerItemId: string | null; description: string | null; unitPrice: string | null }[];
}

const day = (date: Date | null): string | null => (date ? date.toISOString().slice(0, 10) : null);
const text = (value: Prisma.Decimal | null): string | null => (value === null ? null : value.toString());
const shiftDays = (date: Date, days: number) => new Date(date.getTime() + days * 86_400_000);

export async function loadCheck(db: Db, organizationId: string, invoiceId: string, agreementId: string): Promise<LoadedCheck | null> {
  const [invoice, agreement, priceItems] = await Promise.all([
    db.invoice.findFirst({ where: { id: invoiceId, organizationId }, include: { lines: { orderBy: { position: 'asc' } } } }),
    db.agreement.findFirst({ where: { id: agreementId, organizationId } }),
    loadPriceItems(db, organizationId, agreementId),
  ]);
  if (!invoice || !agreement) return null;
  const lines: CheckLine[] = invoice.lines.map((line) => ({
    id: line.id,
    position: line.position,
    lineNumber: line.lineNumber,
    description: line.description,
    sellerItemId: line.sellerItemId,
    quantity: text(line.quantity),
    unitCode: line.unitCode,
    unitPrice: text(line.unitPrice),
    priceBaseQuantity: text(line.priceBaseQuantity),
    netAmount: text(line.netAmount),
    periodStart: day(line.periodStart),
    periodEnd: day(line.periodEnd),
  }));
  const priceCurrencies = new Set(priceItems.map((item) => item.currencyCode).filter((code) => code && code !== invoice.currencyCode));
  const [rates, priorCharges] = await Promise.all([
    priceCurrencies.size > 0 && invoice.issueDate ? loadRates(db, invoice.issueDate) : Promise.resolve([]),
    loadPriorCharges(db, invoice),
  ]);
  const allowanceCharges = (invoice.allowanceCharges as AllowanceCharge[] | null) ?? [];
  return {
    organizationId,
    currencyCode: invoice.currencyCode,
    invoiceVersionAt: invoice.contentChangedAt,
    agreementVersionAt: agreement.termsChangedAt,
    instructions: agreement.instructions,
    lines: lines.map((line) => ({ id: line.id, sellerItemId: line.sellerItemId, description: line.description, unitPrice: line.unitPrice as string | null })),
    input: {
      invoice: {
        id: invoice.id,
        invoiceNumber: invoice.invoiceNumber,
        documentType: invoice.documentType ?? 'invoice',
        currencyCode: invoice.currencyCode,
        issueDate: day(invoice.issueDate),
        periodStart: day(invoice.invoicePeriodStart),
        periodEnd: day(invoice.invoicePeriodEnd),
        supplierId: invoice.supplierId,
        exchangeRate: invoice.exchangeRate ? { sourceCurrencyCode: invoice.currencyCode, targetCurrencyCode: invoice.taxCurrencyCode, rate: invoice.exchangeRate.toString() } : null,
        lines,
        allowanceCharges: allowanceCharges.map((ac) => ({ isCharge: ac.isCharge, amount: ac.amount, baseAmount: ac.baseAmount, reason: ac.reason, reasonCode: ac.reasonCode })),
        totals: {
          lineExtension: text(invoice.lineExtensionAmount),
          allowanceTotal: text(invoice.allowanceTotal),
          chargeTotal: text(invoice.chargeTotal),
          taxExclusive: text(invoice.taxExclusiveAmount),
          vatTotal: text(invoice.vatAmount),
          taxInclusive: text(invoice.taxInclusiveAmount),
          prepaid: text(invoice.prepaidAmount),
          payableRounding: text(invoice.roundingAmount),
          payable: text(invoice.payableAmount),
        },
      },
      agreement: {
        id: agreement.id,
        title: agreement.title,
        effectiveDate: day(agreement.effectiveDate),
        expirationDate: day(agreement.expirationDate),
        priceItems,
      },
      rates: createRateLookup(rates),
      priorCharges,
    },
  };
}

// An agreement can hold thousands of price items: read as text in one raw query, without
// Prisma's per-row Decimal and Date objects (about three times cheaper at 5,000 items).
function loadPriceItems(db: Db, organizationId: string, agreementId: string): Promise<CheckPriceItem[]> {
  return db.$queryRaw<CheckPriceItem[]>`
    SELECT id::text AS "id", description AS "description", seller_item_id AS "sellerItemId", unit AS "unit",
           currency_code AS "currencyCode", price_type::text AS "priceType", trim_scale(amount)::text AS "amount",
           trim_scale(fraction)::text AS "fraction", basis AS "basis", to_char(valid_until, 'YYYY-MM-DD') AS "validUntil",
           source_document_id::text AS "sourceDocumentId"
      FROM price_items
     WHERE organization_id = ${organizationId}::uuid AND agreement_id = ${agreementId}::uuid
     ORDER BY id`;
}

async function loadRates(db: Db, issueDate: Date) {
  const rows = await db.exchangeRate.findMany({ where: { date: { gte: shiftDays(issueDate, -RATE_WINDOW_DAYS), lte: issueDate } } });
  return rows.map((row) => ({ source: row.source, date: day(row.date)!, baseCurrency: row.baseCurrency, quoteCurrency: row.quoteCurrency, rate: row.rate.toString() }));
}

// The supplier's other invoices' lines for the same items (by seller item id or description),
// leaving out what cannot be a double billing: credit notes, credited invoices, quarantined
// duplicates and deleted invoices.
async function loadPriorCharges(
  db: Db,
  invoice: { id: string; organizationId: string; supplierId: string | null; issueDate: Date | null; lines: { sellerItemId: string | null; description: string | null }[] },
): Promise<PriorCharge[]> {
  if (!invoice.supplierId || invoice.lines.length === 0) return [];
  const itemIds = [...new Set(invoice.lines.map((l) => l.sellerItemId).filter((v): v is string => !!v))];
  const descriptions = [...new Set(invoice.lines.map((l) => l.description).filter((v): v is string => !!v))];
  const around = invoice.issueDate
    ? { issueDate: { gte: shiftDays(invoice.issueDate, -PRIOR_CHARGE_WINDOW_DAYS), lte: shiftDays(invoice.issueDate, PRIOR_CHARGE_WINDOW_DAYS) } }
    : {};
  const lines = await db.invoiceLine.findMany({
    where: {
      organizationId: invoice.organizationId,
      invoiceId: { not: invoice.id },
      AND: [{ OR: [{ sellerItemId: { in: itemIds } }, { description: { in: descriptions } }] }, { OR: comparableCharges(invoice.issueDate) }],
      invoice: {
        supplierId: invoice.supplierId,
        deletedAt: null,
        documentType: 'invoice',
        duplicateOfInvoiceId: null,
        processingStatus: 'completed',
        ...around,
        NOT: { id: { in: await creditedInvoiceIds(db, invoice.organizationId, invoice.supplierId) } },
      },
    },
    include: { invoice: { select: { invoiceNumber: true, issueDate: true, invoicePeriodStart: true, invoicePeriodEnd: true } } },
    orderBy: [{ invoiceId: 'asc' }, { position: 'asc' }],
    take: PRIOR_CHARGE_LIMIT,
  });
  return lines.map((line) => ({
    invoiceId: line.invoiceId,
    invoiceNumber: line.invoice.invoiceNumber,
    lineId: line.id,
    sellerItemId: line.sellerItemId,
    description: line.description,
    unitCode: line.unitCode,
    periodStart: day(line.periodStart ?? line.invoice.invoicePeriodStart),
    periodEnd: day(line.periodEnd ?? line.invoice.invoicePeriodEnd),
    quantity: text(line.quantity),
    netAmount: text(line.netAmount),
    issueDate: day(line.invoice.issueDate),
  }));
}

// The duplicate checker compares a charge without a period (its own or its invoice's) only with
// charges issued within DUPLICATE_WINDOW_DAYS: older ones could never be found again, and without
// this a supplier's frequent invoices fill PRIOR_CHARGE_LIMIT with them, each compared with every line.
function comparableCharges(issueDate: Date | null): Prisma.InvoiceLineWhereInput[] {
  const withPeriod: Prisma.InvoiceLineWhereInput[] = [
    { periodStart: { not: null } },
    { periodEnd: { not: null } },
    { invoice: { invoicePeriodStart: { not: null } } },
    { invoice: { invoicePeriodEnd: { not: null } } },
  ];
  if (!issueDate) return withPeriod;
  return [...withPeriod, { invoice: { issueDate: { gte: shiftDays(issueDate, -DUPLICATE_WINDOW_DAYS), lte: shiftDays(issueDate, DUPLICATE_WINDOW_DAYS) } } }];
}

async function creditedInvoiceIds(db: Db, organizationId: string, supplierId: string): Promise<string[]> {
  const rows = await db.invoice.findMany({
    where: { organizationId, supplierId, documentType: 'credit_note', deletedAt: null, creditedInvoiceId: { not: null } },
    select: { creditedInvoiceId: true },
  });
  return rows.map((row) => row.creditedInvoiceId!);
}
