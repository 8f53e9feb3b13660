import { createHash } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { z } from 'zod';
import { CLAIM_STATUSES, type ClaimStatus } from '../../claims/schemas.js';
import { changeStatus } from '../../claims/state-machine.js';
import { errors } from '../../http/errors.js';
import { money, readAmount } from '../format.js';
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
import { texts } from '../texts/index.js';

// Claims: the list (GET /v1/claims with its filters) and one claim with its alerts, totals per
// currency, refunds (record one), credit notes, the status changes its state machine allows, and
// the letter for the supplier (the API's export: PDF, XLSX or CSV).

const LIST_FILTERS = ['search', 'statuses', 'agreement_ids', 'sort', 'direction', 'cursor'] as const;
const ALERT_PAGE = '100';
// The list's sorts, both ways: newest first by default (the API's).
const CLAIM_LIST_SORTS: SortOption[] = [
  { value: 'created_at', label: 'Created', first: 'desc' },
  { value: 'updated_at', label: 'Last changed', first: 'desc' },
  { value: 'reference', label: 'Reference', first: 'desc' },
  { value: 'title', label: 'Title', first: 'asc' },
];
const DEFAULT_SORT: ListState = { sort: 'created_at', direction: 'desc' };

// The buttons for each status change, in the words of someone working a claim.
const STATUS_ACTIONS: Record<ClaimStatus, { label: string; style: string }> = {
  pending: { label: 'Back to pending', style: 'secondary' },
  in_progress: { label: 'Mark in progress', style: 'secondary' },
  completed: { label: 'Mark completed', style: '' },
  cancelled: { label: 'Cancel claim', style: 'danger' },
};
const REOPEN_LABEL = 'Reopen (in progress)';

// The changes the claim state machine accepts from this status (src/claims/state-machine.ts).
export function allowedChanges(from: ClaimStatus): { status: ClaimStatus; label: string; style: string }[] {
  const now = new Date();
  return CLAIM_STATUSES.filter((to) => changeStatus(from, to, now).outcome === 'updated').map((to) => ({
    status: to,
    ...STATUS_ACTIONS[to],
    ...(to === 'in_progress' && (from === 'completed' || from === 'cancelled') ? { label: REOPEN_LABEL } : {}),
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
}: Pick<WebInput<{ id: string }, unknown>, 'params' | 'ctx' | 'call' | 'deps' | 'credential'>) {
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
  const creditNotes = canWrite ? await creditNoteChoices(call, claim, ctx.query) : null;
  return {
    title: `${claim.reference} · ${claim.title}`,
    claim,
    alerts: alerts.data,
    alertsNextUrl: alerts.next_cursor ? listUrl(self, {}, { alerts_cursor: alerts.next_cursor }) : null,
    alertsFirstUrl: alertsCursor ? self : null,
    labels,
    canWrite,
    statusChanges: canWrite ? allowedChanges(claim.status) : [],
    open: claim.status === 'pending' || claim.status === 'in_progress',
    // A refund is in a currency the claim claims (the API refuses others): the form offers those.
    currencies,
    refundCurrency: currencies[0] ?? null,
    today: new Date().toISOString().slice(0, 10),
    creditNotes,
    letterUrl: letterPdfUrl(params.id, {}),
    letterFirstPage: letterPageUrl(params.id, 1, {}),
    shortcuts: texts.claim,
  };
}

// The credit-note picker: the organization's credit notes from the claim's supplier (the API
// refuses others), newest first, narrowed by a typed number or name; those already attached left out.
const CREDIT_NOTE_CHOICES = 50;
async function creditNoteChoices(call: Caller, claim: OperationResponse<'getClaim'>, query: Record<string, unknown>) {
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
          invoice.invoice_number || 'Without number',
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
function amountOf(text: string): string {
  const read = readAmount(text);
  if (!read.ok) throw errors.validation(`The amount ${read.message}.`, [{ field: 'amount', message: read.message }]);
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

function onClaim(input: WebInput<{ id: string }, never>, act: () => Promise<string>) {
  return actOrShowRefusal({ view: 'claim', nav: 'claims', load: () => claimPage(input) }, async () => ({
    redirect: `/app/claims/${input.params.id}`,
    notice: await act(),
  }));
}

export const claimPages = [
  definePage({
    path: '/claims',
    nav: 'claims',
    title: 'Claims',
    view: 'claims',
    load: async (input) => {
      const { ctx, call, deps, credential } = input;
      const query = filledQuery(ctx.query, LIST_FILTERS);
      const pageSize = pageSizeOf(ctx.query);
      const agreement = await pickedAgreements(input, query);
      const state = sortState(query, CLAIM_LIST_SORTS, DEFAULT_SORT);
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
        sorts: CLAIM_LIST_SORTS,
        headers: Object.fromEntries(
          CLAIM_LIST_SORTS.map((option) => [option.value, sortHeader('/app/claims', filters, state, option)]),
        ),
        pager: pager('/app/claims', filters, ctx.query, page.data.length, pageSize, page.next_cursor),
        filtered: Object.keys(filters).some((key) => !['sort', 'direction', 'limit'].includes(key)),
      };
    },
  }),
  definePage({
    path: '/claims/:id',
    nav: 'claims',
    title: 'Claim',
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
    title: 'Letter',
    view: 'claim-letter',
    params: claimParams,
    query: letterOptions,
    load: async (input) => {
      const { params, query, call } = input;
      const claim = await call('getClaim', { params: { id: params.id } });
      const options = letterQuery(query);
      const { pdf, key } = await letterPdf(input, query);
      const info = await pdfInfo(key, async () => pdf);
      const pages = Math.min(info.pages, MAX_RENDERED_PAGE);
      return {
        title: `${claim.reference} · letter`,
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
      onClaim(input, async () => {
        if (!input.body.invoice_id)
          throw errors.validation('Pick the credit note to attach.', [
            { field: 'invoice_id', message: 'pick a credit note' },
          ]);
        const claim = await input.call('attachClaimCreditNote', {
          params: { id: input.params.id },
          body: { invoice_id: input.body.invoice_id, create_refund: input.body.create_refund === 'true' },
        });
        const note = claim.credit_notes.find((n) => n.invoice_id === input.body.invoice_id);
        const name = note?.invoice_number ?? 'the credit note';
        return input.body.create_refund
          ? `Credit note ${name} attached and its amount recorded as a refund.`
          : `Credit note ${name} attached as evidence.`;
      }),
  }),
  defineAction({
    path: '/claims/:id/credit-notes/:invoice_id/detach',
    level: 'write',
    params: z.object({ id: z.string().uuid(), invoice_id: z.string().uuid() }),
    handle: (input) =>
      onClaim(input, async () => {
        await input.call('detachClaimCreditNote', {
          params: { id: input.params.id, invoice_id: input.params.invoice_id },
        });
        return 'Credit note detached; refunds recorded from it stay.';
      }),
  }),
  defineAction({
    path: '/claims/:id/status',
    level: 'write',
    params: claimParams,
    body: z.object({ status: z.enum(CLAIM_STATUSES) }),
    handle: (input) =>
      onClaim(input, async () => {
        const claim = await input.call('updateClaim', {
          params: { id: input.params.id },
          body: { status: input.body.status },
        });
        return `The claim is ${String(claim.status).replace('_', ' ')}.`;
      }),
  }),
  defineAction({
    path: '/claims/:id/refunds',
    level: 'write',
    params: claimParams,
    body: refundForm,
    handle: (input) =>
      onClaim(input, async () => {
        const { amount, currency_code, date, reference, note } = input.body;
        await input.call('createClaimRefund', {
          params: { id: input.params.id },
          body: {
            amount: amountOf(amount),
            currency_code,
            ...(date ? { date } : {}),
            reference: reference ?? null,
            note: note ?? null,
          },
        });
        return 'Refund recorded.';
      }),
  }),
  // Correct a refund (the API's updateClaimRefund): the form sends every field it shows.
  defineAction({
    path: '/claims/:id/refunds/:refund_id',
    level: 'write',
    params: refundParams,
    body: refundForm,
    handle: (input) =>
      onClaim(input, async () => {
        const { amount, currency_code, date, reference, note } = input.body;
        await input.call('updateClaimRefund', {
          params: { id: input.params.id, refund_id: input.params.refund_id },
          body: {
            amount: amountOf(amount),
            currency_code,
            ...(date ? { date } : {}),
            reference: reference ?? null,
            ...(note !== undefined ? { note } : {}),
          },
        });
        return 'Refund corrected.';
      }),
  }),
  defineAction({
    path: '/claims/:id/refunds/:refund_id/delete',
    level: 'write',
    params: refundParams,
    handle: (input) =>
      onClaim(input, async () => {
        await input.call('deleteClaimRefund', { params: { id: input.params.id, refund_id: input.params.refund_id } });
        return 'Refund deleted.';
      }),
  }),
  defineAction({
    path: '/claims/:id/alerts/remove',
    level: 'write',
    params: claimParams,
    body: z.object({ alert_id: z.string().trim().max(100) }),
    handle: (input) =>
      onClaim(input, async () => {
        await input.call('removeClaimAlerts', {
          params: { id: input.params.id },
          body: { alert_ids: [input.body.alert_id] },
        });
        return 'Alert removed from the claim; it is open again.';
      }),
  }),
];
