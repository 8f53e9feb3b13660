import { z } from 'zod';
import type { Prisma } from '../generated/prisma/client.js';
import { assertIfMatch } from '../http/etag.js';
import { errors } from '../http/errors.js';
import { keyset, pageOf, pageParams, resolvePage, type SortColumn } from '../http/pagination.js';
import { defineRoute, idParams } from '../http/route.js';
import { assertSentAsRead, commaList, createdRangeParams, createdRangeWhere, dateString, joinOperatorParam, joinRelations, listResponse, uuidList } from '../http/schemas.js';
import { AGREEMENT_STATUSES, agreementSchema, createAgreementSchema, createTagSchema, patchAgreementSchema, tagSchema } from './schemas.js';
import { createAgreement, deleteAgreement, findAgreement, serializeAgreement, updateAgreement, withLinks } from './service.js';
import { createTag, listTags } from './tags.js';
import { resolveTeamScope, teamScopeParams } from '../teams/scope.js';
import { scopedPage } from '../teams/scoped-page.js';

const tag = 'Agreements';
const SORTS: Record<string, SortColumn> = {
  created_at: { field: 'createdAt', kind: 'date' },
  renewal_deadline: { field: 'renewalDeadline', kind: 'date', nullable: true },
};

const listQuery = z.object({
  ...pageParams(['created_at', 'renewal_deadline']),
  statuses: commaList(z.enum(AGREEMENT_STATUSES)).optional(),
  supplier_ids: uuidList.optional(),
  supplier_operator: z.enum(['is', 'is_not']).optional(),
  tag_ids: uuidList.optional(),
  join_operator: joinOperatorParam.meta({ description: 'How supplier_ids and tag_ids combine: and (default) or or' }),
  search: z.string().min(1).max(200).optional().meta({ description: 'Matches the title' }),
  renewal_action_kinds: commaList(z.enum(['cancel_by', 'renew_by'])).optional(),
  renewal_deadline_through: dateString.optional(),
  ...createdRangeParams,
  ...teamScopeParams,
});

type Filters = Omit<z.infer<typeof listQuery>, 'limit' | 'cursor' | 'sort' | 'direction' | 'fields'>;

function listWhere(organizationId: string, filters: Filters): Prisma.AgreementWhereInput {
  const bySupplier: Prisma.AgreementWhereInput | null = filters.supplier_ids
    ? filters.supplier_operator === 'is_not'
      ? { suppliers: { none: { supplierId: { in: filters.supplier_ids } } } }
      : { suppliers: { some: { supplierId: { in: filters.supplier_ids } } } }
    : null;
  const byTag: Prisma.AgreementWhereInput | null = filters.tag_ids ? { tags: { some: { tagId: { in: filters.tag_ids } } } } : null;
  return {
    AND: [
      { organizationId },
      filters.statuses ? { status: { in: filters.statuses } } : {},
      joinRelations(filters.join_operator, [bySupplier, byTag]),
      filters.search ? { title: { contains: filters.search, mode: 'insensitive' } } : {},
      filters.renewal_action_kinds ? { renewalActionKind: { in: filters.renewal_action_kinds } } : {},
      filters.renewal_deadline_through ? { renewalDeadline: { lte: new Date(`${filters.renewal_deadline_through}T00:00:00Z`) } } : {},
      createdRangeWhere(filters),
    ],
  };
}

export const agreementRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/agreements',
    operationId: 'listAgreements',
    summary: 'List agreements (renewal filters, tags, suppliers)',
    tag,
    access: { level: 'read' },
    query: listQuery,
    fieldsOf: agreementSchema,
    responses: { 200: { description: 'A page of agreements', schema: listResponse(agreementSchema) } },
    handler: async ({ query, credential, deps }) => {
      const { limit, cursor, sort, direction, fields, ...filters } = query;
      const defaults = sort === 'renewal_deadline' ? { sort, direction: 'asc' as const } : { sort: 'created_at', direction: 'desc' as const };
      const page = resolvePage(deps.cursors, { limit, cursor, sort, direction }, defaults, filters);
      const column = SORTS[page.sort]!;
      const scope = await resolveTeamScope(deps.db, credential, filters);
      const base = listWhere(credential.organizationId!, filters);
      const { rows: visible, nextCursor } = scope
        ? await scopedPage(deps, {
            page,
            column,
            scope,
            target: 'agreement',
            keys: (where, orderBy, take) => deps.db.agreement.findMany({ where: { AND: [base, where] }, orderBy, take, select: { id: true, createdAt: true, renewalDeadline: true } }),
            load: (ids) => deps.db.agreement.findMany({ where: { id: { in: ids } } }),
          })
        : await (async () => {
            const { where, orderBy, take } = keyset(page, column);
            return pageOf(deps.cursors, page, column, await deps.db.agreement.findMany({ where: { AND: [base, where] }, orderBy, take }));
          })();
      return { body: { data: (await withLinks(deps.reader, visible)).map(serializeAgreement), next_cursor: nextCursor } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/agreements',
    operationId: 'createAgreement',
    summary: 'Create an agreement (draft by default; a title is required when active)',
    tag,
    access: { level: 'write' },
    idempotent: true,
    body: createAgreementSchema,
    responses: { 201: { description: 'The agreement', schema: agreementSchema } },
    handler: async ({ body, credential, deps }) => {
      const id = await createAgreement(deps, credential, credential.organizationId!, body);
      return { status: 201, body: serializeAgreement(await findAgreement(deps, credential.organizationId!, id)), headers: { Location: `/v1/agreements/${id}` } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/agreements/tags',
    operationId: 'listAgreementTags',
    summary: 'List agreement tags',
    tag,
    access: { level: 'read' },
    query: z.object({ ...pageParams(['name']) }),
    fieldsOf: tagSchema,
    responses: { 200: { description: 'A page of tags', schema: listResponse(tagSchema) } },
    handler: async ({ query, credential, deps }) => ({ body: await listTags(deps, credential.organizationId!, query) }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/agreements/tags',
    operationId: 'createAgreementTag',
    summary: 'Create a tag (names are unique per organization)',
    tag,
    access: { level: 'write' },
    body: createTagSchema,
    responses: { 201: { description: 'The tag', schema: tagSchema }, 409: { description: 'A tag with this name exists (existing_tag_id)' } },
    handler: async ({ body, credential, deps }) => ({ status: 201, body: await createTag(deps, credential.organizationId!, body.name) }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/agreements/{id}',
    operationId: 'getAgreement',
    summary: 'Read an agreement (with ETag)',
    tag,
    access: { level: 'read' },
    params: idParams,
    query: z.object({ fields: z.string().optional() }),
    etag: true,
    fieldsOf: agreementSchema,
    responses: { 200: { description: 'The agreement', schema: agreementSchema } },
    handler: async ({ params, credential, deps }) => ({ body: serializeAgreement(await findAgreement(deps, credential.organizationId!, params.id)) }),
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/agreements/{id}',
    operationId: 'updateAgreement',
    summary: 'Change sent fields (lists and objects replace the whole value); renewal_action cancels or extends; no re-match or re-check',
    tag,
    access: { level: 'write' },
    params: idParams,
    body: patchAgreementSchema,
    responses: { 200: { description: 'The agreement', schema: agreementSchema } },
    handler: async ({ params, body, credential, deps, ctx }) => {
      const current = await findAgreement(deps, credential.organizationId!, params.id);
      assertIfMatch(ctx, serializeAgreement(current));
      assertSentAsRead(ctx.request.body, serializeAgreement(current), ['id']);
      await updateAgreement(deps, credential, current, body);
      return { body: serializeAgreement(await findAgreement(deps, credential.organizationId!, params.id)) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/agreements/{id}',
    operationId: 'deleteAgreement',
    summary: 'Delete an agreement permanently (409 while the service still works on it)',
    tag,
    access: { level: 'write' },
    params: idParams,
    responses: { 204: { description: 'Deleted' }, 409: { description: 'agreement_busy, with the runs still working on it' } },
    handler: async ({ params, credential, deps, ctx }) => {
      const agreement = await findAgreement(deps, credential.organizationId!, params.id);
      assertIfMatch(ctx, serializeAgreement(agreement));
      await deleteAgreement(deps, credential, agreement);
      return { status: 204 };
    },
  }),
];
