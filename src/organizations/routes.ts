import { z } from 'zod';
import { atLeast } from '../auth/levels.js';
import { keyset, pageOf, pageOfRanked, pageParams, resolvePage, type SortColumn } from '../http/pagination.js';
import { defineRoute } from '../http/route.js';
import { listResponse } from '../http/schemas.js';
import { memberSchema, meSchema, organizationAccessSchema, organizationSummarySchema } from './schemas.js';

const tag = 'Organization';
const fieldsOnly = z.object({ fields: z.string().optional() });
const JOINED: SortColumn = { field: 'createdAt', kind: 'date' };

export const organizationRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/organizations',
    operationId: 'listOrganizations',
    summary: 'Organizations the key can use (needs no X-Organization-Id)',
    tag,
    access: { level: 'read', withoutOrganization: true },
    query: z.object(pageParams(['name'])),
    fieldsOf: organizationSummarySchema,
    responses: {
      200: { description: 'Organizations of the key owner, by name', schema: listResponse(organizationSummarySchema) },
    },
    handler: async ({ query, actor, deps }) => {
      const { userId } = actor;
      const memberships = await deps.db.membership.findMany({ where: { userId }, include: { organization: true } });
      const data = memberships.map((m) => ({
        id: m.organization.id,
        name: m.organization.name,
        role: m.role,
        currency_code: m.organization.currencyCode,
      }));
      // A person's few organizations, paged like every list: by name, then id.
      const page = resolvePage(deps.cursors, query, { sort: 'name', direction: 'asc' }, {});
      const { rows, nextCursor } = pageOfRanked(deps.cursors, page, data, (o) => [o.name, o.id]);
      return { body: { data: rows, next_cursor: nextCursor } };
    },
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
    handler: async ({ actor, deps }) => {
      const organization = await deps.db.organization.findUniqueOrThrow({ where: { id: actor.organizationId } });
      return {
        body: {
          id: organization.id,
          name: organization.name,
          currency_code: organization.currencyCode,
          role: actor.role,
          key_level: actor.keyLevel,
          level: actor.level,
          can: { read: true, write: atLeast(actor.level, 'write'), admin: atLeast(actor.level, 'admin') },
          settings: { line_rounding_minor_units: organization.lineRoundingMinorUnits },
        },
      };
    },
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
    handler: async ({ actor, deps }) => {
      const [user, apiKey] = await Promise.all([
        deps.db.user.findUniqueOrThrow({ where: { id: actor.userId } }),
        // A session bearer has no key.
        actor.apiKeyId ? deps.db.apiKey.findUniqueOrThrow({ where: { id: actor.apiKeyId } }) : null,
      ]);
      return {
        body: {
          id: user.id,
          user_id: user.id,
          email: user.email,
          name: user.name,
          organization_id: actor.organizationId,
          role: actor.role,
          api_key: apiKey ? { id: apiKey.id, name: apiKey.name, level: apiKey.level } : null,
        },
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/members',
    operationId: 'listMembers',
    summary: 'Members of the organization with their user IDs',
    tag,
    access: { level: 'read' },
    query: z.object({ ...pageParams(['joined_at']) }),
    fieldsOf: memberSchema,
    responses: { 200: { description: 'A page of members', schema: listResponse(memberSchema) } },
    handler: async ({ query, actor, deps }) => {
      const { limit, cursor, sort, direction } = query;
      const page = resolvePage(
        deps.cursors,
        { limit, cursor, sort, direction },
        { sort: 'joined_at', direction: 'asc' },
        {},
      );
      // Memberships have a composite key; the user id is the tie-breaker and the member's id.
      const { where, orderBy, take } = keyset(page, JOINED, 'userId');
      const rows = await deps.db.membership.findMany({
        where: { AND: [{ organizationId: actor.organizationId }, where] },
        orderBy,
        take,
        include: { user: true },
      });
      const withIds = rows.map((row) => ({ ...row, id: row.userId }));
      const { rows: visible, nextCursor } = pageOf(deps.cursors, page, JOINED, withIds);
      const data = visible.map((m) => ({
        id: m.userId,
        user_id: m.userId,
        email: m.user.email,
        name: m.user.name,
        role: m.role,
        joined_at: m.createdAt.toISOString(),
      }));
      return { body: { data, next_cursor: nextCursor } };
    },
  }),
];
