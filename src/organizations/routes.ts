import { z } from 'zod';
import { defineRoute } from '../http/route.js';
import { listResponse } from '../http/schemas.js';
import {
  memberListQuery,
  memberSchema,
  meSchema,
  organizationAccessSchema,
  organizationListQuery,
  organizationSummarySchema,
} from './schemas.js';
import { getMe, getOrganizationAccess, listMembersPage, listOrganizationsPage } from './service.js';

const tag = 'Organization';
const fieldsOnly = z.object({ fields: z.string().optional() });

export const organizationRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/organizations',
    operationId: 'listOrganizations',
    summary: 'Organizations the key can use (needs no X-Organization-Id)',
    tag,
    access: { level: 'read', withoutOrganization: true },
    query: organizationListQuery,
    fieldsOf: organizationSummarySchema,
    responses: {
      200: { description: 'Organizations of the key owner, by name', schema: listResponse(organizationSummarySchema) },
    },
    handler: async ({ query, actor, deps }) => ({ body: await listOrganizationsPage(deps, actor, query) }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/organization',
    operationId: 'getOrganization',
    summary: 'The organization of the request and what the key can do in it',
    tag,
    access: { level: 'read' },
    query: fieldsOnly,
    etag: true,
    fieldsOf: organizationAccessSchema,
    responses: { 200: { description: 'The organization', schema: organizationAccessSchema } },
    handler: async ({ actor, deps }) => ({ body: await getOrganizationAccess(deps.db, actor) }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/me',
    operationId: 'getMe',
    summary: 'The user who owns the API key',
    tag,
    access: { level: 'read' },
    query: fieldsOnly,
    etag: true,
    fieldsOf: meSchema,
    responses: { 200: { description: 'The current user', schema: meSchema } },
    handler: async ({ actor, deps }) => ({ body: await getMe(deps.db, actor) }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/members',
    operationId: 'listMembers',
    summary: 'Members of the organization with their user IDs',
    tag,
    access: { level: 'read' },
    query: memberListQuery,
    fieldsOf: memberSchema,
    responses: { 200: { description: 'A page of members', schema: listResponse(memberSchema) } },
    handler: async ({ query, actor, deps }) => ({ body: await listMembersPage(deps, actor.organizationId, query) }),
  }),
];
