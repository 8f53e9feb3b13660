import { Decimal } from 'decimal.js';
import { z } from 'zod';
import { findDocuments } from '../../documents/service.js';
import { errors } from '../../http/errors.js';
import { latestImportIdOf } from '../../invoices/imports.js';
import { mayCall, type ListItem } from '../operations.js';
import { defineAction, definePage, type WebInput, type WebRoute } from '../page.js';
import { firstText, pickedSuppliers, supplierSuggestions, withoutKey } from '../pickers.js';
import {
  filledQuery,
  limitOf,
  pageSizeOf,
  pager,
  sortHeader,
  sortState,
  type ListState,
  type SortOption,
} from '../query.js';
import { actOrShowRefusal } from '../refusal.js';
import type { Texts } from '../texts/index.js';
import { mayUpload } from './invoice-upload.js';
import { discussionOf, reviewPanel, type ReviewForm } from './review-panel.js';

// Invoices: the list with the API's filters (GET /v1/invoices through listInvoices), and one
// invoice with everything a finance person acts on (header, parties, lines with their alerts,
// impact, citations, matches and checks, the original file).

const LIST_FILTERS = [
  'search',
  'supplier_ids',
  'processing_statuses',
  'check_statuses',
  'document_types',
  'issued_from',
  'issued_through',
  'sort',
  'direction',
  'cursor',
] as const;
// The filters GET /v1/invoices/metrics also takes: the count above the list.
const METRIC_FILTERS = [
  'search',
  'supplier_ids',
  'processing_statuses',
  'check_statuses',
  'document_types',
  'issued_from',
  'issued_through',
] as const;
// A malformed id reads as an id that matches nothing: the page is the API's 404, not a 400.
const invoiceIdParams = z.object({ id: z.string().uuid() });

type Alert = ListItem<'listAlerts'>;
type WorkflowRun = ListItem<'listWorkflowRuns'>;

// The list's sorts: newest (the API's default), and every sortable column, both ways.
export const invoiceSorts = (t: Texts['invoices']): SortOption[] => [
  { value: 'created_at', label: t.sortAdded, first: 'desc' },
  { value: 'invoice_number', label: t.sortNumber, first: 'asc' },
  { value: 'issue_date', label: t.sortIssueDate, first: 'desc' },
  { value: 'due_date', label: t.sortDueDate, first: 'asc' },
  { value: 'amounts.including_vat', label: t.sortAmount, first: 'desc' },
];
const DEFAULT_SORT: ListState = { sort: 'created_at', direction: 'desc' };

export const invoicePages: WebRoute[] = [
  definePage({
    path: '/invoices',
    nav: 'invoices',
    title: (t) => t.invoices.title,
    view: 'invoices',
    load: async (input) => {
      const { ctx, call, credential, t } = input;
      const sorts = invoiceSorts(t.invoices);
      const query = filledQuery(ctx.query, LIST_FILTERS);
      const pageSize = pageSizeOf(ctx.query);
      const supplier = await pickedSuppliers(input, query);
      const state = sortState(query, sorts, DEFAULT_SORT);
      const listed: Record<string, string> = { ...query, sort: state.sort, direction: state.direction };
      const { cursor, ...filters } = listed;
      const [page, metrics] = await Promise.all([
        supplier.none
          ? Promise.resolve({ data: [], next_cursor: null })
          : call('listInvoices', {
              query: { limit: String(pageSize), ...filters, ...(cursor ? { cursor } : {}) },
            }),
        supplier.none
          ? Promise.resolve(null)
          : call('getInvoiceMetrics', { query: filledQuery(filters, METRIC_FILTERS) }),
      ]);
      const urlFilters = {
        ...(supplier.text ? { ...withoutKey(filters, 'supplier_ids'), supplier: supplier.text } : filters),
        ...limitOf(pageSize),
      };
      return {
        invoices: page.data,
        filters: urlFilters,
        supplier,
        sort: state,
        sorts,
        headers: Object.fromEntries(
          sorts.map((option) => [option.value, sortHeader('/app/invoices', urlFilters, state, option)]),
        ),
        total: metrics ? metrics.counts.total : 0,
        pager: pager('/app/invoices', urlFilters, ctx.query, page.data.length, pageSize, page.next_cursor),
        filtered: Object.keys(urlFilters).some((key) => !['sort', 'direction', 'limit'].includes(key)),
        canUpload: mayUpload(credential),
      };
    },
  }),
  // Type-ahead for the supplier filter (htmx fills a <datalist>): the API's own supplier search.
  definePage({
    path: '/suggest/suppliers',
    nav: null,
    title: (t) => t.invoices.suppliers,
    view: 'suggestions',
    load: async ({ ctx, call }) => ({ options: await supplierSuggestions(call, firstText(ctx.query.supplier)) }),
  }),
];

// Every alert of one invoice (an invoice has few; the API's list maximum is a safe bound).
const ALERTS_PER_INVOICE = '1000';

// Open impact per currency, exact (alerts carry the invoice's currency; decimal.js sums).
function openImpact(alerts: Alert[]): { currency: string | null; amount: string }[] {
  const totals = new Map<string | null, Decimal>();
  for (const alert of alerts) {
    if (alert.status !== 'pending' && alert.status !== 'claimed') continue;
    totals.set(alert.currency_code, (totals.get(alert.currency_code) ?? new Decimal(0)).plus(alert.impact_amount));
  }
  return [...totals].map(([currency, amount]) => ({ currency, amount: amount.toFixed() }));
}

// A page of tens of thousands of lines helps nobody and costs the server per line: the first
// lines, plus every line with an alert (the alert page links to it), unless all are asked for.
const LINES_SHOWN = 200;

export function shownLines<L extends { id: string }, A>(lineItems: L[], alertsByLine: Map<string, A[]>, all: boolean) {
  const lines = lineItems
    .map((line, index) => ({ ...line, alerts: alertsByLine.get(line.id) ?? [], index }))
    .filter((line) => all || line.index < LINES_SHOWN || line.alerts.length > 0);
  return { lines, lineCount: lineItems.length, linesHidden: lineItems.length - lines.length };
}

invoicePages.push(
  definePage({
    path: '/invoices/:id',
    nav: 'invoices',
    title: (t) => t.invoices.invoiceTitle(null),
    view: 'invoice',
    params: invoiceIdParams.catch({ id: '00000000-0000-0000-0000-000000000000' }),
    load: async (input) => invoicePage(input, null),
  }),
  // A failed import again (the API's retry of its run: a new run), from the invoice's page.
  defineAction({
    path: '/invoices/:id/retry',
    level: 'write',
    params: invoiceIdParams,
    body: z.object({ run_id: z.string().uuid() }),
    handle: (input) =>
      actOrShowRefusal(
        { view: 'invoice', nav: 'invoices', load: () => invoicePage({ ...input, ctx: input.ctx }, null) },
        async () => {
          // The run must be this invoice's import run: read through the same lookup as the page.
          const run = await importRunOf(input, input.params.id);
          if (!run || run.id !== input.body.run_id) throw errors.notFound('run');
          await input.call('retryWorkflowRun', { params: { id: run.id } });
          return {
            redirect: `/app/invoices/${input.params.id}`,
            notice: input.t.invoices.retried,
          };
        },
      ),
  }),
);

// The run of the invoice's import (the newest, a retry included), through the API's run list.
async function importRunOf(
  { deps, credential, call }: Pick<WebInput<unknown, unknown>, 'deps' | 'credential' | 'call'>,
  invoiceId: string,
): Promise<WorkflowRun | null> {
  const importId = await latestImportIdOf(deps, credential.organizationId, invoiceId);
  if (!importId) return null;
  const runs = await call('listWorkflowRuns', {
    query: { owner_type: 'invoice_import', owner_ids: importId, limit: '1' },
  });
  return runs.data[0] ?? null;
}

// `sent`: the correction form's values the API refused, shown again (pages/review.ts).
export async function invoicePage(
  {
    params,
    call,
    credential,
    ctx,
    deps,
    t,
  }: Pick<WebInput<{ id: string }, unknown>, 'params' | 'call' | 'credential' | 'ctx' | 'deps' | 't'>,
  sent: ReviewForm | null,
) {
  // Read first: another organization's invoice (or a malformed id) is the API's 404.
  const invoice = await call('getInvoice', { params });
  const failed = invoice.processing.status === 'failed';
  const [alerts, matches, checks, importRun, review, discussion] = await Promise.all([
    call('listAlerts', { query: { invoice_ids: invoice.id, limit: ALERTS_PER_INVOICE } }),
    call('listInvoiceAgreements', { params, query: { limit: '1000' } }),
    call('listComplianceChecks', { query: { invoice_ids: invoice.id, limit: '100' } }),
    // Why it failed is the invoice's own failure; the run links to the details and the retry.
    failed ? importRunOf({ deps, credential, call }, invoice.id) : Promise.resolve(null),
    // The original beside the reading, its correction form, comments and activity (review-panel.ts).
    reviewPanel({ call, credential, deps, ctx, t }, invoice, sent),
    discussionOf({ call, credential, ctx }, invoice.id),
  ]);
  const byLine = new Map<string, Alert[]>();
  const wholeInvoice: Alert[] = [];
  for (const alert of alerts.data) {
    if (alert.invoice_item_id) byLine.set(alert.invoice_item_id, [...(byLine.get(alert.invoice_item_id) ?? []), alert]);
    else wholeInvoice.push(alert);
  }
  const agreementNames = new Map(matches.data.map((m) => [m.id, m.agreement.title ?? m.id]));
  return {
    title: t.invoices.invoiceTitle(invoice.invoice_number),
    invoice,
    ...shownLines(invoice.line_items, byLine, ctx.query.lines === 'all'),
    wholeInvoiceAlerts: wholeInvoice,
    alertCount: alerts.data.length,
    impact: openImpact(alerts.data),
    matches: matches.data,
    checks: checks.data,
    agreementNames: Object.fromEntries(agreementNames),
    canCheck: mayCall(credential, 'checkInvoice'),
    importRun,
    // The API retries a failed import run (retryWorkflowRun); only then is the button shown.
    canRetry: importRun !== null && importRun.status === 'failed' && mayCall(credential, 'retryWorkflowRun'),
    ...review,
    ...discussion,
    commentDraft: '',
  };
}

invoicePages.push(
  // The original file: a short-lived presigned link, after the same read as the page (tenancy).
  definePage({
    path: '/invoices/:id/original',
    nav: 'invoices',
    title: (t) => t.invoices.originalFile,
    view: 'error',
    params: invoiceIdParams.catch({ id: '00000000-0000-0000-0000-000000000000' }),
    load: async ({ params, call, deps, session }) => {
      const invoice = await call('getInvoice', { params });
      if (!invoice.primary_document_id) throw errors.notFound('original file');
      const [document] = await findDocuments(deps, session.organizationId, [invoice.primary_document_id]);
      const link = await deps.storage.presignDownload(document!.storageKey, document!.fileName);
      return { redirect: link.url };
    },
  }),
);
