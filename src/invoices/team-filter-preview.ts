import { z } from 'zod';
import { defineRoute } from '../http/route.js';
import { teamFilterSchema, type TeamFilter } from '../teams/filter/index.js';
import { invoiceMetrics, invoiceMetricsSchema, metricsQuery } from './metrics.js';

// What a team would cover before it is saved (the application's team form counts as one edits
// it): the spec's preview convention, `POST {command}/preview` with the command's input (a team's
// `name`, `user_ids` and `filter`; only the filter decides). The answer is the invoice metrics of
// the invoices the filter covers, the same SQL as `team_ids` on GET /v1/invoices/metrics with a
// saved team. Here because invoices own the count; the filter and its compilation are the teams'.
// A read: it changes nothing and narrows nothing beyond the caller's organization.
const previewBody = z.strictObject({
  name: z.string().max(200).optional(),
  user_ids: z.array(z.string().uuid()).max(1000).optional(),
  filter: teamFilterSchema.refine((filter) => filter !== null, 'send a filter definition'),
});

export const teamFilterPreviewRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/teams/preview',
    operationId: 'previewTeam',
    summary: 'Counts and spend of the invoices a team filter would cover, before it is saved',
    tag: 'Teams',
    access: { level: 'read' },
    body: previewBody,
    responses: { 200: { description: 'Counts and spend of the covered invoices', schema: invoiceMetricsSchema } },
    handler: async ({ body, actor, deps }) => ({
      body: await invoiceMetrics(deps, actor.organizationId, metricsQuery.parse({}), {
        organizationId: actor.organizationId,
        filters: [body.filter as TeamFilter],
      }),
    }),
  }),
];
