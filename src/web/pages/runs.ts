import { z } from 'zod';
import type { Config } from '../../config.js';
import { RUN_STATUSES, ITEM_STATUSES } from '../../runs/schemas.js';
import { findRun, workflowIdOf } from '../../runs/service.js';
import { defineAction, definePage, type WebInput } from '../page.js';
import { mayCall } from '../operations.js';
import type { Texts } from '../texts/index.js';
import { actOrShowRefusal } from '../refusal.js';
import { isTerminal } from '../../runs/read-model.js';
import { filledQuery, limitOf, listUrl, pageSizeOf, pager, sortHeader, sortState, type SortOption } from '../query.js';

// Runs: background work (GET /v1/workflow-runs), newest first, and one run with its progress, its
// items (paged, with failures in their public form) and a link to its workflow in Temporal UI.
// /app/workflow-runs/... (the API's name, used by notification links) leads here too.

const LIST_FILTERS = ['statuses', 'types', 'sort', 'direction', 'cursor'] as const;
// Newest first (the API's default) or oldest first.
const runSort = (t: Texts['runs']): SortOption => ({ value: 'created_at', label: t.started, first: 'desc' });
const RUN_TYPES = [
  'import',
  'check',
  'refresh',
  'price_import',
  'document_import',
  'document_index',
  'topic_reconcile',
  'sync',
  'supplier_refresh',
] as const;
const ITEM_PAGE = '100';

// Where the record a run or item works for has a page.
const RECORD_PAGES: Record<string, string> = {
  invoice: '/app/invoices/',
  agreement: '/app/agreements/',
  claim: '/app/claims/',
  alert: '/app/alerts/',
  integration: '/app/integrations#integration-',
};

export const recordUrl = (record: { type: string; id: string } | null): string | null =>
  record && RECORD_PAGES[record.type] ? `${RECORD_PAGES[record.type]}${record.id}` : null;

const CODE = /^[a-z]+(_[a-z]+)+$/;

// An item's result in words: a flat object as "matches 1 · invoices 1", anything else as short JSON.
export function resultText(result: unknown, code: (value: string) => string): string {
  if (result && typeof result === 'object' && !Array.isArray(result)) {
    const entries = Object.entries(result as Record<string, unknown>);
    if (entries.every(([, value]) => value === null || ['string', 'number', 'boolean'].includes(typeof value))) {
      // A code among the values ("outcome not_invoice") reads in words, as everywhere else.
      const shown = (value: unknown) => (typeof value === 'string' && CODE.test(value) ? code(value) : String(value));
      return entries
        .map(([key, value]) => `${key.replaceAll('_', ' ')} ${shown(value)}`)
        .join(' · ')
        .slice(0, 300);
    }
  }
  return JSON.stringify(result).slice(0, 200);
}

// The workflow in Temporal UI: <TEMPORAL_UI_URL>/namespaces/<namespace>/workflows/<workflow id>;
// null (no link) when TEMPORAL_UI_URL is not set.
export function temporalUiUrl(
  config: Pick<Config, 'TEMPORAL_UI_URL' | 'TEMPORAL_NAMESPACE'>,
  workflowId: string,
): string | null {
  if (!config.TEMPORAL_UI_URL) return null;
  return `${config.TEMPORAL_UI_URL.replace(/\/$/, '')}/namespaces/${encodeURIComponent(config.TEMPORAL_NAMESPACE)}/workflows/${encodeURIComponent(workflowId)}`;
}

const runParams = z.object({ id: z.string().uuid() });

async function runPage({
  params,
  ctx,
  call,
  deps,
  credential,
  t,
}: Pick<WebInput<{ id: string }, unknown>, 'params' | 'ctx' | 'call' | 'deps' | 'credential' | 't'>) {
  const query = filledQuery(ctx.query, ['item_statuses', 'items_cursor']);
  const [run, items, record] = await Promise.all([
    call('getWorkflowRun', { params: { id: params.id } }),
    call('listWorkflowRunItems', {
      params: { id: params.id },
      query: {
        limit: ITEM_PAGE,
        ...(query.item_statuses ? { statuses: query.item_statuses } : {}),
        ...(query.items_cursor ? { cursor: query.items_cursor } : {}),
      },
    }),
    // The workflow id is not part of the API's representation (the run id is, and usually equals it).
    findRun(deps, credential.organizationId, params.id),
  ]);
  const self = `/app/runs/${params.id}`;
  const itemFilter: Record<string, string> = query.item_statuses ? { item_statuses: query.item_statuses } : {};
  const finished = isTerminal(run.status);
  return {
    title: t.runs.runTitle(run.type.replaceAll('_', ' ')),
    run,
    finished,
    // The live part polls the same page (with the same item filter and page) while the run goes on.
    liveUrl: finished ? null : listUrl(`${self}/live`, query),
    // What the API accepts: cancel while queued or running; retry of a failed run of a retryable type.
    canCancel: !finished && mayCall(credential, 'cancelWorkflowRun'),
    canRetry:
      run.status === 'failed' &&
      deps.runTypes.names().includes(run.type) &&
      deps.runTypes.get(run.type).retry !== 'none' &&
      mayCall(credential, 'retryWorkflowRun'),
    items: items.data,
    itemStatuses: ITEM_STATUSES,
    itemFilter: query.item_statuses ?? '',
    itemsNextUrl: items.next_cursor ? listUrl(self, itemFilter, { items_cursor: items.next_cursor }) : null,
    itemsFirstUrl: query.items_cursor ? listUrl(self, itemFilter) : null,
    temporalUrl: temporalUiUrl(deps.config, workflowIdOf(record)),
    recordUrl,
    resultText,
  };
}

export const runPages = [
  definePage({
    path: '/runs',
    nav: 'runs',
    title: (t) => t.runs.title,
    view: 'runs',
    load: async ({ ctx, call, t }) => {
      const query = filledQuery(ctx.query, LIST_FILTERS);
      const pageSize = pageSizeOf(ctx.query);
      const sort = runSort(t.runs);
      const state = sortState(query, [sort], { sort: 'created_at', direction: 'desc' });
      const listed: Record<string, string> = { ...query, sort: state.sort, direction: state.direction };
      const { cursor, ...filter } = listed;
      const page = await call('listWorkflowRuns', {
        query: { limit: String(pageSize), ...filter, ...(cursor ? { cursor } : {}) },
      });
      const filters = { ...filter, ...limitOf(pageSize) };
      return {
        runs: page.data,
        filters,
        statuses: RUN_STATUSES,
        types: RUN_TYPES,
        recordUrl,
        headers: { created_at: sortHeader('/app/runs', filters, state, sort) },
        pager: pager('/app/runs', filters, ctx.query, page.data.length, pageSize, page.next_cursor),
        filtered: Object.keys(filters).some((key) => !['sort', 'direction', 'limit'].includes(key)),
      };
    },
  }),
  definePage({
    path: '/runs/:id',
    nav: 'runs',
    title: (t) => t.runs.run,
    view: 'run',
    params: runParams,
    load: (input) => runPage(input),
  }),
  // The run's live part alone (status, progress, actions, items), polled by htmx every 2 seconds
  // while the run has not finished; the answer for a finished run carries no poll, so it stops.
  definePage({
    path: '/runs/:id/live',
    nav: null,
    title: (t) => t.runs.run,
    view: 'run-poll',
    params: runParams,
    load: (input) => runPage(input),
  }),
  // Cancel (queued or running) and retry (a failed run of a type the API retries): shown only
  // where the API would accept them, and refused by the API anyway (its status and message).
  defineAction({
    path: '/runs/:id/cancel',
    level: 'write',
    params: runParams,
    handle: (input) =>
      actOrShowRefusal({ view: 'run', nav: 'runs', load: () => runPage({ ...input, ctx: input.ctx }) }, async () => {
        await input.call('cancelWorkflowRun', { params: { id: input.params.id } });
        return { redirect: `/app/runs/${input.params.id}`, notice: input.t.runs.cancelled };
      }),
  }),
  defineAction({
    path: '/runs/:id/retry',
    level: 'write',
    params: runParams,
    handle: (input) =>
      actOrShowRefusal({ view: 'run', nav: 'runs', load: () => runPage({ ...input, ctx: input.ctx }) }, async () => {
        const retry = await input.call('retryWorkflowRun', { params: { id: input.params.id } });
        return { redirect: `/app/runs/${retry.id}`, notice: input.t.runs.retried };
      }),
  }),
  definePage({
    path: '/workflow-runs',
    nav: 'runs',
    title: (t) => t.runs.title,
    view: 'error',
    load: async () => ({ redirect: '/app/runs' }),
  }),
  definePage({
    path: '/workflow-runs/:id',
    nav: 'runs',
    title: (t) => t.runs.run,
    view: 'error',
    params: runParams,
    load: async ({ params }) => ({ redirect: `/app/runs/${params.id}` }),
  }),
];
