import type { Invoice, InvoiceLine } from '../generated/prisma/client.js';
import { formatAmount, formatDecimal, toDecimal, type DecimalLike } from '../shared/money.js';
import type { AllowanceCharge, ExtractionInfo, Party, ValueSource } from './parsing/model.js';

// The two shapes of an invoice: the Organization API's (personal API keys) and the Ingestion
// API's (ingestion tokens). Both are built from the same record and the same check state.

export type InvoiceWithLines = Invoice & { lines: InvoiceLine[] };

// What a line's representation reads: a line as Prisma reads it, or as a list page reads it in one
// statement with its invoice's extras (decimals as text).
type LineDecimals = 'quantity' | 'unitPrice' | 'priceBaseQuantity' | 'netAmount' | 'vatRate';
export type LineFields = Omit<InvoiceLine, LineDecimals | 'invoiceId' | 'organizationId' | 'position'> &
  Record<LineDecimals, DecimalLike | null>;

const day = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : null);

// What the compliance checks say about the invoice (docs/checks.md): the invoice's own check
// processing, set by its import and by check runs, with the counts of its alerts that are not
// set aside.
export type AlertCounts = { pending: number; claimed: number; credited: number; dismissed: number };
export const NO_ALERTS: AlertCounts = { pending: 0, claimed: 0, credited: 0, dismissed: 0 };

export interface CheckState {
  processingStatus: 'pending' | 'processing' | 'completed' | 'failed' | 'skipped';
  skipReason: string | null;
  failure: { code: string; message: string } | null;
  result: 'no_alerts_found' | 'alerts_found' | 'incomplete' | 'not_checked' | null;
  resolution: 'open' | 'resolved' | null;
  counts: AlertCounts;
  agreements: { checked: number; total: number };
}

function processingStatusOf(invoice: Invoice): Pick<CheckState, 'processingStatus' | 'skipReason' | 'failure'> {
  if (invoice.processingStatus === 'pending' || invoice.processingStatus === 'processing')
    return { processingStatus: 'pending', skipReason: null, failure: null };
  if (invoice.processingStatus === 'failed')
    return { processingStatus: 'skipped', skipReason: 'invoice_not_processed', failure: null };
  return {
    processingStatus: invoice.alertCheckStatus as CheckState['processingStatus'],
    skipReason: invoice.alertCheckSkipReason,
    failure: (invoice.alertCheckFailure as CheckState['failure']) ?? null,
  };
}

const RESULT_OF: Record<CheckState['processingStatus'], CheckState['result']> = {
  pending: null,
  processing: null,
  completed: 'no_alerts_found',
  failed: 'incomplete',
  skipped: 'not_checked',
};

// `matches`: the agreements the invoice is actively matched to.
export function checkStateOf(invoice: Invoice, counts: AlertCounts = NO_ALERTS, matches = 0): CheckState {
  const processing = processingStatusOf(invoice);
  const total = alertTotal(counts);
  const result =
    processing.processingStatus === 'completed' && total > 0 ? 'alerts_found' : RESULT_OF[processing.processingStatus];
  const resolution = total === 0 ? null : counts.pending + counts.claimed > 0 ? 'open' : 'resolved';
  return {
    ...processing,
    result,
    resolution,
    counts,
    agreements: { checked: invoice.checkedAgreementCount, total: matches },
  };
}

export const alertTotal = (counts: AlertCounts) => counts.pending + counts.claimed + counts.credited + counts.dismissed;

function partyOf(id: string | null, linkedName: string | null, party: unknown) {
  const invoiced = (party as Party | null) ?? null;
  return {
    id,
    name: linkedName,
    invoiced_as: {
      name: invoiced?.name ?? invoiced?.legalName ?? null,
      org_number: invoiced?.orgNumber ?? null,
      vat_id: invoiced?.vatId ?? null,
      country_code: invoiced?.countryCode ?? null,
    },
  };
}

export function serializeLine(line: LineFields) {
  return {
    id: line.id,
    line_number: line.lineNumber,
    description: line.description,
    seller_item_id: line.sellerItemId,
    buyer_item_id: line.buyerItemId,
    quantity: formatDecimal(line.quantity),
    unit_code: line.unitCode,
    unit_price: formatDecimal(line.unitPrice),
    price_base_quantity: formatDecimal(line.priceBaseQuantity),
    net_amount: formatAmount(line.netAmount),
    vat_category: line.vatCategory,
    vat_rate: formatDecimal(line.vatRate),
    period: line.periodStart || line.periodEnd ? { start: day(line.periodStart), end: day(line.periodEnd) } : null,
    allowance_charges: lineAllowanceCharges(line.allowanceCharges),
  };
}

// A line's allowances and charges (BG-27/BG-28), in the shape of the invoice's own; null for
// lines stored before they were kept (not known, which is not "none").
function lineAllowanceCharges(value: unknown) {
  if (!Array.isArray(value)) return null;
  return (value as AllowanceCharge[]).map((ac) => ({
    is_charge: ac.isCharge,
    amount: formatAmount(ac.amount),
    base_amount: formatAmount(ac.baseAmount),
    reason: ac.reason,
    reason_code: ac.reasonCode,
  }));
}

// How the document was read (src/invoices/parsing/model.ts, ExtractionInfo); invoices stored
// before the layout reader carry no review flag and read as not needing review.
function extractionOf(invoice: Invoice) {
  const extraction = (invoice.extraction ?? null) as Partial<ExtractionInfo> | null;
  return {
    method: extraction?.method ?? null,
    needs_review: extraction?.needsReview ?? false,
    review_reasons: extraction?.reviewReasons ?? [],
    confidence: extraction?.confidence ?? null,
    layout_memory: extraction?.layoutMemory ? { fields: extraction.layoutMemory.fields } : null,
    sources: extraction?.sources ?? null,
  };
}

// The table row the n-th line was read from; the list is dropped when a correction changes the
// number of lines (service.ts), so positions stay the document's rows.
function lineSourceOf(invoice: Invoice, index: number): ValueSource | null {
  const extraction = (invoice.extraction ?? null) as Partial<ExtractionInfo> | null;
  return extraction?.lineSources?.[index] ?? null;
}

function processingOf(invoice: Invoice) {
  return {
    status: invoice.processingStatus,
    classification: invoice.classification,
    failure: (invoice.processingFailure as { code: string; message: string } | null) ?? null,
  };
}

export function invoiceUrl(appBaseUrl: string, invoiceId: string): string {
  return `${appBaseUrl.replace(/\/$/, '')}/invoices/${invoiceId}`;
}

// What an invoice's representation shows beyond its row, read with it (src/invoices/service.ts).
export interface InvoiceExtras {
  supplierName: string | null;
  recipientName: string | null;
  // Agreements the invoice is actively matched to.
  matches: number;
  // Alerts per status, leaving out alerts set aside (their match ended).
  counts: AlertCounts;
  lines: LineFields[];
}

export function serializeInvoice(invoice: Invoice, extras: InvoiceExtras, appBaseUrl: string) {
  const { counts } = extras;
  const state = checkStateOf(invoice, counts, extras.matches);
  const settled = !['pending', 'processing'].includes(state.processingStatus);
  const total = alertTotal(counts);
  return {
    id: invoice.id,
    invoice_number: invoice.invoiceNumber,
    document_type: invoice.documentType,
    type_code: invoice.typeCode,
    format: invoice.format,
    source: invoice.source,
    issue_date: day(invoice.issueDate),
    due_date: day(invoice.dueDate),
    supplier: partyOf(invoice.supplierId, extras.supplierName, invoice.supplierParty),
    recipient: partyOf(invoice.recipientId, extras.recipientName, invoice.recipientParty),
    buyer_reference: invoice.buyerReference,
    order_reference: invoice.orderReference,
    contract_reference: invoice.contractReference,
    delivery: { country_code: invoice.deliveryCountryCode, address: invoice.deliveryAddress ?? null },
    invoice_period:
      invoice.invoicePeriodStart || invoice.invoicePeriodEnd
        ? { start: day(invoice.invoicePeriodStart), end: day(invoice.invoicePeriodEnd) }
        : null,
    amounts: {
      currency_code: invoice.currencyCode,
      line_total: formatAmount(invoice.lineExtensionAmount),
      excluding_vat: formatAmount(invoice.taxExclusiveAmount),
      vat: formatAmount(invoice.vatAmount),
      including_vat: formatAmount(invoice.taxInclusiveAmount),
      allowances: formatAmount(invoice.allowanceTotal),
      charges: formatAmount(invoice.chargeTotal),
      prepaid: formatAmount(invoice.prepaidAmount),
      rounding: formatAmount(invoice.roundingAmount),
      payable: formatAmount(invoice.payableAmount),
      exchange_rate: formatDecimal(invoice.exchangeRate),
      valid: invoice.amountsValid,
    },
    line_items: extras.lines.map((line, index) => ({ ...serializeLine(line), source: lineSourceOf(invoice, index) })),
    extraction: extractionOf(invoice),
    allowance_charges: ((invoice.allowanceCharges as AllowanceCharge[] | null) ?? []).map((ac) => ({
      is_charge: ac.isCharge,
      amount: formatAmount(ac.amount),
      reason: ac.reason,
      reason_code: ac.reasonCode,
      vat_category: ac.vatCategory,
      vat_rate: ac.vatPercent === null ? null : formatDecimal(toDecimal(ac.vatPercent).dividedBy(100)),
    })),
    duplicate_of_invoice_id: invoice.duplicateOfInvoiceId,
    credited_invoice_reference: invoice.creditedInvoiceReference,
    credited_invoice_id: invoice.creditedInvoiceId,
    processing: processingOf(invoice),
    alerts: { status: invoice.checkStatus, counts: state.counts, agreements: state.agreements },
    alert_summary: {
      total,
      counts: state.counts,
      result: state.result,
      resolution: state.resolution,
      all_checks_done: settled,
    },
    workflows: {
      settled,
      alert_check: { status: state.processingStatus, skip_reason: state.skipReason, failure: state.failure },
    },
    primary_document_id: invoice.primaryDocumentId,
    attachment_document_ids: invoice.attachmentDocumentIds,
    url: invoiceUrl(appBaseUrl, invoice.id),
    created_at: invoice.createdAt.toISOString(),
    updated_at: invoice.updatedAt.toISOString(),
  };
}

export function serializeIngestionInvoice(
  invoice: Invoice,
  extras: Pick<InvoiceExtras, 'matches' | 'counts'>,
  appBaseUrl: string,
) {
  const { counts } = extras;
  const state = checkStateOf(invoice, counts, extras.matches);
  return {
    invoice_id: invoice.id,
    invoice_number: invoice.invoiceNumber,
    duplicate_of_invoice_id: invoice.duplicateOfInvoiceId,
    processing: processingOf(invoice),
    alerts: {
      processing: { status: state.processingStatus, skip_reason: state.skipReason, failure: state.failure },
      result: state.result,
      count: alertTotal(counts),
      resolution: state.resolution,
    },
    invoice_url: invoiceUrl(appBaseUrl, invoice.id),
    created_at: invoice.createdAt.toISOString(),
  };
}

export function isTerminalForIngestion(invoice: Invoice): boolean {
  return !['pending', 'processing'].includes(checkStateOf(invoice).processingStatus);
}
