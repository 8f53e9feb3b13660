import { createHash } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { z } from 'zod';
import { CLAIM_STATUSES, type ClaimStatus } from '../../claims/schemas.js';
import { changeStatus } from '../../claims/state-machine.js';
import { errors } from '../../http/errors.js';
import { formatterFor, readAmount, type Formatter } from '../format.js';
import { labelsOf } from '../labels.js';
import { callOperation, mayCall, type OperationResponse } from '../operations.js';
import { defineAction, defineDownload, definePage, type WebInput } from '../page.js';
import { firstText, pickedAgreements, withoutKey } from '../pickers.js';
import {
  filledQuery,
  limitOf,
  pageSizeOf,
  listUrl,
  pager,
  sortHeader,
  sortState,
  type ListState,
  type SortOption,
} from '../query.js';
import { actOrShowRefusal } from '../refusal.js';
import { MAX_RENDERED_PAGE, pdfInfo, renderedPage } from '../review-page-images.js';
import { requestLocale, type Texts } from '../texts/index.js';

// Claims: the list (GET /v1/claims with its filters) and one claim with its alerts, totals per
// currency, refunds (record one), credit notes, the status changes its state machine allows, and
// the letter for the supplier (the API's export: PDF, XLSX or CSV).

const LIST_FILTERS = ['search', 'statuses', 'agreement_ids', 'sort', 'direction', 'cursor'] as const;
const ALERT_PAGE = '100';
// The list's sorts, both ways: newest first by default (the API's).
const claimListSorts = (t: Texts): SortOption[] => [
  { value: 'created_at', label: t.claims.sorts.created_at!, first: 'desc' },
  { value: 'updated_at', label: t.claims.sorts.updated_at!, first: 'desc' },
  { value: 'reference', label: t.claims.sorts.reference!, first: 'desc' },
  { value: 'title', label: t.claims.sorts.title!, first: 'asc' },
];
const DEFAULT_SORT: ListState = { sort: 'created_at', direction: 'desc' };

// The buttons' style for each status change (their words: t.claims.statusActions).
const STATUS_STYLES: Record<ClaimStatus, string> = {
  pending: 'secondary',
  in_progress: 'secondary',
  completed: '',
  cancelled: 'danger',
};

// The changes the claim state machine accepts from this status (src/claims/state-machine.ts).
export function allowedChanges(
  from: ClaimStatus,
  t: Texts['claims'],
): { status: ClaimStatus; label: string; style: string }[] {
  const now = new Date();
  return CLAIM_STATUSES.filter((to) => changeStatus(from, to, now).outcome === 'updated').map((to) => ({
    status: to,
    style: STATUS_STYLES[to],
    label: to === 'in_progress' && (from === 'completed' || from === 'cancelled') ? t.reopen : t.statusActions[to]!,
  }));
}

const claimParams = z.object({ id: z.string().uuid() });
type Caller = WebInput<unknown, unknown>['call'];
const formText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((value) => (value ? value : undefined));

async function claimPage({
  params,
  ctx,
  call,
  deps,
  credential,
  t,
}: Pick<WebInput<{ id: string }, unknown>, 'params' | 'ctx' | 'call' | 'deps' | 'credential' | 't'>) {
  const claim = await call('getClaim', { params: { id: params.id } });
  const alertsCursor = filledQuery(ctx.query, ['alerts_cursor']).alerts_cursor;
  const alerts = await call('listAlerts', {
    query: { claim_ids: params.id, limit: ALERT_PAGE, ...(alertsCursor ? { cursor: alertsCursor } : {}) },
  });
  const labels = await labelsOf(deps, credential.organizationId, {
    agreements: [claim.agreement_id],
    suppliers: [claim.supplier_id],
    invoices: alerts.data.map((a) => a.invoice_id),
  });
  const self = `/app/claims/${params.id}`;
  const canWrite = mayCall(credential, 'updateClaim');
  const currencies = claimCurrencies(claim);
  const creditNotes = canWrite
    ? await creditNoteChoices(call, t, claim, ctx.query, formatterFor(requestLocale(ctx)).money)
    : null;
  return {
    title: `${claim.reference} · ${claim.title}`,
    claim,
    alerts: alerts.data,
    alertsNextUrl: alerts.next_cursor ? listUrl(self, {}, { alerts_cursor: alerts.next_cursor }) : null,
    alertsFirstUrl: alertsCursor ? self : null,
    labels,
    canWrite,
    statusChanges: canWrite ? allowedChanges(claim.status, t.claims) : [],
    open: claim.status === 'pending' || claim.status === 'in_progress',
    // A refund is in a currency the claim claims (the API refuses others): the form offers those.
    currencies,
    refundCurrency: currencies[0] ?? null,
    today: new Date().toISOString().slice(0, 10),
    creditNotes,
    letterUrl: letterPdfUrl(params.id, {}),
    letterFirstPage: letterPageUrl(params.id, 1, {}),
    shortcuts: t.claim,
  };
}

// The credit-note picker: the organization's credit notes from the claim's supplier (the API
// refuses others), newest first, narrowed by a typed number or name; those already attached left out.
const CREDIT_NOTE_CHOICES = 50;
async function creditNoteChoices(
  call: Caller,
  t: Texts,
  claim: OperationResponse<'getClaim'>,
  query: Record<string, unknown>,
  money: Formatter['money'],
) {
  const search = firstText(query.credit_note_search);
  const page = await call('listInvoices', {
    query: {
      document_types: 'credit_note',
      limit: String(CREDIT_NOTE_CHOICES),
      sort: 'issue_date',
      direction: 'desc',
      fields: 'id,invoice_number,issue_date,amounts.currency_code,amounts.including_vat,supplier.name',
      ...(claim.supplier_id ? { supplier_ids: claim.supplier_id } : {}),
      ...(search ? { search } : {}),
    },
  });
  const attached = new Set(claim.credit_notes.map((n) => n.invoice_id));
  return {
    search,
    more: page.next_cursor !== null,
    choices: page.data
      .filter((invoice) => !attached.has(invoice.id))
      .map((invoice) => ({
        id: invoice.id,
        label: [
          invoice.invoice_number || t.claims.withoutNumber,
          invoice.issue_date,
          invoice.amounts?.including_vat
            ? money(invoice.amounts.including_vat.replace(/^-/, ''), invoice.amounts.currency_code)
            : null,
          claim.supplier_id ? null : invoice.supplier?.name,
        ]
          .filter(Boolean)
          .join(' · '),
      })),
  };
}

// The letter as the API's export renders it, shown in the browser (the preview's frame).
function letterPdfUrl(id: string, options: LetterOptions): string {
  return listUrl(`/app/claims/${id}/letter.pdf`, letterQuery(options));
}
interface LetterOptions {
  include_pending?: boolean;
  include_credited?: boolean;
}
const letterQuery = (options: LetterOptions): Record<string, string> => ({
  ...(options.include_pending ? { include_pending: 'true' } : {}),
  ...(options.include_credited ? { include_credited: 'true' } : {}),
});
const letterFlags = {
  include_pending: z.enum(['true', 'false']).optional(),
  include_credited: z.enum(['true', 'false']).optional(),
};
const flagsOf = (q: { include_pending?: string; include_credited?: string }) => ({
  include_pending: q.include_pending === 'true',
  include_credited: q.include_credited === 'true',
});
const letterOptions = z.object(letterFlags).passthrough().transform(flagsOf);
const exportQuery = z
  .object({ format: z.enum(['pdf', 'xlsx', 'csv']).default('pdf'), ...letterFlags })
  .passthrough()
  .transform((q) => ({ format: q.format, ...flagsOf(q) }));

async function claimExport(
  input: Pick<WebInput<{ id: string }, unknown>, 'params' | 'deps' | 'ctx' | 'credential' | 'call'>,
  format: 'pdf' | 'xlsx' | 'csv',
  options: LetterOptions,
) {
  const { params, deps, ctx, credential, call } = input;
  // The claim first: its reference names the file (the letter's own name), and a claim of
  // another organization is the API's 404 before any letter is made.
  const claim = await call('getClaim', { params: { id: params.id } });
  const result = await callOperation(deps, ctx, credential, 'exportClaim', {
    params: { id: params.id },
    query: { format, ...letterQuery(options) },
  });
  return {
    body: result.body,
    contentType: result.headers['Content-Type'] ?? 'application/octet-stream',
    fileName: `${claim.reference}.${format}`,
  };
}

// The letter shown as images of its pages (poppler, as the review page shows an original): a PDF
// in a frame is an empty dark box in browsers without a PDF viewer (Android's, embedded ones). The
// letter is made anew for each request, so its render is cached by the PDF's digest.
async function letterPdf(
  input: Pick<WebInput<{ id: string }, unknown>, 'params' | 'deps' | 'ctx' | 'credential' | 'call'>,
  options: LetterOptions,
) {
  const { body } = await claimExport(input, 'pdf', options);
  const pdf = Buffer.isBuffer(body) ? body : typeof body === 'string' ? Buffer.from(body) : await buffer(body);
  return { pdf, key: `claim-letter:${createHash('sha256').update(pdf).digest('hex')}` };
}
const LETTER_PAGE_WIDTH = 1200;
function letterPageUrl(id: string, page: number, options: LetterOptions): string {
  return listUrl(`/app/claims/${id}/letter/pages/${page}`, letterQuery(options));
}

// The currencies of the claim's alerts (claimed first), from the claim's own summary.
function claimCurrencies(claim: OperationResponse<'getClaim'>): string[] {
  const found: string[] = [];
  for (const key of ['claimed', 'pending', 'credited', 'dismissed'] as const) {
    for (const money of claim.summary[key]) {
      if (money.currency_code && !found.includes(money.currency_code)) found.push(money.currency_code);
    }
  }
  return found;
}

// The form's amount as the API's decimal string; a text that is no amount is refused like the API does.
function amountOf(t: Texts, text: string): string {
  const read = readAmount(text);
  if (!read.ok)
    throw errors.validation(t.claims.amountRefused(read.message), [{ field: 'amount', message: read.message }]);
  return read.value;
}

const refundForm = z.object({
  amount: z.string().trim().max(40),
  currency_code: z.string().trim().toUpperCase().max(3),
  date: formText(10),
  reference: formText(200),
  note: formText(5000),
});
const refundParams = z.object({ id: z.string().uuid(), refund_id: z.string().uuid() });

function onClaim(input: WebInput<{ id: string }, never>, act: (t: Texts['claims']) => Promise<string>) {
  return actOrShowRefusal({ view: 'claim', nav: 'claims', load: () => claimPage(input) }, async () => ({
    redirect: `/app/claims/${input.params.id}`,
    notice: await act(input.t.claims),
  }));
}

export const claimPages = [
  definePage({
    path: '/claims',
    nav: 'claims',
    title: (t) => t.claims.listTitle,
    view: 'claims',
    load: async (input) => {
      const { ctx, call, deps, credential, t } = input;
      const sorts = claimListSorts(t);
      const query = filledQuery(ctx.query, LIST_FILTERS);
      const pageSize = pageSizeOf(ctx.query);
      const agreement = await pickedAgreements(input, query);
      const state = sortState(query, sorts, DEFAULT_SORT);
      const listed: Record<string, string> = { ...query, sort: state.sort, direction: state.direction };
      const { cursor, ...filter } = listed;
      const { sort: _sort, direction: _direction, ...metricsFilter } = filter;
      const [page, metrics] = await Promise.all([
        agreement.none
          ? Promise.resolve({ data: [], next_cursor: null })
          : call('listClaims', { query: { limit: String(pageSize), ...filter, ...(cursor ? { cursor } : {}) } }),
        agreement.none ? Promise.resolve({ counts: { total: 0 } }) : call('getClaimMetrics', { query: metricsFilter }),
      ]);
      const labels = await labelsOf(deps, credential.organizationId, {
        agreements: page.data.map((c) => c.agreement_id),
        suppliers: page.data.map((c) => c.supplier_id),
      });
      const filters = {
        ...(agreement.text ? { ...withoutKey(filter, 'agreement_ids'), agreement: agreement.text } : filter),
        ...limitOf(pageSize),
      };
      return {
        claims: page.data,
        labels,
        filters,
        agreementIds: query.agreement_ids,
        agreement,
        total: metrics.counts.total,
        sort: state,
        sorts,
        headers: Object.fromEntries(
          sorts.map((option) => [option.value, sortHeader('/app/claims', filters, state, option)]),
        ),
        pager: pager('/app/claims', filters, ctx.query, page.data.length, pageSize, page.next_cursor),
        filtered: Object.keys(filters).some((key) => !['sort', 'direction', 'limit'].includes(key)),
      };
    },
  }),
  definePage({
    path: '/claims/:id',
    nav: 'claims',
    title: (t) => t.claims.pageTitle,
    view: 'claim',
    params: claimParams,
    load: claimPage,
  }),
  // The letter for the supplier: the API's export, as a file (include_pending / include_credited
  // as the API takes them).
  defineDownload({
    path: '/claims/:id/export',
    params: claimParams,
    query: exportQuery,
    file: (input) => claimExport(input, input.query.format, input.query),
  }),
  // The same PDF shown in the preview's frame.
  defineDownload({
    path: '/claims/:id/letter.pdf',
    params: claimParams,
    query: letterOptions,
    file: async (input) => ({ ...(await claimExport(input, 'pdf', input.query)), inline: true }),
  }),
  // A page of the letter as an image, with the preview's options.
  defineDownload({
    path: '/claims/:id/letter/pages/:page',
    params: z.object({ id: z.string().uuid(), page: z.coerce.number().int().min(1).max(MAX_RENDERED_PAGE) }),
    query: letterOptions,
    file: async (input) => {
      const { pdf, key } = await letterPdf(input, input.query);
      const png = await renderedPage(key, input.params.page, async () => pdf);
      return { body: png, contentType: 'image/png', fileName: `letter-page-${input.params.page}.png`, inline: true };
    },
  }),
  // The letter's preview: the PDF the export renders, as images of its pages, with the export's
  // options.
  definePage({
    path: '/claims/:id/letter',
    nav: 'claims',
    title: (t) => t.claims.letterTitle,
    view: 'claim-letter',
    params: claimParams,
    query: letterOptions,
    load: async (input) => {
      const { params, query, call, t } = input;
      const claim = await call('getClaim', { params: { id: params.id } });
      const options = letterQuery(query);
      const { pdf, key } = await letterPdf(input, query);
      const info = await pdfInfo(key, async () => pdf);
      const pages = Math.min(info.pages, MAX_RENDERED_PAGE);
      return {
        title: t.claims.letterPageTitle(claim.reference),
        claim,
        options: query,
        previewUrl: letterPdfUrl(params.id, query),
        pageUrls: Array.from({ length: pages }, (_, i) => letterPageUrl(params.id, i + 1, query)),
        // The pictures' proportions, so the page keeps its place while they load.
        pageHeight: Math.round((LETTER_PAGE_WIDTH * info.height) / info.width),
        pageWidth: LETTER_PAGE_WIDTH,
        downloads: (['pdf', 'xlsx', 'csv'] as const).map((format) => ({
          format,
          url: listUrl(`/app/claims/${params.id}/export`, { format, ...options }),
        })),
      };
    },
  }),
  // A credit note of the organization attached as evidence (the API's attachClaimCreditNote);
  // create_refund also records its amount as a refund.
  defineAction({
    path: '/claims/:id/credit-notes',
    level: 'write',
    params: claimParams,
    body: z.object({
      invoice_id: z.string().trim().max(100).default(''),
      create_refund: z.literal('true').optional(),
    }),
    handle: (input) =>
      onClaim(input, async (t) => {
        if (!input.body.invoice_id)
          throw errors.validation(t.pickCreditNote, [{ field: 'invoice_id', message: t.pickCreditNoteField }]);
        const claim = await input.call('attachClaimCreditNote', {
          params: { id: input.params.id },
          body: { invoice_id: input.body.invoice_id, create_refund: input.body.create_refund === 'true' },
        });
        const note = claim.credit_notes.find((n) => n.invoice_id === input.body.invoice_id);
        const name = note?.invoice_number ?? t.theCreditNote;
        return input.body.create_refund ? t.creditNoteRefunded(name) : t.creditNoteAttached(name);
      }),
  }),
  defineAction({
    path: '/claims/:id/credit-notes/:invoice_id/detach',
    level: 'write',
    params: z.object({ id: z.string().uuid(), invoice_id: z.string().uuid() }),
    handle: (input) =>
      onClaim(input, async (t) => {
        await input.call('detachClaimCreditNote', {
          params: { id: input.params.id, invoice_id: input.params.invoice_id },
        });
        return t.creditNoteDetached;
      }),
  }),
  defineAction({
    path: '/claims/:id/status',
    level: 'write',
    params: claimParams,
    body: z.object({ status: z.enum(CLAIM_STATUSES) }),
    handle: (input) =>
      onClaim(input, async (t) => {
        const claim = await input.call('updateClaim', {
          params: { id: input.params.id },
          body: { status: input.body.status },
        });
        const status = String(claim.status);
        return t.statusChanged(t.statusWords[status] ?? status.replace('_', ' '));
      }),
  }),
  defineAction({
    path: '/claims/:id/refunds',
    level: 'write',
    params: claimParams,
    body: refundForm,
    handle: (input) =>
      onClaim(input, async (t) => {
        const { amount, currency_code, date, reference, note } = input.body;
        await input.call('createClaimRefund', {
          params: { id: input.params.id },
          body: {
            amount: amountOf(input.t, amount),
            currency_code,
            ...(date ? { date } : {}),
            reference: reference ?? null,
            note: note ?? null,
          },
        });
        return t.refundRecorded;
      }),
  }),
  // Correct a refund (the API's updateClaimRefund): the form sends every field it shows.
  defineAction({
    path: '/claims/:id/refunds/:refund_id',
    level: 'write',
    params: refundParams,
    body: refundForm,
    handle: (input) =>
      onClaim(input, async (t) => {
        const { amount, currency_code, date, reference, note } = input.body;
        await input.call('updateClaimRefund', {
          params: { id: input.params.id, refund_id: input.params.refund_id },
          body: {
            amount: amountOf(input.t, amount),
            currency_code,
            ...(date ? { date } : {}),
            reference: reference ?? null,
            ...(note !== undefined ? { note } : {}),
          },
        });
        return t.refundCorrected;
      }),
  }),
  defineAction({
    path: '/claims/:id/refunds/:refund_id/delete',
    level: 'write',
    params: refundParams,
    handle: (input) =>
      onClaim(input, async (t) => {
        await input.call('deleteClaimRefund', { params: { id: input.params.id, refund_id: input.params.refund_id } });
        return t.refundDeleted;
      }),
  }),
  defineAction({
    path: '/claims/:id/alerts/remove',
    level: 'write',
    params: claimParams,
    body: z.object({ alert_id: z.string().trim().max(100) }),
    handle: (input) =>
      onClaim(input, async (t) => {
        await input.call('removeClaimAlerts', {
          params: { id: input.params.id },
          body: { alert_ids: [input.body.alert_id] },
        });
        return t.alertRemoved;
      }),
  }),
];
