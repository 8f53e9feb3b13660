import { Decimal } from 'decimal.js';
import { z } from 'zod';
import { findDocuments } from '../../documents/service.js';
import { errors } from '../../http/errors.js';
import { mayCall } from '../operations.js';
import { definePage, type WebRoute } from '../page.js';
import { filledQuery, listUrl } from '../query.js';

// Invoices: the list with the API's filters (GET /v1/invoices through listInvoices), and one
// invoice with everything a finance person acts on (header, parties, lines with their alerts,
// impact, citations, matches and checks, the original file).

const LIST_FILTERS = ['search', 'supplier_ids', 'processing_statuses', 'check_statuses', 'document_types', 'issued_from', 'issued_through', 'sort', 'direction', 'limit', 'cursor'] as const;
const SUPPLIER_CHOICES = 200;
// A malformed id reads as an id that matches nothing: the page is the API's 404, not a 400.
const invoiceIdParams = z.object({ id: z.string().uuid() });

export const invoicePages: WebRoute[] = [
  definePage({
    path: '/invoices',
    nav: 'invoices',
    title: 'Invoices',
    view: 'invoices',
    load: async ({ ctx, call }) => {
      const query = filledQuery(ctx.query, LIST_FILTERS);
      const [page, suppliers] = await Promise.all([
        call<{ data: Record<string, any>[]; next_cursor: string | null }>('listInvoices', { query: { limit: '50', ...query } }),
        call<{ data: { id: string; name: string | null }[]; next_cursor: string | null }>('listSuppliers', { query: { limit: String(SUPPLIER_CHOICES) } }),
      ]);
      const { cursor: _cursor, ...filters } = query;
      return {
        invoices: page.data,
        filters,
        suppliers: suppliers.data,
        moreSuppliers: suppliers.next_cursor !== null,
        nextUrl: page.next_cursor ? listUrl('/app/invoices', filters, { cursor: page.next_cursor }) : null,
        firstUrl: query.cursor ? listUrl('/app/invoices', filters) : null,
        filtered: Object.keys(filters).some((key) => !['sort', 'direction', 'limit'].includes(key)),
      };
    },
  }),
];


type Json = Record<string, any>;
type Page<T = Json> = { data: T[]; next_cursor: string | null };

// Every alert of one invoice (an invoice has few; the API's list maximum is a safe bound).
const ALERTS_PER_INVOICE = '1000';

// Open impact per currency, exact (alerts carry the invoice's currency; decimal.js sums).
function openImpact(alerts: Json[]): { currency: string | null; amount: string }[] {
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

export function shownLines<L extends { id: string }>(lineItems: L[], alertsByLine: Map<string, Json[]>, all: boolean) {
  const lines = lineItems
    .map((line, index) => ({ ...line, alerts: alertsByLine.get(line.id) ?? [], index }))
    .filter((line) => all || line.index < LINES_SHOWN || line.alerts.length > 0);
  return { lines, lineCount: lineItems.length, linesHidden: lineItems.length - lines.length };
}

invoicePages.push(
  definePage({
    path: '/invoices/:id',
    nav: 'invoices',
    title: 'Invoice',
    view: 'invoice',
    params: invoiceIdParams.catch({ id: '00000000-0000-0000-0000-000000000000' }),
    load: async ({ params, call, credential, ctx }) => {
      // Read first: another organization's invoice (or a malformed id) is the API's 404.
      const invoice = await call<Json>('getInvoice', { params });
      const [alerts, matches, checks] = await Promise.all([
        call<Page>('listAlerts', { query: { invoice_ids: invoice.id, limit: ALERTS_PER_INVOICE } }),
        call<Page>('listInvoiceAgreements', { params, query: { limit: '1000' } }),
        call<Page>('listComplianceChecks', { query: { invoice_ids: invoice.id, limit: '100' } }),
      ]);
      const byLine = new Map<string, Json[]>();
      const wholeInvoice: Json[] = [];
      for (const alert of alerts.data) {
        if (alert.invoice_item_id) byLine.set(alert.invoice_item_id, [...(byLine.get(alert.invoice_item_id) ?? []), alert]);
        else wholeInvoice.push(alert);
      }
      const agreementNames = new Map(matches.data.map((m) => [m.id, m.agreement.title ?? m.agreement.name ?? m.id]));
      return {
        title: `Invoice ${invoice.invoice_number ?? ''}`.trim(),
        invoice,
        ...shownLines(invoice.line_items, byLine, ctx.query.lines === 'all'),
        wholeInvoiceAlerts: wholeInvoice,
        alertCount: alerts.data.length,
        impact: openImpact(alerts.data),
        matches: matches.data,
        checks: checks.data,
        agreementNames: Object.fromEntries(agreementNames),
        canCheck: mayCall(credential, 'checkInvoice'),
      };
    },
  }),
  // The original file: a short-lived presigned link, after the same read as the page (tenancy).
  definePage({
    path: '/invoices/:id/original',
    nav: 'invoices',
    title: 'Original file',
    view: 'error',
    params: invoiceIdParams.catch({ id: '00000000-0000-0000-0000-000000000000' }),
    load: async ({ params, call, deps, session }) => {
      const invoice = await call<Json>('getInvoice', { params });
      if (!invoice.primary_document_id) throw errors.notFound('original file');
      const [document] = await findDocuments(deps, session.organizationId, [invoice.primary_document_id]);
      const link = await deps.storage.presignDownload(document!.storageKey, document!.fileName);
      return { redirect: link.url };
    },
  }),
);
