import { z } from 'zod';
import { ApiError, errors } from '../../http/errors.js';
import { labelsOf } from '../labels.js';
import { mayCall, type OperationResponse } from '../operations.js';
import { defineAction, definePage, type ActionResult, type WebInput } from '../page.js';
import { agreementSuggestions, firstText, pickedAgreements, pickedSuppliers, withoutKey } from '../pickers.js';
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

// Alerts: triage (GET /v1/alerts with its filters, newest open alerts first) and one alert with
// its impact and evidence, and the actions a finance person takes on it: dismiss with a reason,
// mark credited, reopen, add to a claim (an open one of its agreement, or a new one). Every
// action is the API's own command (dismissAlerts, creditAlerts, reopenAlerts, addClaimAlerts,
// createClaim); a refusal shows on the alert page with the API's code and message.

const LIST_FILTERS = [
  'statuses',
  'agreement_ids',
  'supplier_ids',
  'topic_ids',
  'search',
  'sort',
  'direction',
  'cursor',
] as const;
const CHOICES = '200';
// Newest first (the API's default), or by the time of the last change, or by impact; both ways.
export const ALERT_SORTS: SortOption[] = [
  { value: 'created_at', label: 'Found', first: 'desc' },
  { value: 'updated_at', label: 'Last changed', first: 'desc' },
  { value: 'impact_amount', label: 'Impact', first: 'desc' },
];
const DEFAULT_SORT: ListState = { sort: 'created_at', direction: 'desc' };
// Triage starts with what needs a decision; "any" shows every status.
const DEFAULT_STATUS = 'pending';
const ANY_STATUS = 'any';

// Why someone dismisses an alert; stored as the dismissal's category (free text in the API).
export const DISMISS_CATEGORIES: [string, string][] = [
  ['agreed_elsewhere', 'The price was agreed elsewhere'],
  ['not_a_deviation', 'Not a deviation from the agreement'],
  ['already_settled', 'Already settled with the supplier'],
  ['too_small', 'Too small to pursue'],
  ['other', 'Other reason'],
];

// The bulk commands' skipped[].reason, in words.
const SKIP_REASONS: Record<string, string> = {
  in_claim: 'The alert is in an open claim: change it through its claim.',
  claim_completed: 'The alert is in a completed claim and cannot change.',
  not_pending: 'Only an open (pending) alert can be dismissed or credited.',
  not_credited: 'The alert is not credited.',
  credited_by_claim: 'The credit was recorded by a claim; it changes with the claim.',
  set_aside: 'The invoice no longer matches the agreement, so the alert is set aside.',
};

const alertParams = z.object({ id: z.string().uuid() });
const formText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((value) => (value ? value : undefined));

// Everything the alert page shows, for the page and for an action that failed (shown again with
// the error above the forms).
async function alertPage({
  params,
  call,
  deps,
  credential,
}: Pick<WebInput<{ id: string }, unknown>, 'params' | 'call' | 'deps' | 'credential'>) {
  const alert = await call('getAlert', { params: { id: params.id } });
  const canWrite = mayCall(credential, 'dismissAlerts');
  const [invoice, openClaims, labels] = await Promise.all([
    call('getInvoice', { params: { id: alert.invoice_id } }),
    canWrite && alert.status === 'pending'
      ? call('listClaims', {
          query: {
            agreement_ids: alert.agreement_id,
            statuses: 'pending,in_progress',
            limit: '50',
            sort: 'updated_at',
            direction: 'desc',
          },
        })
      : Promise.resolve({ data: [], next_cursor: null }),
    labelsOf(deps, credential.organizationId, {
      agreements: [alert.agreement_id],
      suppliers: [alert.supplier_id],
      topics: [alert.topic_id],
      claims: [alert.claim_id],
    }),
  ]);
  const line = alert.invoice_item_id ? (invoice.line_items.find((l) => l.id === alert.invoice_item_id) ?? null) : null;
  return {
    title: alert.title,
    alert,
    invoice,
    line,
    labels,
    openClaims: openClaims.data,
    canWrite,
    categories: DISMISS_CATEGORIES,
    categoryLabel: Object.fromEntries(DISMISS_CATEGORIES),
  };
}

// Runs an alert action: back to the alert with a notice, or the alert page again with the refusal.
function onAlert(input: WebInput<{ id: string }, never>, act: () => Promise<string>): Promise<ActionResult> {
  return actOrShowRefusal({ view: 'alert', nav: 'alerts', load: () => alertPage(input) }, async () => ({
    redirect: `/app/alerts/${input.params.id}`,
    notice: await act(),
  }));
}

type BulkResult = OperationResponse<'dismissAlerts'>;

function refusedUnlessApplied(result: BulkResult): void {
  const skipped = result.skipped[0];
  if (skipped)
    throw new ApiError(409, skipped.reason, SKIP_REASONS[skipped.reason] ?? 'The alert cannot change this way.');
}

function commandAction(command: 'credit' | 'reopen', done: string) {
  return defineAction({
    path: `/alerts/:id/${command}`,
    level: 'write',
    params: alertParams,
    handle: (input) =>
      onAlert(input, async () => {
        refusedUnlessApplied(await input.call(`${command}Alerts`, { body: { alert_ids: [input.params.id] } }));
        return done;
      }),
  });
}

export const alertPages = [
  definePage({
    path: '/alerts',
    nav: 'alerts',
    title: 'Alerts',
    view: 'alerts',
    load: async (input) => {
      const { ctx, call, deps, credential } = input;
      const query = filledQuery(ctx.query, LIST_FILTERS);
      const pageSize = pageSizeOf(ctx.query);
      query.statuses ??= DEFAULT_STATUS;
      const [agreement, supplier] = await Promise.all([pickedAgreements(input, query), pickedSuppliers(input, query)]);
      const state = sortState(query, ALERT_SORTS, DEFAULT_SORT);
      const listed: Record<string, string> = { ...query, sort: state.sort, direction: state.direction };
      const { statuses, cursor, ...rest } = listed;
      const filter: Record<string, string> = { ...rest, ...(statuses === ANY_STATUS ? {} : { statuses }) };
      const { sort: _sort, direction: _direction, ...metricsFilter } = filter;
      const nothing = agreement.none || supplier.none;
      const singleAgreement = query.agreement_ids && !query.agreement_ids.includes(',') ? query.agreement_ids : null;
      const [page, metrics, topics] = await Promise.all([
        nothing
          ? Promise.resolve({ data: [], next_cursor: null })
          : call('listAlerts', { query: { limit: String(pageSize), ...filter, ...(cursor ? { cursor } : {}) } }),
        nothing
          ? Promise.resolve({ counts: { total: 0 }, impact: [] })
          : call('getAlertMetrics', { query: metricsFilter }),
        // Topics belong to one agreement: offered once an agreement is chosen.
        singleAgreement
          ? call('listAlertTopics', { query: { agreement_ids: singleAgreement, limit: CHOICES } })
          : Promise.resolve({ data: [], next_cursor: null }),
      ]);
      const labels = await labelsOf(deps, credential.organizationId, {
        agreements: page.data.map((a) => a.agreement_id),
        invoices: page.data.map((a) => a.invoice_id),
        suppliers: page.data.map((a) => a.supplier_id),
        topics: page.data.map((a) => a.topic_id),
      });
      // The URL names the picked agreement and supplier by the text typed, as the form does.
      let filters: Record<string, string> = { ...query, sort: state.sort, direction: state.direction };
      delete filters.cursor;
      if (agreement.text) filters = { ...withoutKey(filters, 'agreement_ids'), agreement: agreement.text };
      if (supplier.text) filters = { ...withoutKey(filters, 'supplier_ids'), supplier: supplier.text };
      filters = { ...filters, ...limitOf(pageSize) };
      return {
        alerts: page.data,
        metrics,
        labels,
        filters,
        ids: { agreement_ids: query.agreement_ids, supplier_ids: query.supplier_ids },
        agreement,
        supplier,
        topics: topics.data,
        sort: state,
        sorts: ALERT_SORTS,
        headers: Object.fromEntries(
          ALERT_SORTS.map((option) => [option.value, sortHeader('/app/alerts', filters, state, option)]),
        ),
        pager: pager('/app/alerts', filters, ctx.query, page.data.length, pageSize, page.next_cursor),
        filtered: Object.keys(filters).some(
          (key) =>
            !['sort', 'direction', 'limit'].includes(key) &&
            !(key === 'statuses' && filters.statuses === DEFAULT_STATUS),
        ),
      };
    },
  }),
  definePage({
    path: '/suggest/agreements',
    nav: null,
    title: 'Agreements',
    view: 'suggestions',
    load: async ({ ctx, call }) => ({ options: await agreementSuggestions(call, firstText(ctx.query.agreement)) }),
  }),
  definePage({
    path: '/alerts/:id',
    nav: 'alerts',
    title: 'Alert',
    view: 'alert',
    params: alertParams,
    load: alertPage,
  }),
  defineAction({
    path: '/alerts/:id/dismiss',
    level: 'write',
    params: alertParams,
    body: z.object({ category: formText(100), note: formText(5000) }),
    handle: (input) =>
      onAlert(input, async () => {
        const { category, note } = input.body;
        refusedUnlessApplied(
          await input.call('dismissAlerts', {
            body: { alert_ids: [input.params.id], category: category ?? null, note: note ?? null },
          }),
        );
        return 'Alert dismissed.';
      }),
  }),
  commandAction('credit', 'Alert marked as credited.'),
  commandAction('reopen', 'Alert reopened.'),
  defineAction({
    path: '/alerts/:id/claim',
    level: 'write',
    params: alertParams,
    // claim_id: an open claim of the alert's agreement, or "new" with a title.
    body: z.object({ claim_id: z.string().trim().max(100).default(''), title: formText(500) }),
    handle: (input) =>
      onAlert(input, async () => {
        const { claim_id: claimId, title } = input.body;
        if (claimId === 'new' || claimId === '') {
          if (!title)
            throw errors.validation('Name the new claim.', [{ field: 'title', message: 'required for a new claim' }]);
          const alert = await input.call('getAlert', { params: { id: input.params.id } });
          const claim = await input.call('createClaim', {
            body: { agreement_id: alert.agreement_id, title, alerts: { alert_ids: [input.params.id] } },
          });
          return `Alert added to the new claim ${claim.reference}.`;
        }
        const change = await input.call('addClaimAlerts', {
          params: { id: claimId },
          body: { alert_ids: [input.params.id] },
        });
        return `Alert added to claim ${change.claim.reference}.`;
      }),
  }),
];
