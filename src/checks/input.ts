import type { Db } from '../db/client.js';
import { Prisma } from '../db/client.js';
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
  const [invoice, lines, agreement, priceItems] = await Promise.all([
    db.invoice.findFirst({ where: { id: invoiceId, organizationId } }),
    loadLines(db, organizationId, invoiceId),
    db.agreement.findFirst({ where: { id: agreementId, organizationId } }),
    loadPriceItems(db, organizationId, agreementId),
  ]);
  if (!invoice || !agreement) return null;
  const priceCurrencies = new Set(priceItems.map((item) => item.currencyCode).filter((code) => code && code !== invoice.currencyCode));
  const [rates, priorCharges] = await Promise.all([
    priceCurrencies.size > 0 && invoice.issueDate ? loadRates(db, invoice.issueDate) : Promise.resolve([]),
    loadPriorCharges(db, { ...invoice, lines }),
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

// An invoice can have tens of thousands of lines: read as text in one raw query, like the price
// items below, without a Decimal and Date object per value.
function loadLines(db: Db, organizationId: string, invoiceId: string): Promise<CheckLine[]> {
  return db.$queryRaw<CheckLine[]>`
    SELECT id::text AS "id", position AS "position", line_number AS "lineNumber", description AS "description",
           seller_item_id AS "sellerItemId", trim_scale(quantity)::text AS "quantity", unit_code AS "unitCode",
           trim_scale(unit_price)::text AS "unitPrice", trim_scale(price_base_quantity)::text AS "priceBaseQuantity",
           trim_scale(net_amount)::text AS "netAmount", to_char(period_start, 'YYYY-MM-DD') AS "periodStart",
           to_char(period_end, 'YYYY-MM-DD') AS "periodEnd"
      FROM invoice_lines
     WHERE organization_id = ${organizationId}::uuid AND invoice_id = ${invoiceId}::uuid
     ORDER BY position`;
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
// duplicates and deleted invoices. Raw SQL, because an invoice of tens of thousands of lines names
// as many items: they go as two array parameters, never one bind parameter each (PostgreSQL
// allows 65,535).
async function loadPriorCharges(
  db: Db,
  invoice: { id: string; organizationId: string; supplierId: string | null; issueDate: Date | null; lines: { sellerItemId: string | null; description: string | null }[] },
): Promise<PriorCharge[]> {
  if (!invoice.supplierId || invoice.lines.length === 0) return [];
  const itemIds = [...new Set(invoice.lines.map((l) => l.sellerItemId).filter((v): v is string => !!v))];
  const descriptions = [...new Set(invoice.lines.map((l) => l.description).filter((v): v is string => !!v))];
  const around = invoice.issueDate
    ? Prisma.sql`AND i.issue_date BETWEEN ${day(shiftDays(invoice.issueDate, -PRIOR_CHARGE_WINDOW_DAYS))}::date AND ${day(shiftDays(invoice.issueDate, PRIOR_CHARGE_WINDOW_DAYS))}::date`
    : Prisma.empty;
  return db.$queryRaw<PriorCharge[]>`
    SELECT l.invoice_id::text AS "invoiceId", i.invoice_number AS "invoiceNumber", l.id::text AS "lineId", l.seller_item_id AS "sellerItemId",
           l.description AS "description", l.unit_code AS "unitCode",
           to_char(COALESCE(l.period_start, i.invoice_period_start), 'YYYY-MM-DD') AS "periodStart",
           to_char(COALESCE(l.period_end, i.invoice_period_end), 'YYYY-MM-DD') AS "periodEnd",
           trim_scale(l.quantity)::text AS "quantity", trim_scale(l.net_amount)::text AS "netAmount", to_char(i.issue_date, 'YYYY-MM-DD') AS "issueDate"
      FROM invoice_lines l
      JOIN invoices i ON i.id = l.invoice_id
     WHERE l.organization_id = ${invoice.organizationId}::uuid AND l.invoice_id <> ${invoice.id}::uuid
       AND (l.seller_item_id = ANY(${itemIds}::text[]) OR l.description = ANY(${descriptions}::text[]))
       AND ${comparableCharges(invoice.issueDate)}
       AND i.supplier_id = ${invoice.supplierId}::uuid AND i.deleted_at IS NULL AND i.document_type = 'invoice'
       AND i.duplicate_of_invoice_id IS NULL AND i.processing_status = 'completed' ${around}
       AND NOT EXISTS (SELECT 1 FROM invoices c
                        WHERE c.organization_id = i.organization_id AND c.supplier_id = i.supplier_id AND c.document_type = 'credit_note'
                          AND c.deleted_at IS NULL AND c.credited_invoice_id = i.id)
     ORDER BY l.invoice_id, l.position
     LIMIT ${PRIOR_CHARGE_LIMIT}`;
}

// The duplicate checker compares a charge without a period (its own or its invoice's) only with
// charges issued within DUPLICATE_WINDOW_DAYS: older ones could never be found again, and without
// this a supplier's frequent invoices fill PRIOR_CHARGE_LIMIT with them, each compared with every line.
function comparableCharges(issueDate: Date | null): Prisma.Sql {
  const withPeriod = Prisma.sql`(l.period_start IS NOT NULL OR l.period_end IS NOT NULL OR i.invoice_period_start IS NOT NULL OR i.invoice_period_end IS NOT NULL`;
  if (!issueDate) return Prisma.sql`${withPeriod})`;
  return Prisma.sql`${withPeriod} OR i.issue_date BETWEEN ${day(shiftDays(issueDate, -DUPLICATE_WINDOW_DAYS))}::date AND ${day(shiftDays(issueDate, DUPLICATE_WINDOW_DAYS))}::date)`;
}
