import { z } from 'zod';
import type { RequestActor } from '../auth/actor.js';
import type { AppDeps } from '../deps.js';
import { assertIfMatch } from '../http/etag.js';
import { pageOfRanked, resolvePage } from '../http/pagination.js';
import { defineRoute, idParams } from '../http/route.js';
import { assertSentAsRead, listResponse } from '../http/schemas.js';
import { ALERT_LIST_SORTS, listAlerts } from './list.js';
import { alertMetrics, countedAlertGroups, exportAlerts, labelledAlertGroups } from './reports.js';
import {
  alertSchema,
  bulkDeleteResultSchema,
  bulkResultSchema,
  bulkSchema,
  createAlertSchema,
  dismissSchema,
  exportQuery,
  filterOf,
  groupSchema,
  groupsQuery,
  listQuery,
  metricsQuery,
  metricsSchema,
  patchAlertSchema,
  ALERT_FIXED_FIELDS,
} from './schemas.js';
import { serializeAlert } from './serialize.js';
import {
  bulkDelete,
  createAlert,
  deleteAlert,
  findAlert,
  patchAlert,
  runCommand,
  suggestAfterDismissal,
} from './service.js';
import type { AlertCommand } from './state-machine.js';
import { resolveTeamScope } from '../teams/scope.js';

const tag = 'Alerts';
function commandRoute<const Command extends Exclude<AlertCommand, 'dismiss'>>(command: Command, summary: string) {
  return defineRoute({
    method: 'post',
    path: `/v1/alerts/${command}`,
    operationId: `${command}Alerts`,
    summary,
    tag,
    access: { level: 'write' },
    body: bulkSchema,
    responses: {
      200: {
        description: 'Which alerts changed, which already were so, which were skipped and why',
        schema: bulkResultSchema,
      },
    },
    handler: async ({ body, actor, deps }) => ({
      body: await runCommand(deps, actor, actor.organizationId, command, body),
    }),
  });
}

async function dismiss(deps: AppDeps, actor: RequestActor, body: z.infer<typeof dismissSchema>) {
  const organizationId = actor.organizationId;
  const input = { category: body.category ?? null, note: body.note ?? null };
  const result = await runCommand(deps, actor, organizationId, 'dismiss', body, input);
  if (body.suggest_instructions) await suggestAfterDismissal(deps, organizationId, result.updated, input);
  return result;
}

export const alertRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/alerts',
    operationId: 'listAlerts',
    summary: 'List alerts (set-aside alerts are left out); newest first unless sorted',
    tag,
    access: { level: 'read' },
    query: listQuery,
    fieldsOf: alertSchema,
    responses: { 200: { description: 'A page of alerts', schema: listResponse(alertSchema) } },
    handler: async ({ query, actor, deps }) => ({ body: await listAlerts(deps, actor, query) }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/alerts/metrics',
    operationId: 'getAlertMetrics',
    summary: 'Alert counts per status and impact per currency and status, for the list filters',
    tag,
    access: { level: 'read' },
    query: metricsQuery,
    responses: { 200: { description: 'Counts and impact', schema: metricsSchema } },
    handler: async ({ query, actor, deps }) => {
      const filter = filterOf(query);
      return {
        body: await alertMetrics(deps, actor.organizationId, filter, await resolveTeamScope(deps.db, actor, filter)),
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/alerts/groups',
    operationId: 'getAlertGroups',
    summary:
      'Alerts grouped by agreement, topic, invoice, supplier, status or checker (the check that found them; null: added by a person), most alerts first, for the list filters',
    tag,
    access: { level: 'read' },
    query: groupsQuery,
    fieldsOf: groupSchema,
    responses: { 200: { description: 'A page of groups', schema: listResponse(groupSchema) } },
    handler: async ({ query, actor, deps }) => {
      const filter = filterOf(query);
      const page = resolvePage(
        deps.cursors,
        query,
        { sort: 'count', direction: 'desc' },
        { ...filter, group_by: query.group_by },
      );
      const groups = await countedAlertGroups(
        deps,
        actor.organizationId,
        query.group_by,
        filter,
        await resolveTeamScope(deps.db, actor, filter),
      );
      // Most alerts first unless direction=asc; ties by key ascending either way (null, the
      // uncategorized, as '' first).
      const sign = page.direction === 'desc' ? -1 : 1;
      const { rows, nextCursor } = pageOfRanked(
        deps.cursors,
        page,
        groups,
        (group) => [sign * group.count, group.key ?? ''],
        true,
      );
      // Only the page's groups are labelled and summed.
      const data = await labelledAlertGroups(deps, actor.organizationId, query.group_by, rows);
      return { body: { data, next_cursor: nextCursor } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/alerts/export',
    operationId: 'exportAlerts',
    summary: 'Alerts as CSV or XLSX (format), with the list filters and sort',
    tag,
    access: { level: 'read' },
    query: exportQuery,
    responses: {
      200: {
        description: 'CSV (format=csv) or an XLSX workbook (format=xlsx)',
        contentType: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
        schema: z.string(),
      },
    },
    handler: async ({ query, actor, deps }) => {
      const column = ALERT_LIST_SORTS[query.sort ?? 'created_at']!;
      const filter = filterOf(query);
      const scope = await resolveTeamScope(deps.db, actor, filter);
      const file = await exportAlerts(
        deps,
        actor.organizationId,
        filter,
        { format: query.format, sort: { field: column.field, direction: query.direction ?? 'desc' } },
        scope,
      );
      return {
        body: file.body,
        headers: { 'Content-Type': file.contentType, 'Content-Disposition': `attachment; filename="${file.fileName}"` },
      };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/alerts',
    operationId: 'createAlert',
    summary:
      'Record an alert on an invoice matched to the agreement; impact calculated from expected for line alerts when omitted',
    tag,
    access: { level: 'write' },
    idempotent: true,
    body: createAlertSchema,
    responses: { 201: { description: 'The alert; Location points to it', schema: alertSchema } },
    handler: async ({ body, actor, deps }) => {
      const alert = await createAlert(deps, actor, body);
      return { status: 201, body: serializeAlert(alert), headers: { Location: `/v1/alerts/${alert.id}` } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/alerts/{id}',
    operationId: 'getAlert',
    summary: 'Read an alert (set-aside alerts too, with set_aside true)',
    tag,
    access: { level: 'read' },
    params: idParams,
    query: z.object({ fields: z.string().optional() }),
    etag: true,
    fieldsOf: alertSchema,
    responses: { 200: { description: 'The alert, with ETag', schema: alertSchema } },
    handler: async ({ params, actor, deps }) => ({
      body: serializeAlert(await findAlert(deps, actor.organizationId, params.id)),
    }),
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/alerts/{id}',
    operationId: 'updateAlert',
    summary: 'Change only the sent fields; If-Match optional (412 on mismatch); nothing is re-checked',
    tag,
    access: { level: 'write' },
    params: idParams,
    body: patchAlertSchema,
    responses: { 200: { description: 'The alert', schema: alertSchema }, 412: { description: 'precondition_failed' } },
    handler: async ({ params, body, actor, deps, ctx }) => {
      const alert = await findAlert(deps, actor.organizationId, params.id);
      assertIfMatch(ctx, serializeAlert(alert));
      assertSentAsRead(ctx.request.body, serializeAlert(alert), ALERT_FIXED_FIELDS);
      return { body: serializeAlert(await patchAlert(deps, actor, alert, body)) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/alerts/{id}',
    operationId: 'deleteAlert',
    summary:
      'Delete an alert (409 alert_in_claim while it is in a claim); an unlocked topic left without alerts goes too',
    tag,
    access: { level: 'write' },
    params: idParams,
    responses: {
      204: { description: 'Deleted' },
      409: { description: 'alert_in_claim' },
      412: { description: 'precondition_failed' },
    },
    handler: async ({ params, actor, deps, ctx }) => {
      const alert = await findAlert(deps, actor.organizationId, params.id);
      assertIfMatch(ctx, serializeAlert(alert));
      await deleteAlert(deps, actor, alert);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/alerts/dismiss',
    operationId: 'dismissAlerts',
    summary:
      'Dismiss pending alerts (again: replaces the reason); may suggest an instruction edit unless suggest_instructions is false',
    tag,
    access: { level: 'write' },
    body: dismissSchema,
    responses: {
      200: {
        description: 'Which alerts changed, which already were so, which were skipped and why',
        schema: bulkResultSchema,
      },
    },
    handler: async ({ body, actor, deps }) => ({ body: await dismiss(deps, actor, body) }),
  }),
  commandRoute('credit', 'Mark pending alerts credited'),
  commandRoute('uncredit', 'Undo credits recorded by users; the alert returns to its status before'),
  commandRoute('reopen', 'Reopen dismissed or credited alerts (the credit record is kept)'),
  defineRoute({
    method: 'post',
    path: '/v1/alerts/delete',
    operationId: 'deleteAlerts',
    summary: 'Delete alerts by alert_ids or filter; alerts in a claim are skipped',
    tag,
    access: { level: 'write' },
    body: bulkSchema,
    responses: {
      200: {
        description: 'Which alerts were deleted, already gone, or skipped and why',
        schema: bulkDeleteResultSchema,
      },
    },
    handler: async ({ body, actor, deps }) => ({
      body: await bulkDelete(deps, actor, actor.organizationId, body),
    }),
  }),
];
