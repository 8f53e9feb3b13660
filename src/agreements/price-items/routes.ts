import { z } from 'zod';
import { toSafeCsv } from '../../shared/spreadsheet-cells.js';
import { errors } from '../../http/errors.js';
import { keyset, pageOf, pageParams, resolvePage, type SortColumn } from '../../http/pagination.js';
import { defineRoute, idParams } from '../../http/route.js';
import { assertSentAsRead, listResponse } from '../../http/schemas.js';
import { findAgreement } from '../service.js';
import { priceItemWhere } from './filters.js';
import {
  createPriceItemsSchema,
  filtersParam,
  filterConditionSchema,
  patchPriceItemsSchema,
  priceItemSchema,
} from './schemas.js';
import { createPriceItems, deletePriceItems, patchPriceItems, serializePriceItem } from './service.js';

const tag = 'Price items';
const SORTS: Record<string, SortColumn> = {
  description: { field: 'description', kind: 'string' },
  valid_from: { field: 'validFrom', kind: 'date', nullable: true },
  valid_until: { field: 'validUntil', kind: 'date', nullable: true },
  created_at: { field: 'createdAt', kind: 'date' },
};
// An export is one file; beyond this, narrow it with filters.
const MAX_EXPORT_ROWS = 100_000;

const selection = { search: z.string().min(1).max(200).optional(), filters: filtersParam.optional() };
const listQuery = z.object({ ...pageParams(['description', 'valid_from', 'valid_until', 'created_at']), ...selection });
const exportQuery = z.object({
  sort: z.enum(['description', 'valid_from', 'valid_until', 'created_at']).optional(),
  direction: z.enum(['asc', 'desc']).optional(),
  ...selection,
});
const deleteBody = z.union([
  z.object({ ids: z.array(z.string().uuid()).min(1).max(10_000) }).strict(),
  // What the list shows with the same search and filters (spec: the same filter parameters remove
  // every match): without any, the list shows every item, so {} removes every item.
  z
    .object({
      search: z.string().min(1).max(200).optional(),
      filters: z.array(filterConditionSchema).max(20).optional(),
    })
    .strict(),
]);

export const priceItemRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/agreements/{id}/price-items',
    operationId: 'createPriceItems',
    summary: 'Add price items; all or nothing',
    tag,
    access: { level: 'write' },
    params: idParams,
    idempotent: true,
    body: createPriceItemsSchema,
    responses: { 201: { description: 'The created items', schema: z.object({ data: z.array(priceItemSchema) }) } },
    handler: async ({ params, body, actor, deps }) => {
      const agreement = await findAgreement(deps, actor.organizationId, params.id);
      const items = await createPriceItems(deps, actor, agreement.organizationId, agreement.id, body.entries);
      return { status: 201, body: { data: items.map(serializePriceItem) } };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/agreements/{id}/price-items',
    operationId: 'updatePriceItems',
    summary: 'Change up to 100 price items by id; all or nothing',
    tag,
    access: { level: 'write' },
    params: idParams,
    body: patchPriceItemsSchema,
    responses: { 200: { description: 'The changed items', schema: z.object({ data: z.array(priceItemSchema) }) } },
    handler: async ({ params, body, actor, deps, ctx }) => {
      const agreement = await findAgreement(deps, actor.organizationId, params.id);
      // An item stays on its agreement and keeps its source: those are accepted only as read.
      const current = await deps.db.priceItem.findMany({
        where: { agreementId: agreement.id, id: { in: body.entries.map((e) => e.id) } },
      });
      const sent = (ctx.request.body as { entries: unknown[] }).entries;
      body.entries.forEach((entry, index) => {
        const item = current.find((c) => c.id === entry.id);
        if (item)
          assertSentAsRead(
            sent[index],
            serializePriceItem(item),
            ['agreement_id', 'source_document_id'],
            `entries.${index}.`,
          );
      });
      const items = await patchPriceItems(deps, actor, agreement.id, body.entries);
      return { body: { data: items.map(serializePriceItem) } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/agreements/{id}/price-items',
    operationId: 'listPriceItems',
    summary: 'List price items (search, JSON filters that must all match, sort, direction)',
    tag,
    access: { level: 'read' },
    params: idParams,
    query: listQuery,
    fieldsOf: priceItemSchema,
    responses: { 200: { description: 'A page of price items', schema: listResponse(priceItemSchema) } },
    handler: async ({ params, query, actor, deps }) => {
      const agreement = await findAgreement(deps, actor.organizationId, params.id);
      const { limit, cursor, sort, direction, fields, ...filters } = query;
      const page = resolvePage(
        deps.cursors,
        { limit, cursor, sort, direction },
        { sort: 'description', direction: 'asc' },
        filters,
      );
      const column = SORTS[page.sort]!;
      const { where, orderBy, take } = keyset(page, column);
      const rows = await deps.db.priceItem.findMany({
        where: { AND: [priceItemWhere(agreement.id, filters.search, filters.filters), where] },
        orderBy,
        take,
      });
      const { rows: visible, nextCursor } = pageOf(deps.cursors, page, column, rows);
      return { body: { data: visible.map(serializePriceItem), next_cursor: nextCursor } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/agreements/{id}/price-items/export',
    operationId: 'exportPriceItems',
    summary: 'Price items as CSV, with the same search, filters and sort',
    tag,
    access: { level: 'read' },
    params: idParams,
    query: exportQuery,
    responses: { 200: { description: 'CSV', contentType: 'text/csv', schema: z.string() } },
    handler: async ({ params, query, actor, deps }) => {
      const agreement = await findAgreement(deps, actor.organizationId, params.id);
      const column = SORTS[query.sort ?? 'description']!;
      const rows = await deps.db.priceItem.findMany({
        where: priceItemWhere(agreement.id, query.search, query.filters),
        orderBy: [
          {
            [column.field]: column.nullable
              ? { sort: query.direction ?? 'asc', nulls: 'last' }
              : (query.direction ?? 'asc'),
          },
          { id: 'asc' },
        ],
        take: MAX_EXPORT_ROWS + 1,
      });
      if (rows.length > MAX_EXPORT_ROWS)
        throw errors.validation(
          `More than ${MAX_EXPORT_ROWS} price items match; narrow the export with search or filters.`,
        );
      const csv = toSafeCsv(
        rows.map(serializePriceItem).map((item) => ({
          id: item.id,
          description: item.description,
          seller_item_id: item.seller_item_id ?? '',
          unit: item.unit ?? '',
          currency_code: item.currency_code ?? '',
          price_type: item.price.type,
          amount: item.price.type === 'amount' ? item.price.amount : '',
          fraction: item.price.type === 'rate' ? item.price.fraction : '',
          basis: item.price.type === 'rate' ? item.price.basis : '',
          valid_from: item.valid_from ?? '',
          valid_until: item.valid_until ?? '',
          unit_conversions: item.unit_conversions
            .map((c) => `1 ${c.from_unit} = ${c.quantity} ${c.to_unit}`)
            .join('; '),
        })),
        {
          columns: [
            'id',
            'description',
            'seller_item_id',
            'unit',
            'currency_code',
            'price_type',
            'amount',
            'fraction',
            'basis',
            'valid_from',
            'valid_until',
            'unit_conversions',
          ],
          numberColumns: ['amount', 'fraction'],
        },
      );
      return {
        body: csv,
        headers: {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="price-items-${agreement.id}.csv"`,
        },
      };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/agreements/{id}/price-items/delete',
    operationId: 'deletePriceItems',
    summary:
      'Remove price items by ids, or every item the list shows with the same search and/or filters ({} or {"filters": []}: all of them)',
    tag,
    access: { level: 'write' },
    params: idParams,
    body: deleteBody,
    responses: { 200: { description: 'How many were removed', schema: z.object({ deleted: z.number().int() }) } },
    handler: async ({ params, body, actor, deps }) => {
      const agreement = await findAgreement(deps, actor.organizationId, params.id);
      const where =
        'ids' in body
          ? { agreementId: agreement.id, id: { in: body.ids } }
          : priceItemWhere(agreement.id, body.search, body.filters);
      return { body: { deleted: await deletePriceItems(deps, actor, agreement.organizationId, agreement.id, where) } };
    },
  }),
];
