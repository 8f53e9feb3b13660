import { z } from 'zod';
import { assertIfMatch } from '../http/etag.js';
import { defineRoute, idParams } from '../http/route.js';
import { listResponse } from '../http/schemas.js';
import { addMembersSchema, createTeamSchema, patchTeamSchema, teamListQuery, teamSchema } from './schemas.js';
import {
  addMembers,
  createTeam,
  deleteTeam,
  findTeam,
  listTeamsPage,
  patchTeam,
  removeMember,
  serializeTeam,
} from './service.js';

const tag = 'Teams';
const fieldsOnly = z.object({ fields: z.string().optional() });
const memberParams = z.object({ id: z.string().uuid(), user_id: z.string().uuid() });

export const teamRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/teams',
    operationId: 'listTeams',
    summary: 'List teams (newest first, or by name)',
    tag,
    access: { level: 'read' },
    query: teamListQuery,
    fieldsOf: teamSchema,
    responses: { 200: { description: 'A page of teams', schema: listResponse(teamSchema) } },
    handler: async ({ query, actor, deps }) => ({ body: await listTeamsPage(deps, actor.organizationId, query) }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/teams',
    operationId: 'createTeam',
    summary: 'Create a team: its name, members and filter (a team without a filter matches nothing)',
    tag,
    access: { level: 'write' },
    idempotent: true,
    body: createTeamSchema,
    responses: { 201: { description: 'The team', schema: teamSchema } },
    handler: async ({ body, actor, deps }) => {
      const team = await createTeam(deps.db, actor.organizationId, body);
      return { status: 201, body: serializeTeam(team), headers: { Location: `/v1/teams/${team.id}` } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/teams/{id}',
    operationId: 'getTeam',
    summary: 'A team, with its filter as stored and whether it is valid',
    tag,
    access: { level: 'read' },
    params: idParams,
    query: fieldsOnly,
    etag: true,
    fieldsOf: teamSchema,
    responses: { 200: { description: 'The team', schema: teamSchema } },
    handler: async ({ params, actor, deps }) => ({
      body: serializeTeam(await findTeam(deps.db, actor.organizationId, params.id)),
    }),
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/teams/{id}',
    operationId: 'updateTeam',
    summary: 'Rename a team and/or replace its whole filter (optional If-Match)',
    tag,
    access: { level: 'write' },
    params: idParams,
    body: patchTeamSchema,
    etag: true,
    responses: { 200: { description: 'The team', schema: teamSchema } },
    handler: async ({ params, body, actor, deps, ctx }) => {
      const team = await findTeam(deps.db, actor.organizationId, params.id);
      assertIfMatch(ctx, serializeTeam(team));
      return { body: serializeTeam(await patchTeam(deps.db, team, body)) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/teams/{id}',
    operationId: 'deleteTeam',
    summary: 'Delete a team permanently; the records it covered are untouched (optional If-Match)',
    tag,
    access: { level: 'write' },
    params: idParams,
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ params, actor, deps, ctx }) => {
      const team = await findTeam(deps.db, actor.organizationId, params.id);
      assertIfMatch(ctx, serializeTeam(team));
      await deleteTeam(deps.db, team);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/teams/{id}/members',
    operationId: 'addTeamMembers',
    summary:
      "Add people to a team; people already in it are left as they are; If-Match (the team's ETag) optional, 412 on mismatch",
    tag,
    access: { level: 'write' },
    params: idParams,
    body: addMembersSchema,
    etag: true,
    responses: {
      200: { description: 'The team', schema: teamSchema },
      412: { description: 'precondition_failed: If-Match does not match' },
    },
    handler: async ({ params, body, actor, deps, ctx }) => {
      const team = await findTeam(deps.db, actor.organizationId, params.id);
      assertIfMatch(ctx, serializeTeam(team));
      return { body: serializeTeam(await addMembers(deps.db, team, body.user_ids)) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/teams/{id}/members/{user_id}',
    operationId: 'removeTeamMember',
    summary:
      "Remove a person from a team; removing someone not in it changes nothing; If-Match (the team's ETag) optional, 412 on mismatch",
    tag,
    access: { level: 'write' },
    params: memberParams,
    etag: true,
    responses: {
      200: { description: 'The team', schema: teamSchema },
      412: { description: 'precondition_failed: If-Match does not match' },
    },
    handler: async ({ params, actor, deps, ctx }) => {
      const team = await findTeam(deps.db, actor.organizationId, params.id);
      assertIfMatch(ctx, serializeTeam(team));
      return { body: serializeTeam(await removeMember(deps.db, team, params.user_id)) };
    },
  }),
];
