import { randomUUID } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { z } from 'zod';
import type { MemberActor } from '../auth/actor.js';
import { atLeast } from '../auth/levels.js';
import type { AppDeps } from '../deps.js';
import { errors } from '../http/errors.js';
import { keyset, pageOf, resolvePage, type SortColumn } from '../http/pagination.js';
import { createdRangeWhere } from '../http/schemas.js';
import { visibleChannelIds } from './access.js';
import type { deliveryListQuery } from './schemas.js';
import { deliveryWorkflowId } from './workflow-ids.js';

// The delivery log: what was sent to the caller's channels and the organization's, and a replay
// of a failed delivery.

const CREATED: SortColumn = { field: 'createdAt', kind: 'date' };
const WITH_PAYLOAD = { event: { select: { payload: true } } } as const;

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

// A page of the deliveries to the channels the caller may see, newest first.
export async function listDeliveriesPage(
  deps: Pick<AppDeps, 'db' | 'cursors'>,
  actor: MemberActor,
  query: z.infer<typeof deliveryListQuery>,
) {
  const { limit, cursor, sort, direction, fields: _fields, ...filters } = query;
  const page = resolvePage(
    deps.cursors,
    { limit, cursor, sort, direction },
    { sort: 'created_at', direction: 'desc' },
    filters,
  );
  const visible = [...(await visibleChannelIds(deps.db, actor, filters.channel_ids)).keys()];
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
    include: WITH_PAYLOAD,
  });
  const { rows: shown, nextCursor } = pageOf(deps.cursors, page, CREATED, rows);
  return { data: shown.map(serializeDelivery), next_cursor: nextCursor };
}

// One delivery to a channel the caller may see.
export async function getDelivery(deps: Pick<AppDeps, 'db'>, actor: MemberActor, id: string) {
  const row = await deps.db.notificationDelivery.findFirst({
    where: { id, organizationId: actor.organizationId },
    include: WITH_PAYLOAD,
  });
  if (!row || !(await visibleChannelIds(deps.db, actor, [row.channelId])).has(row.channelId))
    throw errors.notFound('notification delivery');
  return serializeDelivery(row);
}

// Makes a failed delivery pending again and starts its delivery (same event id, so receivers can
// tell a repeat); anything but a failed delivery is a conflict.
export async function replayDelivery(
  deps: Pick<AppDeps, 'db' | 'config' | 'temporal' | 'logger'>,
  actor: MemberActor,
  id: string,
) {
  const row = await deps.db.notificationDelivery.findFirst({ where: { id, organizationId: actor.organizationId } });
  const owner = row ? (await visibleChannelIds(deps.db, actor, [row.channelId])).get(row.channelId) : undefined;
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
  await startDelivery(deps, row.id, replays, deps.config.NOTIFICATION_RETRY_ATTEMPTS);
  const fresh = await deps.db.notificationDelivery.findUniqueOrThrow({ where: { id: row.id }, include: WITH_PAYLOAD });
  return serializeDelivery(fresh);
}

// Starts the delivery's workflow now; a start that is lost is picked up by the next dispatch
// (the delivery is pending).
async function startDelivery(
  deps: Pick<AppDeps, 'config' | 'temporal' | 'logger'>,
  deliveryId: string,
  replays: number,
  attempts: number,
): Promise<void> {
  const retry = {
    initialSeconds: deps.config.NOTIFICATION_RETRY_INITIAL_SECONDS,
    maxSeconds: deps.config.NOTIFICATION_RETRY_MAX_SECONDS,
    attempts,
  };
  try {
    await deps.temporal.workflow.start('deliverNotificationWorkflow', {
      workflowId: deliveryWorkflowId({ id: deliveryId, replays }),
      taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
      args: [deliveryId, retry],
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError))
      deps.logger.warn({ err: error, delivery_id: deliveryId }, 'delivery workflow did not start; the dispatcher will');
  }
}

// A test message to one channel (the application's "Send a test"): an event of kind `test` for the
// channel's preference and one delivery, delivered by the same workflow as every other (signed
// webhook or e-mail, the address policy, the log) with one attempt, so the log shows at once
// whether the receiver took it; a failed one can be replayed. Sent whether or not the channel is
// enabled or follows any event: it tests where the channel sends. Own channel: Read; the
// organization's: Write (as a replay).
export async function sendTestDelivery(
  deps: Pick<AppDeps, 'db' | 'config' | 'temporal' | 'logger'>,
  actor: MemberActor,
  channelId: string,
) {
  const owner = (await visibleChannelIds(deps.db, actor, [channelId])).get(channelId);
  if (!owner) throw errors.notFound('notification channel');
  if (owner === 'organization' && !atLeast(actor.level, 'write')) throw errors.insufficientLevel('write');
  const channel = await deps.db.notificationChannel.findUniqueOrThrow({ where: { id: channelId } });
  const eventId = randomUUID();
  const payload = {
    type: 'test',
    id: eventId,
    organization_id: actor.organizationId,
    message: 'A test message from Invoice Compliance: this channel receives notifications.',
    url: `${deps.config.APP_BASE_URL.replace(/\/$/, '')}/app/settings/notifications`,
  };
  const deliveryId = randomUUID();
  await deps.db.$transaction([
    deps.db.notificationEvent.create({
      data: {
        id: eventId,
        organizationId: actor.organizationId,
        preferenceId: channel.preferenceId,
        kind: 'test',
        payload,
      },
    }),
    deps.db.notificationDelivery.create({
      data: {
        id: deliveryId,
        organizationId: actor.organizationId,
        eventId,
        channelId,
        channelType: channel.type,
        kind: 'test',
      },
    }),
  ]);
  await startDelivery(deps, deliveryId, 0, 1);
  const row = await deps.db.notificationDelivery.findUniqueOrThrow({
    where: { id: deliveryId },
    include: WITH_PAYLOAD,
  });
  return serializeDelivery(row);
}
