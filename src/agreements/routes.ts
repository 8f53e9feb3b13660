import { z } from 'zod';
import { assertIfMatch } from '../http/etag.js';
import { pageParams } from '../http/pagination.js';
import { defineRoute, idParams } from '../http/route.js';
import { assertSentAsRead, listResponse } from '../http/schemas.js';
import { agreementSchema, createAgreementSchema, createTagSchema, patchAgreementSchema, tagSchema } from './schemas.js';
import { createAgreement, deleteAgreement, findAgreement, serializeAgreement, updateAgreement } from './service.js';
import { createTag, listTags } from './tags.js';
import { agreementListQuery, listAgreements } from './list.js';

const tag = 'Agreements';
export const agreementRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/agreements',
    operationId: 'listAgreements',
    summary: 'List agreements (renewal filters, tags, suppliers)',
    tag,
    access: { level: 'read' },
    query: agreementListQuery,
    fieldsOf: agreementSchema,
    responses: { 200: { description: 'A page of agreements', schema: listResponse(agreementSchema) } },
    handler: async ({ query, actor, deps }) => ({ body: await listAgreements(deps, actor, query) }),
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
    handler: async ({ body, actor, deps }) => {
      const id = await createAgreement(deps, actor, actor.organizationId, body);
      return {
        status: 201,
        body: serializeAgreement(await findAgreement(deps, actor.organizationId, id)),
        headers: { Location: `/v1/agreements/${id}` },
      };
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
    handler: async ({ query, actor, deps }) => ({ body: await listTags(deps, actor.organizationId, query) }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/agreements/tags',
    operationId: 'createAgreementTag',
    summary: 'Create a tag (names are unique per organization)',
    tag,
    access: { level: 'write' },
    idempotent: true,
    body: createTagSchema,
    responses: {
      201: { description: 'The tag', schema: tagSchema },
      409: { description: 'A tag with this name exists (existing_tag_id)' },
    },
    handler: async ({ body, actor, deps }) => ({
      status: 201,
      body: await createTag(deps, actor.organizationId, body.name),
    }),
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
    handler: async ({ params, actor, deps }) => ({
      body: serializeAgreement(await findAgreement(deps, actor.organizationId, params.id)),
    }),
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/agreements/{id}',
    operationId: 'updateAgreement',
    summary:
      'Change sent fields (lists and objects replace the whole value); renewal_action cancels or extends; no re-match or re-check',
    tag,
    access: { level: 'write' },
    params: idParams,
    body: patchAgreementSchema,
    responses: { 200: { description: 'The agreement', schema: agreementSchema } },
    handler: async ({ params, body, actor, deps, ctx }) => {
      const current = await findAgreement(deps, actor.organizationId, params.id);
      assertIfMatch(ctx, serializeAgreement(current));
      assertSentAsRead(ctx.request.body, serializeAgreement(current), ['id']);
      await updateAgreement(deps, actor, current, body);
      return { body: serializeAgreement(await findAgreement(deps, actor.organizationId, params.id)) };
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
    responses: {
      204: { description: 'Deleted' },
      409: { description: 'agreement_busy, with the runs still working on it' },
    },
    handler: async ({ params, actor, deps, ctx }) => {
      const agreement = await findAgreement(deps, actor.organizationId, params.id);
      assertIfMatch(ctx, serializeAgreement(agreement));
      await deleteAgreement(deps, actor, agreement);
      return { status: 204 };
    },
  }),
];
