import { z } from 'zod';
import { defineRoute } from '../http/route.js';
import { overviewSchema } from './schemas.js';
import { overview } from './service.js';

export const overviewRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/overview',
    operationId: 'getOverview',
    summary: 'The organization at a glance: invoice spend, open alerts, claims, agreements and suggested next steps; amounts per currency, `recent` covers the last 7 days',
    tag: 'Overview',
    access: { level: 'read' },
    query: z.object({ fields: z.string().optional() }),
    fieldsOf: overviewSchema,
    responses: { 200: { description: 'The overview', schema: overviewSchema } },
    handler: async ({ credential, deps }) => ({ body: await overview(deps, credential.organizationId!) }),
  }),
];
