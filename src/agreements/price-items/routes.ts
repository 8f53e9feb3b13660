import { z } from 'zod';
import { defineRoute, idParams } from '../../http/route.js';
import { listResponse } from '../../http/schemas.js';
import { findAgreement } from '../service.js';
import { exportPriceItemsCsv, listPriceItemsPage, priceItemExportQuery, priceItemListQuery } from './list.js';
import { createPriceItemsSchema, filterConditionSchema, patchPriceItemsSchema, priceItemSchema } from './schemas.js';
import { createPriceItems, deletePriceItems, patchPriceItems, serializePriceItem } from './service.js';

const tag = 'Price items';
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
      const sent = (ctx.request.body as { entries: unknown[] }).entries;
      const items = await patchPriceItems(deps, actor, agreement.id, body.entries, sent);
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
    query: priceItemListQuery,
    fieldsOf: priceItemSchema,
    responses: { 200: { description: 'A page of price items', schema: listResponse(priceItemSchema) } },
    handler: async ({ params, query, actor, deps }) => ({
      body: await listPriceItemsPage(deps, actor.organizationId, params.id, query),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/agreements/{id}/price-items/export',
    operationId: 'exportPriceItems',
    summary: 'Price items as CSV, with the same search, filters and sort',
    tag,
    access: { level: 'read' },
    params: idParams,
    query: priceItemExportQuery,
    responses: { 200: { description: 'CSV', contentType: 'text/csv', schema: z.string() } },
    handler: async ({ params, query, actor, deps }) => {
      const { agreementId, csv } = await exportPriceItemsCsv(deps, actor.organizationId, params.id, query);
      return {
        body: csv,
        headers: {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="price-items-${agreementId}.csv"`,
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
      return { body: { deleted: await deletePriceItems(deps, actor, agreement.organizationId, agreement.id, body) } };
    },
  }),
];
