import { z } from 'zod';
import { labelsOf } from '../labels.js';
import { mayCall } from '../operations.js';
import type { Texts } from '../texts/index.js';
import { definePage, type WebInput } from '../page.js';
import { pickedSuppliers, withoutKey } from '../pickers.js';
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

// Agreements: the list with the API's filters (GET /v1/agreements), and one agreement with its
// terms, parties, price items (paged), documents (with a download link), alerts by topic and
// readiness with the reasons checks cannot run yet.

const LIST_FILTERS = [
  'search',
  'statuses',
  'supplier_ids',
  'renewal_action_kinds',
  'sort',
  'direction',
  'cursor',
] as const;
// Newest first (the API's default), or by renewal deadline (soonest first); both ways.
const agreementSorts = (t: Texts): SortOption[] => [
  { value: 'created_at', label: t.agreements.sorts.created_at!, first: 'desc' },
  { value: 'renewal_deadline', label: t.agreements.sorts.renewal_deadline!, first: 'asc' },
];
const DEFAULT_SORT: ListState = { sort: 'created_at', direction: 'desc' };
const PRICE_PAGE = '50';
const DOCUMENTS_SHOWN = '100';
const IMPORTS_SHOWN = '5';

// The price item form a refusal came from (agreement-setup.ts): the item (null: a new one) and
// the values sent, shown again in its form.
export interface PriceForm {
  id: string | null;
  values: Record<string, unknown>;
}

export const agreementIdParams = z.object({ id: z.string().uuid() });

export const agreementPages = [
  definePage({
    path: '/agreements',
    nav: 'agreements',
    title: (t) => t.agreements.listTitle,
    view: 'agreements',
    load: async (input) => {
      const { ctx, call, deps, credential, t } = input;
      const sorts = agreementSorts(t);
      const query = filledQuery(ctx.query, LIST_FILTERS);
      const pageSize = pageSizeOf(ctx.query);
      const supplier = await pickedSuppliers(input, query);
      const state = sortState(query, sorts, DEFAULT_SORT);
      const listed: Record<string, string> = { ...query, sort: state.sort, direction: state.direction };
      const { cursor, ...filter } = listed;
      const page = supplier.none
        ? { data: [], next_cursor: null }
        : await call('listAgreements', {
            query: { limit: String(pageSize), ...filter, ...(cursor ? { cursor } : {}) },
          });
      const labels = await labelsOf(deps, credential.organizationId, {
        suppliers: page.data.flatMap((a) => a.supplier_ids),
      });
      const filters = {
        ...(supplier.text ? { ...withoutKey(filter, 'supplier_ids'), supplier: supplier.text } : filter),
        ...limitOf(pageSize),
      };
      return {
        agreements: page.data,
        labels,
        filters,
        supplier,
        supplierIds: query.supplier_ids,
        sort: state,
        sorts,
        headers: Object.fromEntries(
          sorts.map((option) => [option.value, sortHeader('/app/agreements', filters, state, option)]),
        ),
        pager: pager('/app/agreements', filters, ctx.query, page.data.length, pageSize, page.next_cursor),
        filtered: Object.keys(filters).some((key) => !['sort', 'direction', 'limit'].includes(key)),
        canCreate: mayCall(credential, 'createAgreement'),
      };
    },
  }),
  definePage({
    path: '/agreements/:id',
    nav: 'agreements',
    title: (t) => t.agreements.pageTitle,
    view: 'agreement',
    params: agreementIdParams,
    load: (input) => agreementPage(input),
  }),
];

// The agreement page's data; the setup actions (agreement-setup.ts) render it again with a refusal.
export async function agreementPage({ params, ctx, call, deps, credential, t }: WebInput<{ id: string }, unknown>) {
  const agreement = await call('getAgreement', { params: { id: params.id } });
  const priceQuery = filledQuery(ctx.query, ['prices_search', 'prices_cursor']);
  const [prices, documents, topics, metrics, imports] = await Promise.all([
    call('listPriceItems', {
      params: { id: params.id },
      query: {
        limit: PRICE_PAGE,
        sort: 'description',
        ...(priceQuery.prices_search ? { search: priceQuery.prices_search } : {}),
        ...(priceQuery.prices_cursor ? { cursor: priceQuery.prices_cursor } : {}),
      },
    }),
    call('listAgreementDocuments', { params: { id: params.id }, query: { limit: DOCUMENTS_SHOWN } }),
    call('getAlertGroups', {
      query: { group_by: 'topic', agreement_ids: params.id, limit: '1000' },
    }),
    call('getAlertMetrics', { query: { agreement_ids: params.id } }),
    call('listPriceImports', { params: { id: params.id }, query: { limit: IMPORTS_SHOWN } }),
  ]);
  const labels = await labelsOf(deps, credential.organizationId, {
    suppliers: agreement.supplier_ids,
    recipients: agreement.recipient_ids,
    tags: agreement.tag_ids,
  });
  const self = `/app/agreements/${params.id}`;
  const priceFilter: Record<string, string> = priceQuery.prices_search
    ? { prices_search: priceQuery.prices_search }
    : {};
  return {
    title: agreement.title ?? t.agreements.untitled,
    agreement,
    labels,
    prices: prices.data,
    pricesSearch: priceQuery.prices_search ?? '',
    pricesNextUrl: prices.next_cursor ? listUrl(self, priceFilter, { prices_cursor: prices.next_cursor }) : null,
    pricesFirstUrl: priceQuery.prices_cursor ? listUrl(self, priceFilter) : null,
    documents: documents.data,
    moreDocuments: documents.next_cursor !== null,
    topics: topics.data,
    metrics,
    readinessReasons: agreement.readiness.missing.map((gap) => t.agreements.readinessReasons[gap] ?? gap),
    readiness: agreement.readiness.missing.map((gap) => ({ gap, reason: t.agreements.readinessReasons[gap] ?? gap })),
    priceImports: imports.data,
    can: {
      edit: mayCall(credential, 'updateAgreement'),
      prices: mayCall(credential, 'createPriceItems') && mayCall(credential, 'updatePriceItems'),
      documents: mayCall(credential, 'registerDocumentUpload') && mayCall(credential, 'importAgreementDocuments'),
      importPrices: mayCall(credential, 'registerDocumentUpload') && mayCall(credential, 'createPriceImports'),
    },
    // The price item form a refusal came from (its values and the item, null for a new one).
    priceForm: null as PriceForm | null,
  };
}
