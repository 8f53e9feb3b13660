import { z } from 'zod';
import { defineRoute } from '../http/route.js';
import { overviewSchema } from './schemas.js';
import { overview } from './service.js';
import { resolveTeamScope, teamScopeParams } from '../teams/scope.js';

export const overviewRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/overview',
    operationId: 'getOverview',
    summary:
      'The organization at a glance: invoice spend, open alerts, claims, agreements and suggested next steps; amounts per currency, `recent` covers the last 7 days. With `mine=true` or `team_ids` every figure covers only the records those teams cover (a team without a valid filter covers nothing)',
    tag: 'Overview',
    access: { level: 'read' },
    query: z.object({ fields: z.string().optional(), ...teamScopeParams }),
    fieldsOf: overviewSchema,
    responses: { 200: { description: 'The overview', schema: overviewSchema } },
    handler: async ({ query, actor, deps }) => {
      const scope = await resolveTeamScope(deps.db, actor, query);
      return { body: await overview(deps, actor.organizationId, scope, query) };
    },
  }),
];
