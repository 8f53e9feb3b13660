import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { z } from 'zod';
import type { MemberActor } from '../auth/actor.js';
import { atLeast } from '../auth/levels.js';
import type { AppDeps } from '../deps.js';
import { errors } from '../http/errors.js';
import { keyset, pageOf, pageParams, resolvePage, type SortColumn } from '../http/pagination.js';
import { defineRoute, idParams } from '../http/route.js';
import {
  assertSentAsRead,
  booleanParam,
  commaList,
  createdRangeParams,
  createdRangeWhere,
  listResponse,
  uuidList,
} from '../http/schemas.js';
import { assertIfMatch } from '../http/etag.js';
import type { Prisma } from '../db/client.js';
import { CHANNEL_INCLUDE, serializeChannels } from './channels.js';
import {
  loadPreference,
  newWebhookSecret,
  ORGANIZATION_OWNER_KEY,
  replacePreference,
  serializePreference,
  type Owner,
} from './preferences.js';
import { deliveryWorkflowId } from './workflow-ids.js';
import {
  CHANNEL_FIXED_FIELDS,
  CHANNEL_OWNERS,
  channelPatchSchema,
  DELIVERY_STATUSES,
  deliveryRead,
  NOTIFICATION_EVENTS,
  organizationChannelRead,
  ownerQuery,
  preferencesBodySchema,
  preferencesDocument,
  secretResponse,
} from './schemas.js';

const tag = 'Notifications';
const CREATED: SortColumn = { field: 'createdAt', kind: 'date' };

// Personal preferences change nothing of the organization's data, so Read suffices to read and
// change one's own; the organization's preference is read with Read and changed with Admin.
function requireOwnerLevel(actor: MemberActor, owner: Owner, change: boolean) {
  if (owner === 'organization' && change && !atLeast(actor.level, 'admin')) throw errors.insufficientLevel('admin');
}

// The channels a caller may see: their own personal ones and the organization's.
async function visibleChannelIds(
  deps: AppDeps,
  actor: MemberActor,
  channelIds?: string[],
): Promise<Map<string, Owner>> {
  const channels = await deps.db.notificationChannel.findMany({
    where: {
      organizationId: actor.organizationId,
      preference: { ownerKey: { in: [actor.userId, ORGANIZATION_OWNER_KEY] } },
      ...(channelIds ? { id: { in: channelIds } } : {}),
    },
    select: { id: true, preference: { select: { owner: true } } },
  });
  return new Map(channels.map((c) => [c.id, c.preference.owner as Owner]));
}

// One channel as an Admin, or its owner, sees it. An Admin sees every channel of the organization;
// anyone else only their own and the organization's (another person's is not found).
async function channelFor(deps: AppDeps, actor: MemberActor, id: string) {
  const channel = await deps.db.notificationChannel.findFirst({
    where: { id, organizationId: actor.organizationId },
    include: CHANNEL_INCLUDE,
  });
  const visible =
    channel &&
    (atLeast(actor.level, 'admin') ||
      channel.preference.owner === 'organization' ||
      channel.preference.ownerKey === actor.userId);
  if (!channel || !visible) throw errors.notFound('notification channel');
  return channel;
}

const channelListQuery = z.object({
  ...pageParams(['created_at'] as const),
  owner: z.enum(CHANNEL_OWNERS).optional(),
  user_ids: uuidList.optional(),
  types: commaList(z.enum(['email', 'webhook'])).optional(),
  enabled: booleanParam.optional(),
});

function serializeDelivery(row: {
  id: string;
  eventId: string;
  kind: string;
  channelId: string;
  channelType: string;
  status: string;
  attempts: number;
  replays: number;
  lastError: string | null;
  lastStatusCode: number | null;
  createdAt: Date;
  updatedAt: Date;
  deliveredAt: Date | null;
  event: { payload: unknown };
}) {
  return {
    id: row.id,
    event_id: row.eventId,
    event: row.kind,
    channel_id: row.channelId,
    channel_type: row.channelType,
    status: row.status,
    attempts: row.attempts,
    replays: row.replays,
    last_error: row.lastError,
    last_status_code: row.lastStatusCode,
    payload: row.event.payload,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    delivered_at: row.deliveredAt?.toISOString() ?? null,
  };
}

const deliveryListQuery = z.object({
  ...pageParams(['created_at'] as const),
  statuses: commaList(z.enum(DELIVERY_STATUSES)).optional(),
  events: commaList(z.enum(NOTIFICATION_EVENTS)).optional(),
  channel_ids: uuidList.optional(),
  event_ids: uuidList.optional(),
  ...createdRangeParams,
});

export const notificationRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/notification-preferences',
    operationId: 'getNotificationPreferences',
    summary: "The caller's notification preference, or the organization's with owner=organization",
    tag,
    access: { level: 'read' },
    query: ownerQuery,
    responses: { 200: { description: 'The preferences document', schema: preferencesDocument } },
    handler: async ({ actor, deps, query }) => {
      const stored = await loadPreference(deps.db, actor.organizationId, query.owner, actor.userId);
      return {
        body: {
          preferences: [
            await serializePreference(deps.db, deps.config, actor.organizationId, query.owner, actor.userId, stored),
          ],
        },
      };
    },
  }),
  defineRoute({
    method: 'put',
    path: '/v1/notification-preferences',
    operationId: 'putNotificationPreferences',
    summary:
      "Replace the caller's notification preference (Read), or the organization's with owner=organization (Admin)",
    tag,
    access: { level: 'read' },
    query: ownerQuery,
    body: preferencesBodySchema,
    responses: {
      200: {
        description: 'The preferences document; a new webhook channel carries its secret, this once',
        schema: preferencesDocument,
      },
    },
    handler: async ({ actor, deps, query, body }) => {
      requireOwnerLevel(actor, query.owner, true);
      const input = body.preferences[0]!;
      if (input.owner !== query.owner) {
        throw errors.validation('The preference sent is not the one named by owner.', [
          { field: 'preferences.0.owner', message: `must be ${query.owner} (the owner query parameter)` },
        ]);
      }
      const { stored, newSecrets } = await replacePreference(deps.db, actor.organizationId, actor.userId, input);
      return {
        body: {
          preferences: [
            await serializePreference(
              deps.db,
              deps.config,
              actor.organizationId,
              query.owner,
              actor.userId,
              stored,
              newSecrets,
            ),
          ],
        },
      };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/notification-channels/{id}/rotate-secret',
    operationId: 'rotateNotificationChannelSecret',
    summary: 'Give a webhook channel a new signing secret, shown this once; the old one stops signing at once',
    tag,
    access: { level: 'read' },
    params: idParams,
    responses: { 200: { description: 'The new secret', schema: secretResponse } },
    handler: async ({ actor, deps, params }) => {
      const owner = (await visibleChannelIds(deps, actor, [params.id])).get(params.id);
      if (!owner) throw errors.notFound('notification channel');
      requireOwnerLevel(actor, owner, true);
      const channel = await deps.db.notificationChannel.findUniqueOrThrow({ where: { id: params.id } });
      if (channel.type !== 'webhook')
        throw errors.validation('Only webhook channels have a secret.', [
          { field: 'id', message: 'not a webhook channel' },
        ]);
      const secret = newWebhookSecret();
      await deps.db.notificationChannel.update({ where: { id: params.id }, data: { secret } });
      return { body: { id: params.id, secret } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/notification-channels',
    operationId: 'listNotificationChannels',
    summary:
      "Every notification channel of the organization, each person's and the organization's, oldest first (Admin)",
    tag,
    access: { level: 'admin' },
    query: channelListQuery,
    fieldsOf: organizationChannelRead,
    responses: { 200: { description: 'Channels', schema: listResponse(organizationChannelRead) } },
    handler: async ({ actor, deps, query }) => {
      const { limit, cursor, sort, direction, fields: _fields, ...filters } = query;
      const page = resolvePage(
        deps.cursors,
        { limit, cursor, sort, direction },
        { sort: 'created_at', direction: 'asc' },
        filters,
      );
      const window = keyset(page, CREATED);
      const preference: Prisma.NotificationPreferenceWhereInput = {
        ...(filters.owner ? { owner: filters.owner } : {}),
        ...(filters.user_ids ? { owner: 'personal', userId: { in: filters.user_ids } } : {}),
      };
      const rows = await deps.db.notificationChannel.findMany({
        where: {
          AND: [
            window.where,
            { organizationId: actor.organizationId },
            Object.keys(preference).length > 0 ? { preference } : {},
            filters.types ? { type: { in: filters.types } } : {},
            filters.enabled !== undefined ? { enabled: filters.enabled } : {},
          ],
        },
        orderBy: window.orderBy,
        take: window.take,
        include: CHANNEL_INCLUDE,
      });
      const { rows: shown, nextCursor } = pageOf(deps.cursors, page, CREATED, rows);
      return { body: { data: await serializeChannels(deps.db, deps.config, shown), next_cursor: nextCursor } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/notification-channels/{id}',
    operationId: 'getNotificationChannel',
    summary: "One channel: the caller's own or the organization's, or any of the organization's for an Admin",
    tag,
    access: { level: 'read' },
    params: idParams,
    fieldsOf: organizationChannelRead,
    etag: true,
    responses: { 200: { description: 'The channel', schema: organizationChannelRead } },
    handler: async ({ actor, deps, params }) => {
      const channel = await channelFor(deps, actor, params.id);
      return { body: (await serializeChannels(deps.db, deps.config, [channel]))[0]! };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/notification-channels/{id}',
    operationId: 'patchNotificationChannel',
    summary:
      "Turn a channel on or off: one's own (Read), the organization's or another person's (Admin); optional If-Match",
    tag,
    access: { level: 'read' },
    params: idParams,
    body: channelPatchSchema,
    responses: { 200: { description: 'The channel', schema: organizationChannelRead } },
    handler: async ({ actor, deps, params, body, ctx }) => {
      const channel = await channelFor(deps, actor, params.id);
      const own = channel.preference.owner === 'personal' && channel.preference.ownerKey === actor.userId;
      if (!own) requireOwnerLevel(actor, 'organization', true);
      const [current] = await serializeChannels(deps.db, deps.config, [channel]);
      assertIfMatch(ctx, current);
      assertSentAsRead(ctx.request.body, current, CHANNEL_FIXED_FIELDS);
      if (body.enabled === undefined || body.enabled === channel.enabled) return { body: current! };
      // Conditional on the state read, so a PUT of the preference in between is not overwritten.
      await deps.db.notificationChannel.updateMany({
        where: { id: channel.id, enabled: channel.enabled },
        data: { enabled: body.enabled },
      });
      return { body: (await serializeChannels(deps.db, deps.config, [await channelFor(deps, actor, params.id)]))[0]! };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/notification-deliveries',
    operationId: 'listNotificationDeliveries',
    summary: "Delivery log of the caller's channels and the organization's, newest first",
    tag,
    access: { level: 'read' },
    query: deliveryListQuery,
    fieldsOf: deliveryRead,
    responses: { 200: { description: 'Deliveries', schema: listResponse(deliveryRead) } },
    handler: async ({ actor, deps, query }) => {
      const { limit, cursor, sort, direction, fields: _fields, ...filters } = query;
      const page = resolvePage(
        deps.cursors,
        { limit, cursor, sort, direction },
        { sort: 'created_at', direction: 'desc' },
        filters,
      );
      const visible = [...(await visibleChannelIds(deps, actor, filters.channel_ids)).keys()];
      const window = keyset(page, CREATED);
      const rows = await deps.db.notificationDelivery.findMany({
        where: {
          AND: [
            window.where,
            { organizationId: actor.organizationId, channelId: { in: visible } },
            filters.statuses ? { status: { in: filters.statuses } } : {},
            filters.events ? { kind: { in: filters.events } } : {},
            filters.event_ids ? { eventId: { in: filters.event_ids } } : {},
            createdRangeWhere(filters),
          ],
        },
        orderBy: window.orderBy,
        take: window.take,
        include: { event: { select: { payload: true } } },
      });
      const { rows: shown, nextCursor } = pageOf(deps.cursors, page, CREATED, rows);
      return { body: { data: shown.map(serializeDelivery), next_cursor: nextCursor } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/notification-deliveries/{id}',
    operationId: 'getNotificationDelivery',
    summary: 'One delivery',
    tag,
    access: { level: 'read' },
    params: idParams,
    fieldsOf: deliveryRead,
    responses: { 200: { description: 'The delivery', schema: deliveryRead } },
    handler: async ({ actor, deps, params }) => {
      const row = await deps.db.notificationDelivery.findFirst({
        where: { id: params.id, organizationId: actor.organizationId },
        include: { event: { select: { payload: true } } },
      });
      if (!row || !(await visibleChannelIds(deps, actor, [row.channelId])).has(row.channelId))
        throw errors.notFound('notification delivery');
      return { body: serializeDelivery(row) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/notification-deliveries/{id}/replay',
    operationId: 'replayNotificationDelivery',
    summary: 'Deliver a failed delivery again (same event id, so receivers can tell a repeat); 409 unless it failed',
    tag,
    access: { level: 'read' },
    params: idParams,
    responses: { 202: { description: 'The delivery, pending again', schema: deliveryRead } },
    handler: async ({ actor, deps, params }) => {
      const row = await deps.db.notificationDelivery.findFirst({
        where: { id: params.id, organizationId: actor.organizationId },
      });
      const owner = row ? (await visibleChannelIds(deps, actor, [row.channelId])).get(row.channelId) : undefined;
      if (!row || !owner) throw errors.notFound('notification delivery');
      // Replaying the organization's deliveries starts work for everyone: Write.
      if (owner === 'organization' && !atLeast(actor.level, 'write')) throw errors.insufficientLevel('write');
      const updated = await deps.db.notificationDelivery.updateMany({
        where: { id: row.id, status: 'failed' },
        data: { status: 'pending', replays: { increment: 1 }, attempts: 0, lastError: null, lastStatusCode: null },
      });
      if (updated.count === 0)
        throw errors.conflict('delivery_not_failed', 'Only a failed delivery can be replayed.', { status: row.status });
      const replays = row.replays + 1;
      const retry = {
        initialSeconds: deps.config.NOTIFICATION_RETRY_INITIAL_SECONDS,
        maxSeconds: deps.config.NOTIFICATION_RETRY_MAX_SECONDS,
        attempts: deps.config.NOTIFICATION_RETRY_ATTEMPTS,
      };
      try {
        await deps.temporal.workflow.start('deliverNotificationWorkflow', {
          workflowId: deliveryWorkflowId({ id: row.id, replays }),
          taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
          args: [row.id, retry],
        });
      } catch (error) {
        // A lost start is picked up by the next dispatch (the delivery is pending again).
        if (!(error instanceof WorkflowExecutionAlreadyStartedError))
          deps.logger.warn({ err: error, delivery_id: row.id }, 'replay workflow did not start; the dispatcher will');
      }
      const fresh = await deps.db.notificationDelivery.findUniqueOrThrow({
        where: { id: row.id },
        include: { event: { select: { payload: true } } },
      });
      return { status: 202, body: serializeDelivery(fresh) };
    },
  }),
];
