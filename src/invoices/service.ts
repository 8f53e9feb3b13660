import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../deps.js';
import type { Invoice } from '../generated/prisma/client.js';
import { Prisma } from '../db/client.js';
import { errors, type FieldIssue } from '../http/errors.js';
import { amountProblems } from './amounts.js';
import { findSemanticDuplicate, insertInvoiceLines, lineRowsOf, linkCreditNotes, resolveParties, totalsProblems, writeInvoiceContent } from './content.js';
import type { NormalizedInvoice, Party } from './parsing/model.js';
import { normalizeOrgNumber, normalizeVatId } from './parties.js';
import type { CreateInvoiceInput, PatchInvoiceInput } from './schemas.js';
import { NO_ALERTS, serializeIngestionInvoice, serializeInvoice, type AlertCounts, type InvoiceWithLines } from './serialize.js';
import { toDecimal } from '../shared/money.js';
import { refreshCheckStatus } from '../checks/check-status.js';

type Deps = Pick<AppDeps, 'db' | 'config'>;

// What every invoice read loads: its lines, and how many agreements it is matched to.
export const INVOICE_INCLUDE = {
  lines: { orderBy: { position: 'asc' as const } },
  _count: { select: { matches: { where: { active: true } } } },
};

export async function findInvoice(deps: Pick<AppDeps, 'db'>, organizationId: string, invoiceId: string, options: { includeDeleted?: boolean } = {}): Promise<InvoiceWithLines> {
  const invoice = await deps.db.invoice.findFirst({
    where: { id: invoiceId, organizationId, ...(options.includeDeleted ? {} : { deletedAt: null }) },
    include: INVOICE_INCLUDE,
  });
  if (!invoice) throw errors.notFound('invoice');
  return invoice;
}

// Alert counts per status of each invoice, leaving out alerts set aside (their match ended).
export async function alertCountsOf(deps: Pick<AppDeps, 'db'>, invoiceIds: string[]): Promise<Map<string, AlertCounts>> {
  const groups = await deps.db.alert.groupBy({
    by: ['invoiceId', 'status'],
    where: { invoiceId: { in: invoiceIds }, match: { active: true } },
    _count: { _all: true },
  });
  const counts = new Map<string, AlertCounts>();
  for (const group of groups) {
    const current = counts.get(group.invoiceId) ?? { ...NO_ALERTS };
    current[group.status] = group._count._all;
    counts.set(group.invoiceId, current);
  }
  return counts;
}

// The Ingestion shape without lines: what polling clients read, so it is kept cheap.
export async function findIngestionInvoice(deps: Pick<AppDeps, 'db'>, organizationId: string, invoiceId: string) {
  const invoice = await deps.db.invoice.findFirst({ where: { id: invoiceId, organizationId, deletedAt: null }, include: { _count: INVOICE_INCLUDE._count } });
  if (!invoice) throw errors.notFound('invoice');
  return invoice;
}

export async function viewIngestionInvoices(deps: Deps, invoices: (Invoice & { _count?: { matches: number } })[]) {
  // Alerts show only while their match is active: an invoice without one has none to count.
  const matched = invoices.filter((invoice) => (invoice._count?.matches ?? 0) > 0);
  const counts = matched.length > 0 ? await alertCountsOf(deps, matched.map((invoice) => invoice.id)) : new Map<string, AlertCounts>();
  return invoices.map((invoice) => serializeIngestionInvoice(invoice, deps.config.APP_BASE_URL, counts.get(invoice.id) ?? NO_ALERTS));
}

export async function viewInvoices(deps: Deps, invoices: InvoiceWithLines[]) {
  const counts = await alertCountsOf(deps, invoices.map((invoice) => invoice.id));
  const supplierIds = invoices.map((i) => i.supplierId).filter((id): id is string => id !== null);
  const recipientIds = invoices.map((i) => i.recipientId).filter((id): id is string => id !== null);
  const [suppliers, recipients] = await Promise.all([
    deps.db.supplier.findMany({ where: { id: { in: supplierIds } }, select: { id: true, name: true } }),
    deps.db.recipient.findMany({ where: { id: { in: recipientIds } }, select: { id: true, name: true } }),
  ]);
  const nameOf = (rows: { id: string; name: string }[], id: string | null) => rows.find((r) => r.id === id)?.name ?? null;
  return invoices.map((invoice) =>
    serializeInvoice(invoice, {
      supplierName: nameOf(suppliers, invoice.supplierId),
      recipientName: nameOf(recipients, invoice.recipientId),
      appBaseUrl: deps.config.APP_BASE_URL,
    }, counts.get(invoice.id) ?? NO_ALERTS),
  );
}

export async function viewInvoice(deps: Deps, invoice: InvoiceWithLines) {
  return (await viewInvoices(deps, [invoice]))[0]!;
}

const percentFromFraction = (fraction: string | undefined) => (fraction === undefined ? null : toDecimal(fraction).times(100).toFixed());

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
    quantity: line.quantity,
    unitCode: line.unit_code ?? null,
    unitPrice: line.unit_price,
    priceBaseQuantity: line.price_base_quantity ?? null,
    netAmount: line.net_amount,
    vatCategory: line.vat_category ?? null,
    vatPercent: percentFromFraction(line.vat_rate),
    period: line.period_start || line.period_end ? { start: line.period_start ?? null, end: line.period_end ?? null } : null,
    allowanceCharges: [],
  }));
}

// An invoice sent as data becomes the same normalized invoice a parsed file does.
export function normalizedFromInput(input: CreateInvoiceInput): NormalizedInvoice {
  const allowances = input.allowance_charges.filter((ac) => !ac.is_charge);
  const charges = input.allowance_charges.filter((ac) => ac.is_charge);
  const total = (entries: { amount: string }[]) => (entries.length ? entries.reduce((s, e) => s.plus(e.amount), toDecimal(0)).toFixed() : null);
  const lines = linesFromInput(input.line_items);
  return {
    documentType: input.document_type,
    typeCode: input.document_type === 'credit_note' ? '381' : '380',
    invoiceNumber: input.invoice_number,
    issueDate: input.issue_date,
    dueDate: input.due_date ?? null,
    currencyCode: input.currency_code,
    taxCurrencyCode: null,
    exchangeRate: input.exchange_rate ? { sourceCurrencyCode: input.currency_code, targetCurrencyCode: null, rate: input.exchange_rate } : null,
    supplier: partyFromInput(input.supplier),
    recipient: partyFromInput(input.recipient),
    buyerReference: input.buyer_reference ?? null,
    orderReference: input.order_reference ?? null,
    contractReference: input.contract_reference ?? null,
    creditedInvoiceReference: input.credited_invoice_number ?? null,
    deliveryAddress: null,
    deliveryCountryCode: input.delivery_country_code ?? null,
    deliveryDate: null,
    invoicePeriod: null,
    lines,
    allowanceCharges: input.allowance_charges.map((ac) => ({
      isCharge: ac.is_charge,
      amount: ac.amount,
      baseAmount: null,
      reason: ac.reason ?? null,
      reasonCode: null,
      vatCategory: null,
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
    const expected = toDecimal(line.quantity!).times(line.unitPrice!).dividedBy(line.priceBaseQuantity ?? 1);
    return expected.minus(line.netAmount!).abs().greaterThanOrEqualTo('0.01')
      ? [{ field: `line_items.${index}.net_amount`, message: `quantity x unit_price is ${expected.toFixed(2)}, not ${line.netAmount}` }]
      : [];
  });
  const totalProblems = totalsProblems(invoice).map((p) => ({ field: 'amounts', message: `${p.rule}: expected ${p.expected}, got ${p.actual}` }));
  return [...lineProblems, ...totalProblems];
}

async function existingWithNumber(tx: Prisma.TransactionClient, organizationId: string, invoice: NormalizedInvoice) {
  const orgNumber = normalizeOrgNumber(invoice.supplier.orgNumber);
  const vatId = normalizeVatId(invoice.supplier.vatId);
  const supplierWhere = orgNumber ? { orgNumber } : vatId ? { vatId } : { name: invoice.supplier.name! };
  return tx.invoice.findFirst({
    where: { organizationId, deletedAt: null, invoiceNumber: invoice.invoiceNumber, documentType: invoice.documentType, supplierId: { in: (await tx.supplier.findMany({ where: { organizationId, ...supplierWhere }, select: { id: true } })).map((s) => s.id) } },
    select: { id: true },
  });
}

// POST /v1/invoices: the lines must add up to the totals, or nothing is created.
export async function createInvoiceFromData(deps: Pick<AppDeps, 'db'>, organizationId: string, input: CreateInvoiceInput): Promise<string> {
  const invoice = normalizedFromInput(input);
  const problems = problemsOf(invoice);
  if (problems.length > 0) throw errors.validation('The line items do not add up to the totals; nothing was created.', problems);
  const parties = await resolveParties(deps.db, organizationId, invoice);
  return deps.db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`invoice-number:${organizationId}:${invoice.invoiceNumber}`}))`;
    const existing = await existingWithNumber(tx, organizationId, invoice);
    if (existing) {
      throw errors.conflict('conflict', `Invoice ${invoice.invoiceNumber} of this supplier already exists.`, { existing_invoice_id: existing.id });
    }
    const id = randomUUID();
    // Without its original document an invoice is never eligible for a check (interface spec).
    await tx.invoice.create({ data: { id, organizationId, source: 'api', processingStatus: 'completed', alertCheckStatus: 'skipped', alertCheckSkipReason: 'no_original_document' } });
    await writeInvoiceContent(tx, { invoiceId: id, organizationId, invoice, format: 'json', parties });
    await tx.invoice.update({ where: { id }, data: { duplicateOfInvoiceId: await findSemanticDuplicate(tx, id, organizationId) } });
    await linkCreditNotes(tx, id, organizationId);
    return id;
  });
}

const dateOrNull = (value: string | null | undefined) => (value ? new Date(`${value}T00:00:00Z`) : null);

// PATCH: only sent fields change; line_items replaces the list; checks are not re-run, but the
// change marks earlier checks outdated (contentChangedAt).
export async function patchInvoice(deps: Pick<AppDeps, 'db'>, invoice: InvoiceWithLines, input: PatchInvoiceInput): Promise<void> {
  if (invoice.processingStatus !== 'completed') {
    throw errors.conflict('invoice_not_processed', 'The invoice is not processed yet (or could not be); it cannot be edited.');
  }
  const data: Prisma.InvoiceUpdateInput = { contentChangedAt: new Date() };
  if (input.invoice_number !== undefined) data.invoiceNumber = input.invoice_number;
  if (input.issue_date !== undefined) data.issueDate = dateOrNull(input.issue_date);
  if (input.due_date !== undefined) data.dueDate = dateOrNull(input.due_date);
  if (input.buyer_reference !== undefined) data.buyerReference = input.buyer_reference;
  if (input.order_reference !== undefined) data.orderReference = input.order_reference;
  if (input.contract_reference !== undefined) data.contractReference = input.contract_reference;
  if (input.delivery_country_code !== undefined) data.deliveryCountryCode = input.delivery_country_code;
  const amounts = input.amounts ?? {};
  const decimal = (v: string | undefined, current: Prisma.Decimal | null) => (v === undefined ? current : new Prisma.Decimal(v));
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
  const lines = input.line_items ? linesFromInput(input.line_items) : invoice.lines.map((l) => ({ netAmount: l.netAmount?.toString() ?? null }));
  const lineExtension = input.line_items ? lines.reduce((s, l) => s.plus(l.netAmount ?? 0), toDecimal(0)) : invoice.lineExtensionAmount;
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
  await deps.db.$transaction(async (tx) => {
    await tx.invoice.update({ where: { id: invoice.id }, data });
    await refreshCheckStatus(tx, { invoiceIds: [invoice.id] });
    if (input.line_items) {
      await tx.invoiceLine.deleteMany({ where: { invoiceId: invoice.id } });
      await insertInvoiceLines(tx, lineRowsOf(linesFromInput(input.line_items), invoice.id, invoice.organizationId));
    }
  });
}

// Soft delete keeps the record (and its file's fingerprint, which blocks re-uploads); permanent
// removal deletes the invoice, its imports and its files.
export async function deleteInvoice(deps: Pick<AppDeps, 'db' | 'storage'>, invoice: InvoiceWithLines, permanent: boolean): Promise<void> {
  if (!permanent) {
    if (!invoice.deletedAt) await deps.db.invoice.update({ where: { id: invoice.id }, data: { deletedAt: new Date() } });
    return;
  }
  const documentIds = [invoice.primaryDocumentId, ...invoice.attachmentDocumentIds].filter((id): id is string => id !== null);
  const documents = await deps.db.document.findMany({ where: { id: { in: documentIds }, organizationId: invoice.organizationId } });
  await deps.db.$transaction([
    deps.db.invoiceImport.updateMany({ where: { invoiceId: invoice.id }, data: { invoiceId: null } }),
    deps.db.invoice.updateMany({ where: { duplicateOfInvoiceId: invoice.id }, data: { duplicateOfInvoiceId: null } }),
    deps.db.invoice.updateMany({ where: { creditedInvoiceId: invoice.id }, data: { creditedInvoiceId: null } }),
    deps.db.invoice.delete({ where: { id: invoice.id } }),
    deps.db.document.deleteMany({ where: { id: { in: documents.map((d) => d.id) } } }),
  ]);
  for (const document of documents) await deps.storage.remove(document.storageKey).catch(() => undefined);
}
