import type { Db } from '../db/client.js';
import type { Agreement, Invoice, Prisma } from '../generated/prisma/client.js';
import type { AllowanceCharge, ExtractionInfo } from '../invoices/parsing/model.js';
import { createRateLookup } from '../exchange-rates/index.js';
import { DUPLICATE_WINDOW_DAYS } from './checkers/index.js';
import { DEFAULT_CHECK_SETTINGS } from './checkers/money.js';
import type {
  CheckExtraction,
  CheckInput,
  CheckLine,
  CheckPriceItem,
  CheckSettings,
  PriorCharge,
} from './checkers/types.js';

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

// The extraction's review flag and line confidence as the checkers read them (docs/invoice-parsing.md).
function checkExtraction(raw: Prisma.JsonValue | null): CheckExtraction {
  const extraction = (raw ?? null) as Partial<ExtractionInfo> | null;
  return {
    method: extraction?.method ?? 'structured',
    needsReview: extraction?.needsReview ?? false,
    linesConfidence: extraction?.confidence?.lines ?? null,
  };
}

const day = (date: Date | null): string | null => (date ? date.toISOString().slice(0, 10) : null);
const text = (value: Prisma.Decimal | null): string | null => (value === null ? null : value.toString());
const shiftDays = (date: Date, days: number) => new Date(date.getTime() + days * 86_400_000);

// What the checks of one batch (a check run works its pairs in batches) share, so each is read
// once per batch instead of once per check: each agreement with its price items (the same list
// object, so the checkers' price index is built once too) and the earlier charges of the batch's
// invoices, read per supplier in one statement.
export interface CheckBatch {
  agreements: Map<string, Promise<AgreementTerms | null>>;
  priorCharges: Map<string, PriorCharge[]>;
  // The batch's invoices with their lines, when they are few enough lines to hold at once.
  invoices?: Map<string, InvoiceWithLines>;
  // The checks of the batch's pairs that exist already (a retried batch), by check id.
  checks?: Map<string, { status: 'running' | 'completed' | 'failed'; findingsCount: number | null }>;
  // The organization's check settings, read once per batch.
  settings?: Promise<CheckSettings>;
}

// The organization's settings the checkers read (docs/checks.md): the line rounding tolerance.
function loadSettings(db: Db, organizationId: string, batch?: CheckBatch): Promise<CheckSettings> {
  if (batch?.settings) return batch.settings;
  const loading = db.organization
    .findUnique({ where: { id: organizationId }, select: { lineRoundingMinorUnits: true } })
    .then((organization) => ({
      lineRoundingMinorUnits: organization?.lineRoundingMinorUnits ?? DEFAULT_CHECK_SETTINGS.lineRoundingMinorUnits,
    }));
  if (batch) batch.settings = loading;
  return loading;
}

type InvoiceWithLines = Invoice & { lines: CheckLine[] };

// A batch holds its invoices' lines in memory up to this many; beyond, each check reads its own.
const BATCH_LINE_LIMIT = 10_000;

export async function loadBatchInvoices(
  db: Db,
  organizationId: string,
  invoiceIds: string[],
): Promise<Map<string, InvoiceWithLines> | undefined> {
  const [count] = await db.$queryRaw<
    { lines: number }[]
  >`SELECT count(*)::int AS "lines" FROM invoice_lines WHERE invoice_id = ANY(${invoiceIds}::uuid[])`;
  if ((count?.lines ?? 0) > BATCH_LINE_LIMIT) return undefined;
  const [invoices, lines] = await Promise.all([
    db.invoice.findMany({ where: { id: { in: invoiceIds }, organizationId } }),
    loadCheckLines(db, organizationId, invoiceIds),
  ]);
  return new Map(invoices.map((invoice) => [invoice.id, { ...invoice, lines: lines.get(invoice.id) ?? [] }]));
}

// An invoice's lines as the checkers read them: decimals and dates as text, in one raw statement.
// Through Prisma every value became a Decimal or Date object first (five per line: a quarter of
// a million objects for a 50,000-line invoice, read only to be turned back into strings).
// trim_scale(...)::text is what Decimal#toString gave for these columns (no trailing zeros, never
// an exponent at numeric(20,6)).
async function loadCheckLines(db: Db, organizationId: string, invoiceIds: string[]): Promise<Map<string, CheckLine[]>> {
  const rows = await db.$queryRaw<(CheckLine & { invoiceId: string })[]>`
    SELECT invoice_id::text AS "invoiceId", id::text AS "id", position AS "position", line_number AS "lineNumber",
           description AS "description", seller_item_id AS "sellerItemId", trim_scale(quantity)::text AS "quantity",
           unit_code AS "unitCode", trim_scale(unit_price)::text AS "unitPrice", trim_scale(price_base_quantity)::text AS "priceBaseQuantity",
           trim_scale(net_amount)::text AS "netAmount", to_char(period_start, 'YYYY-MM-DD') AS "periodStart", to_char(period_end, 'YYYY-MM-DD') AS "periodEnd",
           allowance_charges AS "allowanceCharges"
      FROM invoice_lines
     WHERE invoice_id = ANY(${invoiceIds}::uuid[]) AND organization_id = ${organizationId}::uuid
     ORDER BY invoice_id, position`;
  const byInvoice = new Map<string, CheckLine[]>();
  for (const { invoiceId, ...line } of rows) {
    const lines = byInvoice.get(invoiceId);
    if (lines) lines.push(line);
    else byInvoice.set(invoiceId, [line]);
  }
  return byInvoice;
}

async function loadInvoiceWithLines(
  db: Db,
  organizationId: string,
  invoiceId: string,
): Promise<InvoiceWithLines | null> {
  const [invoice, lines] = await Promise.all([
    db.invoice.findFirst({ where: { id: invoiceId, organizationId } }),
    loadCheckLines(db, organizationId, [invoiceId]),
  ]);
  return invoice ? { ...invoice, lines: lines.get(invoiceId) ?? [] } : null;
}

interface AgreementTerms {
  agreement: Agreement;
  priceItems: CheckPriceItem[];
}

export async function loadCheck(
  db: Db,
  organizationId: string,
  invoiceId: string,
  agreementId: string,
  batch?: CheckBatch,
): Promise<LoadedCheck | null> {
  const [invoice, terms] = await Promise.all([
    batch?.invoices?.get(invoiceId) ?? loadInvoiceWithLines(db, organizationId, invoiceId),
    agreementTermsOf(db, organizationId, agreementId, batch),
  ]);
  if (!invoice || !terms) return null;
  const { agreement, priceItems } = terms;
  if (!invoice || !agreement) return null;
  const { lines } = invoice;
  const priceCurrencies = new Set(
    priceItems.map((item) => item.currencyCode).filter((code) => code && code !== invoice.currencyCode),
  );
  const [rates, priorCharges, settings] = await Promise.all([
    priceCurrencies.size > 0 && invoice.issueDate ? loadRates(db, invoice.issueDate) : Promise.resolve([]),
    batch?.priorCharges.get(invoice.id) ?? loadPriorCharges(db, invoice),
    loadSettings(db, organizationId, batch),
  ]);
  const allowanceCharges = (invoice.allowanceCharges as AllowanceCharge[] | null) ?? [];
  return {
    organizationId,
    currencyCode: invoice.currencyCode,
    invoiceVersionAt: invoice.contentChangedAt,
    agreementVersionAt: agreement.termsChangedAt,
    instructions: agreement.instructions,
    lines: lines.map((line) => ({
      id: line.id,
      sellerItemId: line.sellerItemId,
      description: line.description,
      unitPrice: line.unitPrice as string | null,
    })),
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
        orderReference: invoice.orderReference,
        deliveryDate: day(invoice.deliveryDate),
        readFrom: readFromOf(invoice.extraction),
        exchangeRate: invoice.exchangeRate
          ? {
              sourceCurrencyCode: invoice.currencyCode,
              targetCurrencyCode: invoice.taxCurrencyCode,
              rate: invoice.exchangeRate.toString(),
            }
          : null,
        lines,
        extraction: checkExtraction(invoice.extraction),
        allowanceCharges: allowanceCharges.map((ac) => ({
          isCharge: ac.isCharge,
          amount: ac.amount,
          baseAmount: ac.baseAmount,
          reason: ac.reason,
          reasonCode: ac.reasonCode,
        })),
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
      settings,
    },
  };
}

function agreementTermsOf(
  db: Db,
  organizationId: string,
  agreementId: string,
  batch?: CheckBatch,
): Promise<AgreementTerms | null> {
  const cached = batch?.agreements.get(agreementId);
  if (cached) return cached;
  const loading = Promise.all([
    db.agreement.findFirst({ where: { id: agreementId, organizationId } }),
    loadPriceItems(db, organizationId, agreementId),
  ]).then(([agreement, priceItems]) => (agreement ? { agreement, priceItems } : null));
  batch?.agreements.set(agreementId, loading);
  return loading;
}

// An agreement can hold thousands of price items: read as text in one raw query, without
// Prisma's per-row Decimal and Date objects (several times cheaper, docs/benchmarks.md).
function loadPriceItems(db: Db, organizationId: string, agreementId: string): Promise<CheckPriceItem[]> {
  return db.$queryRaw<CheckPriceItem[]>`
    SELECT id::text AS "id", description AS "description", seller_item_id AS "sellerItemId", unit AS "unit",
           currency_code AS "currencyCode", price_type::text AS "priceType", trim_scale(amount)::text AS "amount",
           trim_scale(fraction)::text AS "fraction", basis AS "basis", to_char(valid_from, 'YYYY-MM-DD') AS "validFrom",
           to_char(valid_until, 'YYYY-MM-DD') AS "validUntil", unit_conversions AS "unitConversions", source_document_id::text AS "sourceDocumentId"
      FROM price_items
     WHERE organization_id = ${organizationId}::uuid AND agreement_id = ${agreementId}::uuid
     ORDER BY id`;
}

async function loadRates(db: Db, issueDate: Date) {
  const rows = await db.exchangeRate.findMany({
    where: { date: { gte: shiftDays(issueDate, -RATE_WINDOW_DAYS), lte: issueDate } },
  });
  return rows.map((row) => ({
    source: row.source,
    date: day(row.date)!,
    baseCurrency: row.baseCurrency,
    quoteCurrency: row.quoteCurrency,
    rate: row.rate.toString(),
  }));
}

// The supplier's other invoices' lines for the same items (by seller item id or description),
// leaving out what cannot be a double billing: credit notes, credited invoices, quarantined
// duplicates and deleted invoices. Lines without a period (their own or their invoice's) only
// when issued within DUPLICATE_WINDOW_DAYS: the duplicate checker compares them with nothing
// older, and without this a supplier's frequent invoices fill PRIOR_CHARGE_LIMIT with them.
interface ChargedInvoice {
  id: string;
  supplierId: string | null;
  issueDate: string | null;
  itemIds: string[];
  descriptions: string[];
}

// Looked up once per earlier charge: sets, not arrays (a large invoice has tens of thousands).
interface ChargedItems {
  itemIds: Set<string>;
  descriptions: Set<string>;
}

async function loadPriorCharges(
  db: Db,
  invoice: {
    id: string;
    organizationId: string;
    supplierId: string | null;
    issueDate: Date | null;
    lines: { sellerItemId: string | null; description: string | null }[];
  },
): Promise<PriorCharge[]> {
  const charged: ChargedInvoice = {
    id: invoice.id,
    supplierId: invoice.supplierId,
    issueDate: day(invoice.issueDate),
    itemIds: [...new Set(invoice.lines.map((l) => l.sellerItemId).filter((v): v is string => !!v))],
    descriptions: [...new Set(invoice.lines.map((l) => l.description).filter((v): v is string => !!v))],
  };
  if (!charged.supplierId) return [];
  const rows = await priorChargeRows(db, invoice.organizationId, charged.supplierId, [charged], PRIOR_CHARGE_LIMIT, [
    charged.id,
  ]);
  return rows.filter((row) => comparable(charged, row));
}

// Earlier charges of every invoice of a batch, one statement per supplier (the invoices' keys in
// one more). A supplier whose charges exceed what a batch may hold in memory is read per invoice.
export async function loadBatchPriorCharges(
  db: Db,
  organizationId: string,
  invoiceIds: string[],
): Promise<Map<string, PriorCharge[]>> {
  const invoices = await db.$queryRaw<ChargedInvoice[]>`
    SELECT i.id::text AS "id", i.supplier_id::text AS "supplierId", to_char(i.issue_date, 'YYYY-MM-DD') AS "issueDate",
           ARRAY(SELECT DISTINCT l.seller_item_id FROM invoice_lines l WHERE l.invoice_id = i.id AND l.seller_item_id <> '') AS "itemIds",
           ARRAY(SELECT DISTINCT l.description FROM invoice_lines l WHERE l.invoice_id = i.id AND l.description <> '') AS "descriptions"
      FROM invoices i
     WHERE i.id = ANY(${invoiceIds}::uuid[]) AND i.organization_id = ${organizationId}::uuid`;
  const charges = new Map<string, PriorCharge[]>();
  const bySupplier = new Map<string, ChargedInvoice[]>();
  for (const invoice of invoices) {
    if (!invoice.supplierId) charges.set(invoice.id, []);
    else bySupplier.set(invoice.supplierId, [...(bySupplier.get(invoice.supplierId) ?? []), invoice]);
  }
  for (const [supplierId, group] of bySupplier) {
    const cap = BATCH_PRIOR_CHARGE_LIMIT;
    const rows = await priorChargeRows(db, organizationId, supplierId, group, cap + 1, []);
    // Over the cap, some invoice may miss charges it would have read alone: those read alone.
    if (rows.length > cap) continue;
    // Every invoice of the group looks at every row: the rows' issue days are parsed once, not
    // once per invoice and row (that parsing was the largest part of a batch's reading).
    const rowDays = rows.map((row) => dayNumberOf(row.issueDate));
    for (const invoice of group) {
      const items: ChargedItems = { itemIds: new Set(invoice.itemIds), descriptions: new Set(invoice.descriptions) };
      const invoiceDay = dayNumberOf(invoice.issueDate);
      const kept: PriorCharge[] = [];
      for (let index = 0; index < rows.length && kept.length < PRIOR_CHARGE_LIMIT; index++) {
        const row = rows[index]!;
        if (row.invoiceId !== invoice.id && covers(items, row) && comparableOn(invoiceDay, rowDays[index]!, row))
          kept.push(row);
      }
      charges.set(invoice.id, kept);
    }
  }
  return charges;
}

// At most this many earlier lines are read for the invoices of one supplier in a batch.
const BATCH_PRIOR_CHARGE_LIMIT = 50_000;

const dayNumberOf = (date: string | null): number | null =>
  date === null ? null : Date.parse(`${date}T00:00:00Z`) / 86_400_000;
const within = (a: number | null, b: number | null, days: number) =>
  a !== null && b !== null && Math.abs(a - b) <= days;

// The same item: by seller item id or by description.
function covers(invoice: ChargedItems, charge: PriorCharge): boolean {
  return (
    (charge.sellerItemId !== null && invoice.itemIds.has(charge.sellerItemId)) ||
    (charge.description !== null && invoice.descriptions.has(charge.description))
  );
}

// Within the invoice's window, and either with a period or issued close enough to compare.
function comparable(invoice: ChargedInvoice, charge: PriorCharge): boolean {
  return comparableOn(dayNumberOf(invoice.issueDate), dayNumberOf(charge.issueDate), charge);
}

// The same with both issue dates as day numbers.
function comparableOn(invoiceDay: number | null, chargeDay: number | null, charge: PriorCharge): boolean {
  if (invoiceDay !== null && !within(invoiceDay, chargeDay, PRIOR_CHARGE_WINDOW_DAYS)) return false;
  return (
    charge.periodStart !== null || charge.periodEnd !== null || within(invoiceDay, chargeDay, DUPLICATE_WINDOW_DAYS)
  );
}

// The supplier's charges that may be earlier charges of any of `invoices` (the union of their
// items and windows; `comparable` and `covers` narrow them per invoice), in (invoice, position)
// order, read as text in one indexed statement (the supplier's invoices, then their lines).
function priorChargeRows(
  db: Db,
  organizationId: string,
  supplierId: string,
  invoices: ChargedInvoice[],
  limit: number,
  excluded: string[],
): Promise<PriorCharge[]> {
  const dates = invoices.map((invoice) => invoice.issueDate);
  const windowed = dates.every((date) => date !== null);
  const sorted = dates.filter((date) => date !== null).sort();
  const from = windowed ? shiftDay(sorted[0]!, -PRIOR_CHARGE_WINDOW_DAYS) : null;
  const through = windowed ? shiftDay(sorted[sorted.length - 1]!, PRIOR_CHARGE_WINDOW_DAYS) : null;
  const itemIds = [...new Set(invoices.flatMap((invoice) => invoice.itemIds))];
  const descriptions = [...new Set(invoices.flatMap((invoice) => invoice.descriptions))];
  return db.$queryRaw<PriorCharge[]>`
    SELECT l.invoice_id::text AS "invoiceId", i.invoice_number AS "invoiceNumber", l.id::text AS "lineId",
           l.seller_item_id AS "sellerItemId", l.description AS "description", l.unit_code AS "unitCode",
           to_char(COALESCE(l.period_start, i.invoice_period_start), 'YYYY-MM-DD') AS "periodStart",
           to_char(COALESCE(l.period_end, i.invoice_period_end), 'YYYY-MM-DD') AS "periodEnd",
           trim_scale(l.quantity)::text AS "quantity", trim_scale(l.net_amount)::text AS "netAmount",
           to_char(i.issue_date, 'YYYY-MM-DD') AS "issueDate",
           i.order_reference AS "orderReference", to_char(i.delivery_date, 'YYYY-MM-DD') AS "deliveryDate"
      FROM invoices i
      JOIN invoice_lines l ON l.invoice_id = i.id
     WHERE i.organization_id = ${organizationId}::uuid AND i.supplier_id = ${supplierId}::uuid
       AND i.deleted_at IS NULL AND i.document_type = 'invoice' AND i.duplicate_of_invoice_id IS NULL AND i.processing_status = 'completed'
       AND (${from}::date IS NULL OR i.issue_date BETWEEN ${from}::date AND ${through}::date)
       AND NOT (i.id = ANY(${excluded}::uuid[]))
       AND NOT EXISTS (SELECT 1 FROM invoices c
                        WHERE c.organization_id = i.organization_id AND c.supplier_id = i.supplier_id AND c.document_type = 'credit_note'
                          AND c.deleted_at IS NULL AND c.credited_invoice_id = i.id)
       AND (l.seller_item_id = ANY(${itemIds}::text[]) OR l.description = ANY(${descriptions}::text[]))
       AND (l.period_start IS NOT NULL OR l.period_end IS NOT NULL OR i.invoice_period_start IS NOT NULL OR i.invoice_period_end IS NOT NULL
            OR EXISTS (SELECT 1 FROM unnest(${dates}::date[]) AS d(issued) WHERE i.issue_date BETWEEN d.issued - ${DUPLICATE_WINDOW_DAYS}::int AND d.issued + ${DUPLICATE_WINDOW_DAYS}::int))
     ORDER BY l.invoice_id, l.position
     LIMIT ${limit}::int`;
}

const shiftDay = (date: string, days: number) => day(shiftDays(new Date(`${date}T00:00:00Z`), days))!;

// Anything not read from structured data (a PDF's text layer, OCR) is a reading, not a fact.
function readFromOf(extraction: unknown): 'structured' | 'pdf_text' {
  const method = (extraction as { method?: string } | null)?.method;
  return method === undefined || method === 'structured' ? 'structured' : 'pdf_text';
}
