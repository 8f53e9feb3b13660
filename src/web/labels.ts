import type { AppDeps } from '../deps.js';

// Names to show beside the ids an API representation carries (an alert's agreement_id, an
// agreement's supplier_ids): one query per kind for a whole page, scoped to the organization, only
// the display column. The records themselves come from the API's operations (operations.ts).

export interface LabelRequest {
  agreements?: Iterable<string | null | undefined>;
  suppliers?: Iterable<string | null | undefined>;
  recipients?: Iterable<string | null | undefined>;
  invoices?: Iterable<string | null | undefined>;
  topics?: Iterable<string | null | undefined>;
  claims?: Iterable<string | null | undefined>;
  tags?: Iterable<string | null | undefined>;
  alerts?: Iterable<string | null | undefined>;
}

export type Labels = { [K in keyof LabelRequest]-?: Map<string, string> };

// A page shows at most a few hundred references; more is a caller's mistake, not a reason to send
// a statement past PostgreSQL's bind-parameter limit.
const MAX_IDS = 5000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function idsOf(values: Iterable<string | null | undefined> | undefined): string[] {
  const ids = new Set<string>();
  for (const value of values ?? []) if (value && UUID.test(value)) ids.add(value);
  if (ids.size > MAX_IDS) throw new Error(`labels for ${ids.size} records asked; at most ${MAX_IDS}`);
  return [...ids];
}

async function lookup<T extends { id: string }>(
  ids: string[],
  find: (ids: string[]) => Promise<T[]>,
  name: (row: T) => string | null,
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await find(ids);
  return new Map(rows.map((row) => [row.id, name(row) ?? '']));
}

export async function labelsOf(
  deps: Pick<AppDeps, 'db'>,
  organizationId: string,
  request: LabelRequest,
): Promise<Labels> {
  const db = deps.db;
  const where = (ids: string[]) => ({ id: { in: ids }, organizationId });
  const [agreements, suppliers, recipients, invoices, topics, claims, tags, alerts] = await Promise.all([
    lookup(
      idsOf(request.agreements),
      (ids) => db.agreement.findMany({ where: where(ids), select: { id: true, title: true } }),
      (r) => r.title,
    ),
    lookup(
      idsOf(request.suppliers),
      (ids) => db.supplier.findMany({ where: where(ids), select: { id: true, name: true } }),
      (r) => r.name,
    ),
    lookup(
      idsOf(request.recipients),
      (ids) => db.recipient.findMany({ where: where(ids), select: { id: true, name: true } }),
      (r) => r.name,
    ),
    lookup(
      idsOf(request.invoices),
      (ids) => db.invoice.findMany({ where: where(ids), select: { id: true, invoiceNumber: true } }),
      (r) => r.invoiceNumber,
    ),
    lookup(
      idsOf(request.topics),
      (ids) => db.alertTopic.findMany({ where: where(ids), select: { id: true, title: true } }),
      (r) => r.title,
    ),
    lookup(
      idsOf(request.claims),
      (ids) => db.claim.findMany({ where: where(ids), select: { id: true, reference: true, title: true } }),
      (r) => `${r.reference} · ${r.title}`,
    ),
    lookup(
      idsOf(request.tags),
      (ids) => db.tag.findMany({ where: where(ids), select: { id: true, name: true } }),
      (r) => r.name,
    ),
    lookup(
      idsOf(request.alerts),
      (ids) => db.alert.findMany({ where: where(ids), select: { id: true, title: true } }),
      (r) => r.title,
    ),
  ]);
  return { agreements, suppliers, recipients, invoices, topics, claims, tags, alerts };
}

// ---------------------------------------------------------------------------------------------
// Codes in words. The API speaks in codes (statuses, failure codes, checkers, skip reasons); a
// finance person reads the label, and the code stays in a tooltip for whoever reports a problem.

const CODE_LABELS: Record<string, string> = {
  // Failures of runs, items and imports (docs/failures.md, docs/invoice-parsing.md).
  internal_error: 'Internal error',
  service_unavailable: 'Service unavailable',
  timed_out: 'Took too long',
  cancelled: 'Cancelled',
  check_failed: 'Check failed',
  import_incomplete: 'Import did not finish',
  import_stopped: 'Import stopped',
  import_failed: 'Import failed',
  workflow_terminated: 'Stopped by an operator',
  workflow_timed_out: 'Run took too long',
  workflow_failed: 'Run failed',
  workflow_not_found: 'Run lost',
  all_items_failed: 'Every item failed',
  run_ended: 'Run ended',
  resume_failed: 'Could not resume',
  document_missing: 'File missing',
  invoice_missing: 'Invoice removed',
  primary_md5_locked_by_deleted_invoice: 'File of a deleted invoice',
  not_invoice: 'Not an invoice',
  empty_file: 'Empty file',
  file_too_large: 'File too large',
  too_large: 'File too large',
  unsupported_format: 'Unsupported format',
  malformed_xml: 'Broken XML',
  xml_entities_rejected: 'XML with entities',
  xml_too_deep: 'XML nested too deeply',
  xml_too_many_elements: 'XML too large',
  unsupported_encoding: 'Unknown text encoding',
  invalid_encoding: 'Wrong text encoding',
  truncated_pdf: 'Incomplete PDF',
  malformed_pdf: 'Broken PDF',
  encrypted_pdf: 'Password-protected PDF',
  no_text_layer: 'PDF without text',
  pdf_timeout: 'PDF took too long to read',
  pdf_too_large_inflated: 'PDF too large to read',
  xml_timeout: 'XML took too long to read',
  xml_too_large_expanded: 'XML too large to read',
  unreadable: 'Unreadable file',
  extraction_incomplete: 'Prices partly read',
  // Checkers (docs/checks.md): what an alert found.
  unit_price_above_agreed: 'Price above the agreed price',
  fee_above_agreed: 'Fee above the agreed fee',
  agreed_discount_missing: 'Agreed discount missing',
  charge_outside_agreement_period: 'Charged outside the agreement period',
  item_not_in_agreement: 'Item not in the agreement',
  exchange_rate_missing: 'Exchange rate missing',
  line_arithmetic: 'Line does not add up',
  totals_arithmetic: 'Totals do not add up',
  duplicate_charge: 'Charged twice',
  // How an alert is corrected.
  modify_invoice: 'Correct the invoice',
  modify_item: 'Correct the line',
  add_item: 'Add a line',
  // Why an invoice was not checked.
  not_ready: 'Agreement not ready',
  no_agreement: 'No agreement matched',
  credit_note: 'Credit note',
};

// "duplicate_charge" → "Charged twice"; a code without a label reads as words ("some_code" → "Some code").
export function codeLabel(code: string | null | undefined): string {
  if (!code) return '—';
  const known = CODE_LABELS[code];
  if (known) return known;
  const words = code.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// What an alert's checker says about the charge, in the words of its kind: a price checker found
// more charged than agreed, an arithmetic checker a sum that does not add up, the duplicate checker
// a charge billed twice. Alerts from people or API clients say what their impact says.
const CHECKER_SUMMARY: Record<string, string> = {
  duplicate_charge: 'charged twice',
  line_arithmetic: 'line does not add up',
  totals_arithmetic: 'totals do not add up',
  exchange_rate_missing: 'exchange rate missing',
  charge_outside_agreement_period: 'charged outside the agreement period',
  item_not_in_agreement: 'item not in the agreement',
  agreed_discount_missing: 'agreed discount missing',
};

export function alertSummary(alert: {
  impact_amount: string;
  provenance?: { checker?: string | null } | null;
}): string {
  const checker = alert.provenance?.checker;
  if (checker && CHECKER_SUMMARY[checker]) return CHECKER_SUMMARY[checker];
  return alert.impact_amount.startsWith('-') ? 'charged less than agreed' : 'charged more than agreed';
}

// The texts of the invoice upload (views/invoice-upload.eta, upload-row.eta, assets/app.js reads
// the ones it needs from the form's data attributes): one place for a second language.
export const UPLOAD_TEXTS = {
  heading: 'Upload invoices',
  hint: 'PDF or XML (Peppol BIS Billing 3.0, EHF). Drop files here, or choose them.',
  choose: 'Choose files',
  submit: 'Upload',
  dropHere: 'Drop invoice files here',
  results: 'Uploads',
  uploading: 'Uploading',
  queued: 'Waiting to be read',
  running: 'Reading',
  imported: 'Imported',
  duplicate: 'Already imported',
  notInvoice: 'Not an invoice',
  failed: 'Failed',
  cancelled: 'Cancelled',
  refused: 'Refused',
  openInvoice: 'Open the invoice',
  openExisting: 'Open the existing invoice',
  checkAgain: 'Check again',
  noFiles: 'Choose at least one file to upload.',
  progress: 'Upload progress of',
  backToInvoices: 'Back to invoices',
  showInList: 'Show the new invoices in the list',
} as const;
