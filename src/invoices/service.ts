import { randomUUID } from 'node:crypto';
import { changedFields, NothingChanged, orUnchanged, recordActivity, type Actor } from '../activity/record.js';
import type { RequestActor } from '../auth/actor.js';
import type { AppDeps } from '../deps.js';
import type { Invoice } from '../generated/prisma/client.js';
import { jsonColumn, modelAndExtras, Prisma } from '../db/client.js';
import { errors, type FieldIssue } from '../http/errors.js';
import { amountProblems } from './amounts.js';
import {
  findSemanticDuplicate,
  insertInvoiceLines,
  lineRowsOf,
  linkCreditNotes,
  resolveParties,
  totalsProblems,
  writeInvoiceContent,
} from './content.js';
import type { NormalizedInvoice, Party } from './parsing/model.js';
import { normalizeOrgNumber, normalizeVatId } from './parties.js';
import { recordLayoutLesson } from './layout-lessons.js';
import type { CreateInvoiceInput, PatchInvoiceInput } from './input-schemas.js';
import {
  NO_ALERTS,
  serializeIngestionInvoice,
  serializeInvoice,
  type AlertCounts,
  type InvoiceExtras,
  type InvoiceWithLines,
  type LineFields,
} from './serialize.js';
import { toDecimal } from '../shared/money.js';
import { refreshCheckStatus } from './check-status.js';

type Deps = Pick<AppDeps, 'reader' | 'config'>;

// What every invoice read loads with the invoice row: its lines. What the views add (party names,
// active matches, alert counts) comes from invoiceExtras, one statement for a whole page.
export const INVOICE_INCLUDE = {
  lines: { orderBy: { position: 'asc' as const } },
};

export async function findInvoice(
  deps: Pick<AppDeps, 'db'>,
  organizationId: string,
  invoiceId: string,
  options: { includeDeleted?: boolean } = {},
): Promise<InvoiceWithLines> {
  const invoice = await deps.db.invoice.findFirst({
    where: { id: invoiceId, organizationId, ...(options.includeDeleted ? {} : { deletedAt: null }) },
    include: INVOICE_INCLUDE,
  });
  if (!invoice) throw errors.notFound('invoice');
  return invoice;
}

// That an invoice exists for the organization (404 otherwise), without reading its lines: for
// operations on the invoice's relations, where an invoice of 50,000 lines must cost no more than
// one of a few.
export async function findInvoiceId(
  deps: Pick<AppDeps, 'db'>,
  organizationId: string,
  invoiceId: string,
): Promise<{ id: string }> {
  const invoice = await deps.db.invoice.findFirst({
    where: { id: invoiceId, organizationId, deletedAt: null },
    select: { id: true },
  });
  if (!invoice) throw errors.notFound('invoice');
  return invoice;
}

const NO_EXTRAS: InvoiceExtras = { supplierName: null, recipientName: null, matches: 0, counts: NO_ALERTS, lines: [] };

// A page's lines as JSON, decimals as text (a JSON number would lose digits) in line order. Each
// line is a row turned to JSON, keys named by the column aliases: the page statement runs a fifth
// faster than with json_build_object's fourteen arguments per line.
const LINES_JSON = Prisma.sql`
  (SELECT json_agg(to_json(line) ORDER BY l.position)
     FROM invoice_lines l,
          LATERAL (SELECT l.id, l.line_number AS "lineNumber", l.description, l.seller_item_id AS "sellerItemId",
                          l.buyer_item_id AS "buyerItemId", l.quantity::text AS "quantity", l.unit_code AS "unitCode",
                          l.unit_price::text AS "unitPrice", l.price_base_quantity::text AS "priceBaseQuantity",
                          l.net_amount::text AS "netAmount", l.vat_category AS "vatCategory", l.vat_rate::text AS "vatRate",
                          l.period_start AS "periodStart", l.period_end AS "periodEnd", l.allowance_charges AS "allowanceCharges") line
    WHERE l.invoice_id = i.id)`;

type LineJson = Omit<LineFields, 'periodStart' | 'periodEnd'> & {
  periodStart: string | null;
  periodEnd: string | null;
};

const lineFromJson = (line: LineJson): LineFields => ({
  ...line,
  periodStart: line.periodStart === null ? null : new Date(`${line.periodStart}T00:00:00Z`),
  periodEnd: line.periodEnd === null ? null : new Date(`${line.periodEnd}T00:00:00Z`),
});

// The agreements invoice `i` is actively matched to, as an array: PostgreSQL plans it on its own
// (a subplan) instead of joining alerts to matches, which halved the planning of a page of
// invoices (docs/benchmarks.md).
const ACTIVE_AGREEMENTS = Prisma.sql`ARRAY(SELECT m.agreement_id FROM invoice_agreement_matches m WHERE m.invoice_id = i.id AND m.active)`;

// Everything the invoice views show beyond the invoice row, as columns of a statement over
// invoices `i` (each an indexed lookup per invoice: no aggregate over the organization's matches
// or alerts).
// The number of an invoice's lines (an index-only count), for bounding a page by its lines.
const LINE_COUNT = Prisma.sql`(SELECT count(*)::int FROM invoice_lines l WHERE l.invoice_id = i.id)`;

function extraColumns(options: ExtraOptions): Prisma.Sql {
  return Prisma.sql`${options.lineCounts ? Prisma.sql`${LINE_COUNT} AS "lineCount",` : Prisma.empty}
    (SELECT s.name FROM suppliers s WHERE s.id = i.supplier_id) AS "supplierName",
    (SELECT r.name FROM recipients r WHERE r.id = i.recipient_id) AS "recipientName",
    (SELECT count(*)::int FROM invoice_agreement_matches m WHERE m.invoice_id = i.id AND m.active) AS "matches",
    (SELECT json_object_agg(c.status, c.n)
       FROM (SELECT a.status::text AS status, count(*)::int AS n
               FROM alerts a
              WHERE a.invoice_id = i.id AND a.agreement_id = ANY(${ACTIVE_AGREEMENTS})
              GROUP BY a.status) c) AS "counts",
    ${options.lines ? LINES_JSON : Prisma.sql`NULL`} AS "lines"`;
}

// What a statement of invoices reads beside each row: its lines (as JSON), or only their number.
export interface ExtraOptions {
  lines: boolean;
  lineCounts?: boolean;
}

interface ExtraColumns {
  lineCount?: number;
  supplierName: string | null;
  recipientName: string | null;
  matches: number;
  counts: unknown;
  lines: unknown;
}

const EXTRA_COLUMNS: ReadonlySet<string> = new Set([
  'lineCount',
  'supplierName',
  'recipientName',
  'matches',
  'counts',
  'lines',
] satisfies (keyof ExtraColumns)[]);

function extrasOf(row: ExtraColumns): InvoiceExtras {
  const counts = jsonColumn<Partial<AlertCounts>>(row.counts);
  const lines = (jsonColumn<LineJson[]>(row.lines) ?? []).map(lineFromJson);
  return {
    supplierName: row.supplierName,
    recipientName: row.recipientName,
    matches: row.matches,
    counts: { ...NO_ALERTS, ...counts },
    lines,
  };
}

// The extras of invoices already read, for a page of them in one statement.
async function invoiceExtras(
  deps: Pick<AppDeps, 'reader'>,
  organizationId: string,
  invoiceIds: string[],
  options: ExtraOptions,
): Promise<Map<string, InvoiceExtras>> {
  if (invoiceIds.length === 0) return new Map();
  const rows = await deps.reader.$queryRaw<(ExtraColumns & { id: string })[]>`
    SELECT i.id::text AS "id", ${extraColumns(options)}
      FROM invoices i
     WHERE i.id = ANY(${invoiceIds}::uuid[]) AND i.organization_id = ${organizationId}::uuid`;
  return new Map(rows.map((row) => [row.id, extrasOf(row)]));
}

// lineCount: the number of its lines when the statement counted them (ExtraOptions.lineCounts).
export type InvoiceWithExtras = Invoice & { extras: InvoiceExtras; lineCount: number | null };

// Invoices with their extras in one statement: those of `where` (SQL over invoices `i`), in
// `orderBy`, at most `limit` (a list page; lines, or their number, only when asked).
export async function readInvoicesWithExtras(
  deps: Pick<AppDeps, 'reader'>,
  where: Prisma.Sql,
  orderBy: Prisma.Sql,
  limit: number,
  options: ExtraOptions,
): Promise<InvoiceWithExtras[]> {
  const rows = await deps.reader.$queryRaw<Record<string, unknown>[]>`
    SELECT i.*, ${extraColumns(options)}
      FROM (SELECT * FROM invoices i WHERE ${where} ORDER BY ${orderBy} LIMIT ${limit}) i
     ORDER BY ${orderBy}`;
  return rows.map((row) => {
    const [invoice, extras] = modelAndExtras<InvoiceWithExtras, ExtraColumns>(row, EXTRA_COLUMNS);
    // Prisma reads a NULL list as an empty one.
    invoice.notes ??= [];
    invoice.attachmentDocumentIds ??= [];
    invoice.extras = extrasOf(extras);
    invoice.lineCount = extras.lineCount ?? null;
    return invoice;
  });
}

// The lines of invoices already read (a list page bounded by its lines), in one statement.
export async function readInvoiceLines(
  deps: Pick<AppDeps, 'reader'>,
  organizationId: string,
  invoiceIds: string[],
): Promise<Map<string, LineFields[]>> {
  if (invoiceIds.length === 0) return new Map();
  const rows = await deps.reader.$queryRaw<{ id: string; lines: unknown }[]>`
    SELECT i.id::text AS "id", ${LINES_JSON} AS "lines"
      FROM invoices i
     WHERE i.id = ANY(${invoiceIds}::uuid[]) AND i.organization_id = ${organizationId}::uuid`;
  return new Map(rows.map((row) => [row.id, (jsonColumn<LineJson[]>(row.lines) ?? []).map(lineFromJson)]));
}

// The Ingestion shape without lines: what polling clients read, so it is kept cheap.
export async function findIngestionInvoice(deps: Pick<AppDeps, 'db'>, organizationId: string, invoiceId: string) {
  const invoice = await deps.db.invoice.findFirst({ where: { id: invoiceId, organizationId, deletedAt: null } });
  if (!invoice) throw errors.notFound('invoice');
  return invoice;
}

export async function viewIngestionInvoices(deps: Deps, invoices: Invoice[]) {
  const extras = await invoiceExtras(
    deps,
    invoices[0]?.organizationId ?? '',
    invoices.map((invoice) => invoice.id),
    { lines: false },
  );
  return invoices.map((invoice) =>
    serializeIngestionInvoice(invoice, extras.get(invoice.id) ?? NO_EXTRAS, deps.config.APP_BASE_URL),
  );
}

export async function viewInvoices(deps: Deps, invoices: InvoiceWithLines[]) {
  const extras = await invoiceExtras(
    deps,
    invoices[0]?.organizationId ?? '',
    invoices.map((invoice) => invoice.id),
    { lines: false },
  );
  return invoices.map((invoice) =>
    serializeInvoice(
      invoice,
      { ...(extras.get(invoice.id) ?? NO_EXTRAS), lines: invoice.lines },
      deps.config.APP_BASE_URL,
    ),
  );
}

// A list page's invoice in either shape, read with its extras (readInvoicesWithExtras).
export const listView = (deps: Deps, invoice: InvoiceWithExtras) =>
  serializeInvoice(invoice, invoice.extras, deps.config.APP_BASE_URL);
export const ingestionView = (deps: Deps, invoice: InvoiceWithExtras) =>
  serializeIngestionInvoice(invoice, invoice.extras, deps.config.APP_BASE_URL);

export async function viewInvoice(deps: Deps, invoice: InvoiceWithLines) {
  return (await viewInvoices(deps, [invoice]))[0]!;
}

const percentFromFraction = (fraction: string | undefined) =>
  fraction === undefined ? null : toDecimal(fraction).times(100).toFixed();

function partyFromInput(input: CreateInvoiceInput['supplier'] | undefined): Party {
  return {
    name: input?.name ?? null,
    legalName: null,
    orgNumber: input?.org_number ?? null,
    vatId: input?.vat_id ?? null,
    countryCode: input?.country_code ?? null,
    address: null,
  };
}

function linesFromInput(lines: NonNullable<PatchInvoiceInput['line_items']>): NormalizedInvoice['lines'] {
  return lines.map((line) => ({
    id: line.line_number ?? null,
    description: line.description ?? null,
    sellerItemId: line.seller_item_id ?? null,
    buyerItemId: line.buyer_item_id ?? null,
    standardItemId: null,
    quantity: line.quantity ?? null,
    unitCode: line.unit_code ?? null,
    unitPrice: line.unit_price ?? null,
    priceBaseQuantity: line.price_base_quantity ?? null,
    netAmount: line.net_amount ?? null,
    vatCategory: line.vat_category ?? null,
    vatPercent: percentFromFraction(line.vat_rate),
    period:
      line.period_start || line.period_end ? { start: line.period_start ?? null, end: line.period_end ?? null } : null,
    // A line sent without allowance_charges has none.
    allowanceCharges: (line.allowance_charges ?? []).map((ac) => ({
      isCharge: ac.is_charge,
      amount: ac.amount,
      baseAmount: ac.base_amount ?? null,
      reason: ac.reason ?? null,
      reasonCode: ac.reason_code ?? null,
      vatCategory: null,
      vatPercent: null,
    })),
  }));
}

// An invoice sent as data becomes the same normalized invoice a parsed file does.
export function normalizedFromInput(input: CreateInvoiceInput): NormalizedInvoice {
  const allowances = input.allowance_charges.filter((ac) => !ac.is_charge);
  const charges = input.allowance_charges.filter((ac) => ac.is_charge);
  const total = (entries: { amount: string }[]) =>
    entries.length ? entries.reduce((s, e) => s.plus(e.amount), toDecimal(0)).toFixed() : null;
  const lines = linesFromInput(input.line_items);
  return {
    documentType: input.document_type,
    typeCode: input.document_type === 'credit_note' ? '381' : '380',
    invoiceNumber: input.invoice_number,
    issueDate: input.issue_date,
    dueDate: input.due_date ?? null,
    currencyCode: input.currency_code,
    taxCurrencyCode: null,
    exchangeRate: input.exchange_rate
      ? { sourceCurrencyCode: input.currency_code, targetCurrencyCode: null, rate: input.exchange_rate }
      : null,
    supplier: partyFromInput(input.supplier),
    recipient: partyFromInput(input.recipient),
    buyerReference: input.buyer_reference ?? null,
    orderReference: input.order_reference ?? null,
    contractReference: input.contract_reference ?? null,
    creditedInvoiceReference: input.credited_invoice_number ?? null,
    deliveryAddress: null,
    deliveryCountryCode: input.delivery_country_code ?? null,
    deliveryDate: null,
    invoicePeriod: input.invoice_period ? { start: input.invoice_period.start, end: input.invoice_period.end } : null,
    lines,
    allowanceCharges: input.allowance_charges.map((ac) => ({
      isCharge: ac.is_charge,
      amount: ac.amount,
      baseAmount: null,
      reason: ac.reason ?? null,
      reasonCode: ac.reason_code ?? null,
      vatCategory: ac.vat_category ?? null,
      vatPercent: percentFromFraction(ac.vat_rate),
    })),
    vatBreakdown: [],
    totals: {
      lineExtension: lines.reduce((s, l) => s.plus(l.netAmount!), toDecimal(0)).toFixed(),
      taxExclusive: input.amounts.excluding_vat ?? null,
      taxInclusive: input.amounts.including_vat,
      allowanceTotal: total(allowances),
      chargeTotal: total(charges),
      prepaid: input.amounts.prepaid ?? null,
      payableRounding: input.amounts.rounding ?? null,
      payable: input.amounts.payable ?? null,
      vatTotal: input.amounts.vat ?? null,
      vatTotalInTaxCurrency: null,
    },
    notes: [],
    extraction: { method: 'structured', linesReliable: true, missing: [] },
  };
}

function problemsOf(invoice: NormalizedInvoice): FieldIssue[] {
  const lineProblems: FieldIssue[] = invoice.lines.flatMap((line, index) => {
    // Line allowances and charges (BG-27/BG-28) are in the net amount.
    const adjustments = line.allowanceCharges.reduce(
      (sum, ac) => (ac.isCharge ? sum.plus(ac.amount ?? 0) : sum.minus(ac.amount ?? 0)),
      toDecimal(0),
    );
    const expected = toDecimal(line.quantity!)
      .times(line.unitPrice!)
      .dividedBy(line.priceBaseQuantity ?? 1)
      .plus(adjustments);
    const formula = adjustments.isZero()
      ? 'quantity x unit_price'
      : 'quantity x unit_price - line allowances + line charges';
    return expected.minus(line.netAmount!).abs().greaterThanOrEqualTo('0.01')
      ? [
          {
            field: `line_items.${index}.net_amount`,
            message: `${formula} is ${expected.toFixed(2)}, not ${line.netAmount}`,
          },
        ]
      : [];
  });
  const totalProblems = totalsProblems(invoice).map((p) => ({
    field: 'amounts',
    message: `${p.rule}: expected ${p.expected}, got ${p.actual}`,
  }));
  return [...lineProblems, ...totalProblems];
}

async function existingWithNumber(tx: Prisma.TransactionClient, organizationId: string, invoice: NormalizedInvoice) {
  const orgNumber = normalizeOrgNumber(invoice.supplier.orgNumber);
  const vatId = normalizeVatId(invoice.supplier.vatId);
  const supplierWhere = orgNumber ? { orgNumber } : vatId ? { vatId } : { name: invoice.supplier.name! };
  return tx.invoice.findFirst({
    where: {
      organizationId,
      deletedAt: null,
      invoiceNumber: invoice.invoiceNumber,
      documentType: invoice.documentType,
      supplierId: {
        in: (await tx.supplier.findMany({ where: { organizationId, ...supplierWhere }, select: { id: true } })).map(
          (s) => s.id,
        ),
      },
    },
    select: { id: true },
  });
}

// POST /v1/invoices: the lines must add up to the totals, or nothing is created.
export async function createInvoiceFromData(
  deps: Pick<AppDeps, 'db'>,
  organizationId: string,
  actor: RequestActor | Actor,
  input: CreateInvoiceInput,
): Promise<string> {
  const invoice = normalizedFromInput(input);
  const problems = problemsOf(invoice);
  if (problems.length > 0)
    throw errors.validation('The line items do not add up to the totals; nothing was created.', problems);
  const parties = await resolveParties(deps.db, organizationId, invoice);
  return deps.db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`invoice-number:${organizationId}:${invoice.invoiceNumber}`}))`;
    const existing = await existingWithNumber(tx, organizationId, invoice);
    if (existing) {
      throw errors.conflict('conflict', `Invoice ${invoice.invoiceNumber} of this supplier already exists.`, {
        existing_invoice_id: existing.id,
      });
    }
    const id = randomUUID();
    // Without its original document an invoice is never eligible for a check (interface spec).
    await tx.invoice.create({
      data: {
        id,
        organizationId,
        source: 'api',
        processingStatus: 'completed',
        alertCheckStatus: 'skipped',
        alertCheckSkipReason: 'no_original_document',
      },
    });
    await writeInvoiceContent(tx, { invoiceId: id, organizationId, invoice, format: 'json', parties });
    await tx.invoice.update({
      where: { id },
      data: { duplicateOfInvoiceId: await findSemanticDuplicate(tx, id, organizationId) },
    });
    await linkCreditNotes(tx, id, organizationId);
    await recordActivity(tx, organizationId, actor, [
      {
        entityType: 'invoice',
        entityId: id,
        action: 'created',
        changes: {
          source: { before: null, after: 'api' },
          invoice_number: { before: null, after: invoice.invoiceNumber },
        },
      },
    ]);
    return id;
  });
}

const dateOrNull = (value: string | null | undefined) => (value ? new Date(`${value}T00:00:00Z`) : null);

// The fields a PATCH can change, as the API shows them (lines without their ids, which a
// replaced list renews): what the invoice's activity entries compare.
const PATCHED_FIELDS = [
  'invoice_number',
  'issue_date',
  'due_date',
  'buyer_reference',
  'order_reference',
  'contract_reference',
  'delivery_country_code',
  'amounts',
  'line_items',
] as const;

function patchedView(invoice: InvoiceWithLines): Record<string, unknown> {
  const view = serializeInvoice(
    invoice,
    { supplierName: null, recipientName: null, matches: 0, counts: NO_ALERTS, lines: invoice.lines },
    '',
  );
  return {
    ...view,
    delivery_country_code: view.delivery.country_code,
    line_items: view.line_items.map(({ id: _id, source: _source, ...line }) => line),
  };
}

// PATCH: only sent fields change; line_items replaces the list; checks are not re-run, but the
// change marks earlier checks outdated (contentChangedAt).
export async function patchInvoice(
  deps: Pick<AppDeps, 'db'>,
  actor: RequestActor | Actor,
  invoice: InvoiceWithLines,
  input: PatchInvoiceInput,
): Promise<void> {
  if (invoice.processingStatus !== 'completed') {
    throw errors.conflict(
      'invoice_not_processed',
      'The invoice is not processed yet (or could not be); it cannot be edited.',
    );
  }
  const data: Prisma.InvoiceUpdateInput = { contentChangedAt: new Date() };
  if (input.invoice_number !== undefined) data.invoiceNumber = input.invoice_number;
  if (input.issue_date !== undefined) data.issueDate = dateOrNull(input.issue_date);
  if (input.due_date !== undefined) data.dueDate = dateOrNull(input.due_date);
  if (input.buyer_reference !== undefined) data.buyerReference = input.buyer_reference;
  if (input.order_reference !== undefined) data.orderReference = input.order_reference;
  if (input.contract_reference !== undefined) data.contractReference = input.contract_reference;
  if (input.delivery_country_code !== undefined) data.deliveryCountryCode = input.delivery_country_code;
  const amounts: Partial<NonNullable<PatchInvoiceInput['amounts']>> = input.amounts ?? {};
  // null (unknown, as a read shows it) clears the amount.
  const decimal = (v: string | null | undefined, current: Prisma.Decimal | null) =>
    v === undefined ? current : v === null ? null : new Prisma.Decimal(v);
  const next = {
    taxExclusive: decimal(amounts.excluding_vat, invoice.taxExclusiveAmount),
    vat: decimal(amounts.vat, invoice.vatAmount),
    taxInclusive: decimal(amounts.including_vat, invoice.taxInclusiveAmount),
    prepaid: decimal(amounts.prepaid, invoice.prepaidAmount),
    rounding: decimal(amounts.rounding, invoice.roundingAmount),
    payable: decimal(amounts.payable, invoice.payableAmount),
  };
  Object.assign(data, {
    taxExclusiveAmount: next.taxExclusive,
    vatAmount: next.vat,
    taxInclusiveAmount: next.taxInclusive,
    prepaidAmount: next.prepaid,
    roundingAmount: next.rounding,
    payableAmount: next.payable,
  });
  const lines = input.line_items
    ? linesFromInput(input.line_items)
    : invoice.lines.map((l) => ({ netAmount: l.netAmount?.toString() ?? null }));
  const lineExtension = input.line_items
    ? lines.reduce((s, l) => s.plus(l.netAmount ?? 0), toDecimal(0))
    : invoice.lineExtensionAmount;
  if (input.line_items) data.lineExtensionAmount = new Prisma.Decimal(lineExtension!.toString());
  data.amountsValid =
    amountProblems({
      lines,
      lineExtension: lineExtension ?? null,
      allowanceTotal: invoice.allowanceTotal,
      chargeTotal: invoice.chargeTotal,
      taxExclusive: next.taxExclusive,
      vatTotal: next.vat,
      taxInclusive: next.taxInclusive,
      prepaid: next.prepaid,
      rounding: next.rounding,
      payable: next.payable,
    }).length === 0;
  // A PATCH that changes nothing is undone, so the invoice's updated_at and checks stay as they were.
  const patched = deps.db.$transaction(async (tx) => {
    await tx.invoice.update({ where: { id: invoice.id }, data });
    if (input.line_items) {
      await tx.invoiceLine.deleteMany({ where: { invoiceId: invoice.id } });
      await insertInvoiceLines(tx, lineRowsOf(linesFromInput(input.line_items), invoice.id, invoice.organizationId));
    }
    const saved = await tx.invoice.findUniqueOrThrow({ where: { id: invoice.id }, include: INVOICE_INCLUDE });
    const changes = changedFields(patchedView(invoice), patchedView(saved), PATCHED_FIELDS);
    if (Object.keys(changes).length === 0) throw new NothingChanged();
    // A correction of what was read from a PDF teaches the supplier's layout (layout-lessons.ts).
    await recordLayoutLesson(tx, invoice, saved, Object.keys(changes));
    // A person's correction is the review the layout reader asked for: the invoice leaves the
    // review queue (GET /v1/invoices?needs_review=true); the reasons stay for the record.
    const reviewed = reviewedExtraction(invoice.extraction, input.line_items?.length ?? null, invoice.lines.length);
    if (reviewed) await tx.invoice.update({ where: { id: invoice.id }, data: { extraction: reviewed } });
    await refreshCheckStatus(tx, { invoiceIds: [invoice.id] });
    await recordActivity(tx, invoice.organizationId, actor, [
      { entityType: 'invoice', entityId: invoice.id, action: 'updated', changes },
    ]);
  });
  await orUnchanged(patched, () => undefined);
}

// A person's confirmation that an uncertain reading is right, with nothing to correct
// (POST /v1/invoices/{id}/confirm-reading, the review page's Save of unchanged values): the
// invoice leaves the review queue, recorded as `review_confirmed`. Said explicitly, never
// implied by a PATCH that changes nothing: a client writing back what it read must not clear a
// review it never made. An invoice not in the queue is left as it is.
export async function confirmReading(
  deps: Pick<AppDeps, 'db'>,
  actor: RequestActor | Actor,
  invoice: InvoiceWithLines,
): Promise<void> {
  const reviewed = reviewedExtraction(invoice.extraction, null, invoice.lines.length);
  if (!reviewed || reviewed.needsReview !== false) return;
  await deps.db.$transaction(async (tx) => {
    await tx.invoice.update({ where: { id: invoice.id }, data: { extraction: reviewed } });
    await recordActivity(tx, invoice.organizationId, actor, [
      {
        entityType: 'invoice',
        entityId: invoice.id,
        action: 'review_confirmed',
        changes: { needs_review: { before: true, after: false } },
      },
    ]);
  });
}

// A correction that adds or removes lines leaves no line at its document row: the rows' boxes
// (lineSources) are dropped then.
function reviewedExtraction(
  extraction: Prisma.JsonValue | null,
  lineCount: number | null,
  previousLineCount: number,
): Prisma.InputJsonObject | null {
  if (typeof extraction !== 'object' || extraction === null || Array.isArray(extraction)) return null;
  const { lineSources, ...rest } = extraction as Prisma.InputJsonObject;
  const kept = lineCount === null || lineCount === previousLineCount ? { lineSources } : {};
  if (extraction.needsReview !== true) return lineSources !== undefined && !('lineSources' in kept) ? rest : null;
  return { ...rest, ...kept, needsReview: false, reviewedAt: new Date().toISOString() };
}

// Soft delete keeps the record (and its file's fingerprint, which blocks re-uploads); permanent
// removal deletes the invoice, its imports and its files.
export async function deleteInvoice(
  deps: Pick<AppDeps, 'db' | 'storage'>,
  actor: RequestActor | Actor,
  invoice: InvoiceWithLines,
  permanent: boolean,
): Promise<void> {
  const deleted = (tx: Prisma.TransactionClient, action: string) =>
    recordActivity(tx, invoice.organizationId, actor, [
      {
        entityType: 'invoice',
        entityId: invoice.id,
        action,
        changes: changedFields(patchedView(invoice), {}, ['invoice_number', 'amounts']),
      },
    ]);
  if (!permanent) {
    if (!invoice.deletedAt) {
      await deps.db.$transaction(async (tx) => {
        await tx.invoice.update({ where: { id: invoice.id }, data: { deletedAt: new Date() } });
        await deleted(tx, 'deleted');
      });
    }
    return;
  }
  const documentIds = [invoice.primaryDocumentId, ...invoice.attachmentDocumentIds].filter(
    (id): id is string => id !== null,
  );
  const documents = await deps.db.document.findMany({
    where: { id: { in: documentIds }, organizationId: invoice.organizationId },
  });
  await deps.db.$transaction(async (tx) => {
    await tx.invoiceImport.updateMany({ where: { invoiceId: invoice.id }, data: { invoiceId: null } });
    await tx.invoice.updateMany({ where: { duplicateOfInvoiceId: invoice.id }, data: { duplicateOfInvoiceId: null } });
    await tx.invoice.updateMany({ where: { creditedInvoiceId: invoice.id }, data: { creditedInvoiceId: null } });
    await tx.invoice.delete({ where: { id: invoice.id } });
    await tx.document.deleteMany({ where: { id: { in: documents.map((d) => d.id) } } });
    await deleted(tx, 'deleted_permanently');
  });
  for (const document of documents) await deps.storage.remove(document.storageKey).catch(() => undefined);
}
