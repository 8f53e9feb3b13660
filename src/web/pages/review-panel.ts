import { Decimal } from 'decimal.js';
import { z } from 'zod';
import { findDocuments } from '../../documents/service.js';
import { errors, type FieldIssue } from '../../http/errors.js';
import { readAmount } from '../format.js';
import { mayCall, type ListItem, type OperationResponse } from '../operations.js';
import type { WebInput } from '../page.js';
import { MAX_RENDERED_PAGE, MAX_RENDERED_PDF_BYTES, pdfInfo } from '../review-page-images.js';
import type { Texts } from '../texts/index.js';

// The review form (issue 28) and the document beside it, shared by the review queue's item page
// (pages/review.ts) and the invoice page; the invoice page's comments and activity timeline.
type Invoice = OperationResponse<'getInvoice'>;
type ActivityEntry = ListItem<'listActivity'>;

const TIMELINE_ENTRIES = '30';
const COMMENTS_SHOWN = '50';

type ReviewTexts = Texts['review'];

// A header field of the form: its input's name (its label: `t.review.fields[name]`), the API's
// path (where a refusal points), the reader's name (extraction.confidence.fields and
// extraction.sources), and its read value.
interface FieldSpec {
  name: keyof ReviewTexts['fields'];
  api: string;
  source: string;
  kind: 'text' | 'date' | 'amount';
  read: (invoice: Invoice) => string | null;
}

export const REVIEW_FIELDS: FieldSpec[] = [
  {
    name: 'invoice_number',
    api: 'invoice_number',
    source: 'invoiceNumber',
    kind: 'text',
    read: (i) => i.invoice_number,
  },
  {
    name: 'issue_date',
    api: 'issue_date',
    source: 'issueDate',
    kind: 'date',
    read: (i) => i.issue_date,
  },
  { name: 'due_date', api: 'due_date', source: 'dueDate', kind: 'date', read: (i) => i.due_date },
  {
    name: 'order_reference',
    api: 'order_reference',
    source: 'orderReference',
    kind: 'text',
    read: (i) => i.order_reference,
  },
  {
    name: 'buyer_reference',
    api: 'buyer_reference',
    source: 'buyerReference',
    kind: 'text',
    read: (i) => i.buyer_reference,
  },
  {
    name: 'contract_reference',
    api: 'contract_reference',
    source: 'contractReference',
    kind: 'text',
    read: (i) => i.contract_reference,
  },
  {
    name: 'excluding_vat',
    api: 'amounts.excluding_vat',
    source: 'totals.taxExclusive',
    kind: 'amount',
    read: (i) => i.amounts.excluding_vat,
  },
  {
    name: 'vat',
    api: 'amounts.vat',
    source: 'totals.vatTotal',
    kind: 'amount',
    read: (i) => i.amounts.vat,
  },
  {
    name: 'including_vat',
    api: 'amounts.including_vat',
    source: 'totals.taxInclusive',
    kind: 'amount',
    read: (i) => i.amounts.including_vat,
  },
  {
    name: 'payable',
    api: 'amounts.payable',
    source: 'totals.payable',
    kind: 'amount',
    read: (i) => i.amounts.payable,
  },
];

// Read, shown with their boxes, not editable through the PATCH (the spec keeps parties and the
// currency as read).
const FACTS: Array<{
  label: keyof ReviewTexts['facts'];
  source: string;
  read: (invoice: Invoice) => string | null;
}> = [
  { label: 'supplier', source: 'supplier.name', read: (i) => i.supplier.invoiced_as.name ?? i.supplier.name },
  { label: 'supplierOrgNumber', source: 'supplier.orgNumber', read: (i) => i.supplier.invoiced_as.org_number },
  { label: 'supplierVatId', source: 'supplier.vatId', read: (i) => i.supplier.invoiced_as.vat_id },
  { label: 'recipient', source: 'recipient.name', read: (i) => i.recipient.invoiced_as.name ?? i.recipient.name },
  { label: 'currency', source: 'currencyCode', read: (i) => i.amounts.currency_code },
];

// The lines' cells (their labels: `t.review.lineCells[name]`).
const LINE_CELLS = [
  { name: 'description', kind: 'text' },
  { name: 'quantity', kind: 'amount' },
  { name: 'unit_price', kind: 'amount' },
  { name: 'net_amount', kind: 'amount' },
] as const;
type LineCell = (typeof LINE_CELLS)[number]['name'];

// What the form posts: the header fields by name, the lines' cells as repeated fields.
const formValue = z.union([z.string(), z.array(z.string())]).optional();
export const reviewBody = z.object({
  _csrf: z.string().optional(),
  from: z.enum(['queue', 'invoice']).optional(),
  ...Object.fromEntries(REVIEW_FIELDS.map((field) => [field.name, z.string().optional()])),
  ...Object.fromEntries(LINE_CELLS.map((cell) => [`line_${cell.name}`, formValue])),
}) as z.ZodType<ReviewForm>;
export type ReviewForm = { _csrf?: string; from?: 'queue' | 'invoice' } & Record<string, string | string[] | undefined>;

const listOf = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];
const one = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

export interface ReviewFieldView {
  name: string;
  label: string;
  api: string;
  kind: FieldSpec['kind'];
  value: string;
  confidence: number | null;
  box: number | null;
}

export interface ReviewBox {
  number: number;
  label: string;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

// The form's data: every value as read (or as sent, when the API refused it), its confidence and
// the number of its box on the document; the boxes of the shown page.
export function reviewFormOf(invoice: Invoice, sent: ReviewForm | null, page: number, t: ReviewTexts) {
  const extraction = invoice.extraction;
  const sources = extraction.sources ?? {};
  const confidence = extraction.confidence?.fields ?? {};
  const boxes: ReviewBox[] = [];
  const boxOf = (label: string, source: string): number | null => {
    const found = sources[source];
    if (!found) return null;
    boxes.push({ number: boxes.length + 1, label, page: found.page, ...found.box });
    return boxes.length;
  };
  const fields: ReviewFieldView[] = REVIEW_FIELDS.map((field) => ({
    name: field.name,
    label: t.fields[field.name],
    api: field.api,
    kind: field.kind,
    value: sent ? (one(sent[field.name]) ?? '') : (field.read(invoice) ?? ''),
    confidence: confidence[field.source] ?? null,
    box: boxOf(t.fields[field.name], field.source),
  }));
  const facts = FACTS.map((fact) => ({
    label: t.facts[fact.label],
    value: fact.read(invoice),
    confidence: confidence[fact.source] ?? null,
    box: boxOf(t.facts[fact.label], fact.source),
  }));
  const sentCells = Object.fromEntries(LINE_CELLS.map((cell) => [cell.name, listOf(sent?.[`line_${cell.name}`])]));
  const lines = invoice.line_items.map((line, index) => {
    const box = line.source
      ? (boxes.push({
          number: boxes.length + 1,
          label: t.lineBox(index + 1),
          page: line.source.page,
          ...line.source.box,
        }),
        boxes.length)
      : null;
    return {
      index,
      box,
      cells: LINE_CELLS.map((cell) => ({
        name: cell.name,
        label: t.lineCells[cell.name],
        kind: cell.kind,
        api: `line_items.${index}.${cell.name}`,
        value: sent ? (sentCells[cell.name]?.[index] ?? '') : (line[cell.name] ?? ''),
      })),
    };
  });
  return {
    fields,
    facts,
    lines,
    linesConfidence: extraction.confidence ? extraction.confidence.lines : null,
    // Structured readings (XML) and invoices sent as data are exact: no confidence to show.
    hasConfidence: extraction.confidence !== null,
    boxes: boxes.filter((box) => box.page === page),
    pagesWithValues: [...new Set(boxes.map((box) => box.page))].sort((a, b) => a - b),
    reasons: extraction.review_reasons,
    needsReview: extraction.needs_review,
  };
}

// The original beside the form: the page shown (the one the invoice number was read from unless
// asked), the document's pages, and whether it can be rendered (a PDF).
async function documentOf(input: Pick<WebInput<unknown, unknown>, 'call'>, invoice: Invoice, asked: unknown) {
  if (!invoice.primary_document_id) return { kind: 'none' as const };
  // A document record that is gone (or another's) shows no original rather than failing the page.
  const document = await input.call('getDocument', { params: { id: invoice.primary_document_id } }).catch(() => null);
  if (!document) return { kind: 'none' as const };
  const pdf = document.mime_type === 'application/pdf' && document.file_size <= MAX_RENDERED_PDF_BYTES;
  const firstSourcePage = Object.values(invoice.extraction.sources ?? {})[0]?.page ?? 1;
  const requested = typeof asked === 'string' && /^\d{1,3}$/.test(asked) ? Number(asked) : firstSourcePage;
  return pdf ? { kind: 'pdf' as const, page: requested } : { kind: 'other' as const };
}

async function infoOf(deps: WebInput<unknown, unknown>['deps'], organizationId: string, documentId: string) {
  const [document] = await findDocuments(deps, organizationId, [documentId]);
  return pdfInfo(documentId, () => deps.storage.read(document!.storageKey, MAX_RENDERED_PDF_BYTES));
}

// Everything the review form and the document beside it need, for the review item and the invoice page.
export async function reviewPanel(
  input: Pick<WebInput<unknown, unknown>, 'call' | 'credential' | 'deps' | 'ctx' | 't'>,
  invoice: Invoice,
  sent: ReviewForm | null,
) {
  const document = await documentOf(input, invoice, input.ctx.query.page);
  // Without pdfinfo (or an unreadable PDF) the first page is still tried, as an A4 page.
  const info =
    document.kind === 'pdf'
      ? await infoOf(input.deps, input.credential.organizationId, invoice.primary_document_id!).catch(() => null)
      : null;
  const pageCount = info?.pages || 1;
  const page = document.kind === 'pdf' ? Math.min(Math.max(1, document.page), pageCount) : 1;
  // The boxes' drawing has the page's proportions (1000 wide), so its numbers are not stretched.
  const drawingHeight = Math.round((1000 * (info?.height ?? 842)) / (info?.width ?? 595));
  return {
    document: {
      ...document,
      page,
      pageCount,
      pages: Array.from({ length: Math.min(pageCount, MAX_RENDERED_PAGE) }, (_, i) => i + 1),
      drawingHeight,
    },
    form: reviewFormOf(invoice, sent, page, input.t.review),
    canCorrect: mayCall(input.credential, 'updateInvoice') && invoice.processing.status === 'completed',
  };
}

// Comments (newest first) and the activity timeline (newest first, paged with activity_cursor).
export async function discussionOf(
  input: Pick<WebInput<unknown, unknown>, 'call' | 'credential' | 'ctx'>,
  invoiceId: string,
) {
  const cursor = typeof input.ctx.query.activity_cursor === 'string' ? input.ctx.query.activity_cursor : undefined;
  const timelineQuery = { entity_type: 'invoice', entity_id: invoiceId, entry_type: 'activity' } as const;
  const [comments, timeline] = await Promise.all([
    input.call('listActivity', {
      query: { entity_type: 'invoice', entity_id: invoiceId, entry_type: 'comment', limit: COMMENTS_SHOWN },
    }),
    input.call('listActivity', {
      query: { ...timelineQuery, limit: TIMELINE_ENTRIES, ...(cursor ? { cursor } : {}) },
    }),
  ]);
  return {
    comments: comments.data,
    timeline: timeline.data.map((entry) => ({ ...entry, summary: changeSummary(entry) })),
    olderActivity: timeline.next_cursor
      ? `/app/invoices/${invoiceId}?activity_cursor=${encodeURIComponent(timeline.next_cursor)}#activity-heading`
      : null,
    canComment: mayCall(input.credential, 'createComment'),
  };
}

const shortJson = (value: unknown): string => {
  if (value === null || value === undefined) return '—';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
};

// "invoice_number: F-1 → F-2": what an entry changed, in one line per field (at most 6).
function changeSummary(entry: ActivityEntry): string[] {
  if (!entry.changes) return [];
  return Object.entries(entry.changes)
    .slice(0, 6)
    .map(([field, change]) => `${field}: ${shortJson(change.before)} → ${shortJson(change.after)}`);
}

// The PATCH body from the form: every header field (an empty one is null: not known), and the
// lines only when a cell changed (sent as read, with the changed cells), so what the form does
// not show (item ids, units, VAT rates, discounts) stays as it is.
export function patchOf(invoice: Invoice, form: ReviewForm, t: ReviewTexts) {
  const issues: FieldIssue[] = [];
  const decimalOf = (raw: string, api: string): string | null => {
    const text = raw.trim();
    if (text === '') return null;
    const negative = /^[-−]/u.test(text);
    const read = readAmount(negative ? text.slice(1) : text);
    if (!read.ok) {
      issues.push({ field: api, message: read.message });
      return null;
    }
    return negative ? `-${read.value}` : read.value;
  };
  const header: Record<string, string | null> = {};
  const amounts: Record<string, string | null> = {};
  for (const field of REVIEW_FIELDS) {
    const raw = one(form[field.name]);
    if (raw === undefined) continue;
    if (field.kind === 'amount') amounts[field.api.replace('amounts.', '')] = decimalOf(raw, field.api);
    else header[field.name] = raw.trim() === '' ? null : raw.trim();
  }
  const cells = Object.fromEntries(LINE_CELLS.map((cell) => [cell.name, listOf(form[`line_${cell.name}`])])) as Record<
    LineCell,
    string[]
  >;
  let linesChanged = false;
  const lineItems = invoice.line_items.map((line, index) => {
    // As read; a line discount's amount is never null as read from a document (kept out if so).
    const allowances = line.allowance_charges?.flatMap((ac) =>
      ac.amount === null ? [] : [{ ...ac, amount: ac.amount }],
    );
    const next = { ...line, allowance_charges: allowances ?? null };
    for (const cell of LINE_CELLS) {
      const raw = cells[cell.name][index];
      if (raw === undefined) continue;
      const value =
        cell.kind === 'amount' ? decimalOf(raw, `line_items.${index}.${cell.name}`) : raw.trim() === '' ? null : raw;
      const read = line[cell.name];
      // Amounts compare as numbers ("2550" is "2550.00"), texts as typed.
      const same =
        cell.kind === 'amount'
          ? value === null || read === null
            ? value === read
            : new Decimal(value).equals(read)
          : (value ?? '') === (read ?? '');
      if (!same) {
        linesChanged = true;
        next[cell.name] = value;
      }
    }
    return next;
  });
  if (issues.length > 0) throw errors.validation(t.unreadableAmounts, issues);
  return {
    ...header,
    ...(Object.keys(amounts).length > 0 ? { amounts } : {}),
    ...(linesChanged ? { line_items: lineItems } : {}),
  };
}
