import { z } from 'zod';
import { CLAIM_STATUSES, type ClaimStatus } from '../../claims/schemas.js';
import { changeStatus } from '../../claims/state-machine.js';
import { labelsOf } from '../labels.js';
import { callOperation, mayCall } from '../operations.js';
import { defineAction, defineDownload, definePage, type WebFile, type WebInput } from '../page.js';
import { filledQuery, listUrl } from '../query.js';
import { actOrShowRefusal } from '../refusal.js';

// Claims: the list (GET /v1/claims with its filters) and one claim with its alerts, totals per
// currency, refunds (record one), credit notes, the status changes its state machine allows, and
// the letter for the supplier (the API's export: PDF, XLSX or CSV).

type Row = Record<string, any>;
type Page<T = Row> = { data: T[]; next_cursor: string | null };

const LIST_FILTERS = ['search', 'statuses', 'agreement_ids', 'sort', 'direction', 'cursor'] as const;
const ALERT_PAGE = '100';

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
const formText = (max: number) => z.string().trim().max(max).optional().transform((value) => (value ? value : undefined));

async function claimPage({ params, ctx, call, deps, credential }: Pick<WebInput<{ id: string }, unknown>, 'params' | 'ctx' | 'call' | 'deps' | 'credential'>) {
  const claim = await call<Row>('getClaim', { params: { id: params.id } });
  const alertsCursor = filledQuery(ctx.query, ['alerts_cursor']).alerts_cursor;
  const alerts = await call<Page>('listAlerts', { query: { claim_ids: params.id, limit: ALERT_PAGE, ...(alertsCursor ? { cursor: alertsCursor } : {}) } });
  const labels = await labelsOf(deps, credential.organizationId, {
    agreements: [claim.agreement_id],
    suppliers: [claim.supplier_id],
    invoices: alerts.data.map((a) => a.invoice_id),
  });
  const self = `/app/claims/${params.id}`;
  const canWrite = mayCall(credential, 'updateClaim');
  const claimedCurrency = (claim.summary.claimed as { currency_code: string | null }[])[0]?.currency_code ?? 'EUR';
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
    refundCurrency: claimedCurrency,
    today: new Date().toISOString().slice(0, 10),
  };
}

function onClaim(input: WebInput<{ id: string }, never>, act: () => Promise<string>) {
  return actOrShowRefusal({ view: 'claim', nav: 'claims', load: () => claimPage(input) }, async () => ({ redirect: `/app/claims/${input.params.id}`, notice: await act() }));
}

export const claimPages = [
  definePage({
    path: '/claims',
    nav: 'claims',
    title: 'Claims',
    view: 'claims',
    load: async ({ ctx, call, deps, credential }) => {
      const query = filledQuery(ctx.query, LIST_FILTERS);
      const [page, agreements] = await Promise.all([
        call<Page>('listClaims', { query: { limit: '50', ...query } }),
        call<Page>('listAgreements', { query: { limit: '200' } }),
      ]);
      const labels = await labelsOf(deps, credential.organizationId, { agreements: page.data.map((c) => c.agreement_id), suppliers: page.data.map((c) => c.supplier_id) });
      const { cursor: _cursor, ...filters } = query;
      return {
        claims: page.data,
        labels,
        filters,
        agreements: agreements.data,
        nextUrl: page.next_cursor ? listUrl('/app/claims', filters, { cursor: page.next_cursor }) : null,
        firstUrl: query.cursor ? listUrl('/app/claims', filters) : null,
        filtered: Object.keys(filters).some((key) => !['sort', 'direction'].includes(key)),
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
  // The letter for the supplier: the API's export, as a file.
  defineDownload({
    path: '/claims/:id/export',
    params: claimParams,
    query: z.object({ format: z.enum(['pdf', 'xlsx', 'csv']).default('pdf') }).passthrough(),
    file: async ({ params, query, deps, ctx, credential }) => {
      const result = await callOperation(deps, ctx, credential, 'exportClaim', { params: { id: params.id }, query: { format: query.format } });
      const fileName = /filename="([^"]+)"/.exec(result.headers['Content-Disposition'] ?? '')?.[1] ?? `claim.${query.format}`;
      return { body: result.body as WebFile['body'], contentType: result.headers['Content-Type'] ?? 'application/octet-stream', fileName };
    },
  }),
  defineAction({
    path: '/claims/:id/status',
    level: 'write',
    params: claimParams,
    body: z.object({ status: z.enum(CLAIM_STATUSES) }),
    handle: (input) =>
      onClaim(input, async () => {
        const claim = await input.call<Row>('updateClaim', { params: { id: input.params.id }, body: { status: input.body.status } });
        return `The claim is ${String(claim.status).replace('_', ' ')}.`;
      }),
  }),
  defineAction({
    path: '/claims/:id/refunds',
    level: 'write',
    params: claimParams,
    body: z.object({ amount: z.string().trim().max(40), currency_code: z.string().trim().toUpperCase().max(3), date: formText(10), reference: formText(200), note: formText(5000) }),
    handle: (input) =>
      onClaim(input, async () => {
        const { amount, currency_code, date, reference, note } = input.body;
        await input.call('createClaimRefund', { params: { id: input.params.id }, body: { amount, currency_code, ...(date ? { date } : {}), reference: reference ?? null, note: note ?? null } });
        return 'Refund recorded.';
      }),
  }),
  defineAction({
    path: '/claims/:id/alerts/remove',
    level: 'write',
    params: claimParams,
    body: z.object({ alert_id: z.string().trim().max(100) }),
    handle: (input) =>
      onClaim(input, async () => {
        await input.call('removeClaimAlerts', { params: { id: input.params.id }, body: { alert_ids: [input.body.alert_id] } });
        return 'Alert removed from the claim; it is open again.';
      }),
  }),
];
