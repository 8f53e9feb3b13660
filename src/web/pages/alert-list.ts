import { labelsOf } from '../labels.js';
import { mayCall, type OperationInput } from '../operations.js';
import type { WebInput } from '../page.js';
import { pickedAgreements, pickedSuppliers, withoutKey } from '../pickers.js';
import {
  filledQuery,
  limitOf,
  listUrl,
  pageSizeOf,
  pager,
  sortHeader,
  sortState,
  type ListState,
  type SortOption,
} from '../query.js';
import type { Refusal } from '../refusal.js';
import type { Texts } from '../texts/index.js';

// The alerts list (triage): GET /v1/alerts with its filters, newest open alerts first, and for a
// Write member the bulk form around it (select alerts on the page, or every alert the filter
// matches, and act on them with the API's bulk commands: pages/alert-triage.ts). The bulk action
// renders this same list again with its outcome, so both read it here.

type ListInput = Pick<WebInput<unknown, unknown>, 'ctx' | 'call' | 'deps' | 'credential' | 'session' | 't'>;

export const LIST_FILTERS = [
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
// Open claims offered by the "add to an existing claim" picker.
const CLAIM_CHOICES = '50';
// Newest first (the API's default), or by the time of the last change, or by impact; both ways.
export const alertSorts = (t: Texts): SortOption[] => [
  { value: 'created_at', label: t.alerts.sorts.created_at!, first: 'desc' },
  { value: 'updated_at', label: t.alerts.sorts.updated_at!, first: 'desc' },
  { value: 'impact_amount', label: t.alerts.sorts.impact_amount!, first: 'desc' },
];
const DEFAULT_SORT: ListState = { sort: 'created_at', direction: 'desc' };
// Triage starts with what needs a decision; "any" shows every status.
export const DEFAULT_STATUS = 'pending';
export const ANY_STATUS = 'any';

// Why someone dismisses an alert; stored as the dismissal's category (free text in the API). The
// words are the request's (t.codes.dismissCategories).
export const DISMISS_CATEGORIES = ['agreed_elsewhere', 'not_a_deviation', 'already_settled', 'too_small', 'other'];

// The list's filters as the API reads them, once the pickers' texts are resolved to ids.
export async function resolvedAlertQuery(input: ListInput) {
  const query = filledQuery(input.ctx.query, LIST_FILTERS);
  query.statuses ??= DEFAULT_STATUS;
  const [agreement, supplier] = await Promise.all([pickedAgreements(input, query), pickedSuppliers(input, query)]);
  const state = sortState(query, alertSorts(input.t), DEFAULT_SORT);
  const { statuses, cursor, sort: _sort, direction: _direction, ...rest } = query;
  // The filter of the list, of its totals and of the bulk commands (no sort, no cursor).
  const filter: Record<string, string> = { ...rest, ...(statuses === ANY_STATUS ? {} : { statuses }) };
  return { query, agreement, supplier, state, filter, cursor, nothing: agreement.none || supplier.none };
}

type BulkFilter = NonNullable<NonNullable<OperationInput<'dismissAlerts'>['body']>['filter']>;

// The list's filter as a bulk command's JSON `filter`, or null when the API would refuse it: a
// bulk filter must name an agreement, invoice, topic or claim (the spec's rule), so "every alert
// matching" is offered once an agreement or a topic is chosen.
export function bulkFilterOf(filter: Record<string, string>): BulkFilter | null {
  if (!filter.agreement_ids && !filter.topic_ids) return null;
  const list = (value: string | undefined) => (value ? value.split(',') : undefined);
  const body: BulkFilter = {
    agreement_ids: list(filter.agreement_ids),
    supplier_ids: list(filter.supplier_ids),
    topic_ids: list(filter.topic_ids)?.map((id) => (id === 'null' ? null : id)),
    statuses: list(filter.statuses) as BulkFilter['statuses'],
    search: filter.search,
  };
  for (const key of Object.keys(body) as (keyof BulkFilter)[]) if (body[key] === undefined) delete body[key];
  return body;
}

// What the bulk form keeps when it is shown again (a refusal keeps the input; an outcome keeps the
// scope and the claim picked).
export interface BulkForm {
  selected: string[];
  scope: 'selected' | 'filter';
  category?: string;
  note?: string;
  claimId?: string;
  title?: string;
}

export interface BulkOutcome {
  // What happened, in words ("3 alerts dismissed.").
  message: string;
  claim: { id: string; reference: string } | null;
  // Alerts the command left alone, and why (the API's skipped[] or a 409's details).
  refused: { id: string; reason: string; message: string }[];
  refusedCount: number;
}

export async function alertListData(
  input: ListInput,
  shown: { form?: BulkForm; outcome?: BulkOutcome; refusal?: Refusal } = {},
) {
  const { ctx, call, deps, credential, t } = input;
  const { query, agreement, supplier, state, filter, cursor, nothing } = await resolvedAlertQuery(input);
  const sorts = alertSorts(t);
  const pageSize = pageSizeOf(ctx.query);
  const canWrite = mayCall(credential, 'dismissAlerts');
  const singleAgreement = query.agreement_ids && !query.agreement_ids.includes(',') ? query.agreement_ids : null;
  const [page, metrics, topics, openClaims] = await Promise.all([
    nothing
      ? Promise.resolve({ data: [], next_cursor: null })
      : call('listAlerts', {
          query: {
            limit: String(pageSize),
            ...filter,
            sort: state.sort,
            direction: state.direction,
            ...(cursor ? { cursor } : {}),
          },
        }),
    nothing ? Promise.resolve({ counts: { total: 0 }, impact: [] }) : call('getAlertMetrics', { query: filter }),
    // Topics belong to one agreement: offered once an agreement is chosen.
    singleAgreement
      ? call('listAlertTopics', { query: { agreement_ids: singleAgreement, limit: CHOICES } })
      : Promise.resolve({ data: [], next_cursor: null }),
    // The claims alerts can join: open ones, of the chosen agreement when there is one.
    canWrite
      ? call('listClaims', {
          query: {
            statuses: 'pending,in_progress',
            limit: CLAIM_CHOICES,
            sort: 'updated_at',
            direction: 'desc',
            ...(query.agreement_ids ? { agreement_ids: query.agreement_ids } : {}),
          },
        })
      : Promise.resolve({ data: [], next_cursor: null }),
  ]);
  const refused = shown.outcome?.refused ?? [];
  const labels = await labelsOf(deps, credential.organizationId, {
    agreements: [...page.data.map((a) => a.agreement_id), ...openClaims.data.map((c) => c.agreement_id)],
    invoices: page.data.map((a) => a.invoice_id),
    suppliers: page.data.map((a) => a.supplier_id),
    topics: page.data.map((a) => a.topic_id),
    alerts: refused.map((r) => r.id),
  });
  // The URL names the picked agreement and supplier by the text typed, as the form does.
  let filters: Record<string, string> = { ...query, sort: state.sort, direction: state.direction };
  delete filters.cursor;
  if (agreement.text) filters = { ...withoutKey(filters, 'agreement_ids'), agreement: agreement.text };
  if (supplier.text) filters = { ...withoutKey(filters, 'supplier_ids'), supplier: supplier.text };
  filters = { ...filters, ...limitOf(pageSize) };
  const here = { ...filters, ...(cursor ? { cursor } : {}) };
  // "Select all on this page" without script: the same page with every box ticked.
  const selected = new Set(shown.form?.selected ?? (ctx.query.select === 'page' ? page.data.map((a) => a.id) : []));
  // A team member's list is narrowed by `mine`, which a bulk command's filter cannot carry: "every
  // alert matching" would act on alerts outside the part they see, so it is not offered there.
  const bulkFilter = input.session.teamView?.mine ? null : bulkFilterOf(filter);
  return {
    title: t.alerts.listTitle,
    alerts: page.data,
    metrics,
    labels,
    filters,
    ids: { agreement_ids: query.agreement_ids, supplier_ids: query.supplier_ids },
    agreement,
    supplier,
    topics: topics.data,
    sort: state,
    sorts,
    headers: Object.fromEntries(
      sorts.map((option) => [option.value, sortHeader('/app/alerts', filters, state, option)]),
    ),
    pager: pager('/app/alerts', filters, ctx.query, page.data.length, pageSize, page.next_cursor),
    filtered: Object.keys(filters).some(
      (key) =>
        !['sort', 'direction', 'limit'].includes(key) && !(key === 'statuses' && filters.statuses === DEFAULT_STATUS),
    ),
    // The same filters on the grouped view.
    groupsUrl: (groupBy: string) =>
      listUrl('/app/alerts/groups', { ...withoutKey(withoutKey(filters, 'sort'), 'direction'), group_by: groupBy }),
    canWrite,
    bulk: {
      action: listUrl('/app/alerts/bulk', here),
      selectPageUrl: listUrl('/app/alerts', here, { select: 'page' }),
      clearUrl: listUrl('/app/alerts', here),
      selected,
      allSelected: page.data.length > 0 && page.data.every((a) => selected.has(a.id)),
      // Every alert matching: offered when the API takes this filter in a bulk command.
      matching: bulkFilter ? metrics.counts.total : null,
      form: shown.form ?? { selected: [], scope: 'selected' as const },
      categories: DISMISS_CATEGORIES,
      claims: openClaims.data.map((c) => ({
        id: c.id,
        label: `${c.reference} · ${c.title}${singleAgreement ? '' : ` (${labels.agreements.get(c.agreement_id) || t.alerts.untitledAgreement})`}`,
      })),
    },
    outcome: shown.outcome ?? null,
    refusal: shown.refusal,
  };
}
