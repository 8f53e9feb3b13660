import type { z } from 'zod';
import type { MemberActor } from '../auth/actor.js';
import { atLeast } from '../auth/levels.js';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { Prisma } from '../db/client.js';
import type { AppDeps } from '../deps.js';
import { errors } from '../http/errors.js';
import { keyset, pageOf, resolvePage, type SortColumn } from '../http/pagination.js';
import { inBatches } from '../shared/batches.js';
import { requireOwnerLevel, visibleChannelIds } from './access.js';
import { channelReadiness, newWebhookSecret, type Owner } from './preferences.js';
import type { channelListQuery } from './schemas.js';

// Every channel of an organization, as an Admin sees it (GET /v1/notification-channels): whose it
// is, where it sends and whether it is ready, so an Admin can find and stop any of them
// (PATCH /v1/notification-channels/{id} with enabled: false). Secrets are never shown.

export const CHANNEL_INCLUDE = {
  preference: { include: { sources: { orderBy: { position: 'asc' } } } },
} as const satisfies Prisma.NotificationChannelInclude;
export type ChannelWithPreference = Prisma.NotificationChannelGetPayload<{ include: typeof CHANNEL_INCLUDE }>;

export async function serializeChannels(db: Db, config: Config, channels: ChannelWithPreference[]) {
  const userIds = [...new Set(channels.flatMap((c) => (c.preference.userId ? [c.preference.userId] : [])))];
  const users = await inBatches(userIds, (ids) =>
    db.user.findMany({ where: { id: { in: ids } }, select: { id: true, email: true } }),
  );
  const emails = new Map(users.map((u) => [u.id, u.email]));
  return channels.map((channel) => {
    const owner = channel.preference.owner as Owner;
    const ownerEmail = channel.preference.userId ? (emails.get(channel.preference.userId) ?? null) : null;
    return {
      id: channel.id,
      owner,
      user_id: owner === 'personal' ? channel.preference.userId : null,
      type: channel.type as 'email' | 'webhook',
      enabled: channel.enabled,
      events: channel.events,
      readiness: channelReadiness(config, channel.preference, channel, ownerEmail),
      ...(channel.type === 'email'
        ? { address: channel.address }
        : { url: channel.url ?? '', secret_set: channel.secret !== null }),
      created_at: channel.createdAt.toISOString(),
    };
  });
}

type Deps = Pick<AppDeps, 'db' | 'config'>;
type ChannelView = Awaited<ReturnType<typeof serializeChannels>>[number];

const CREATED: SortColumn = { field: 'createdAt', kind: 'date' };

// A page of every channel of the organization, each person's and its own, oldest first (Admin).
export async function listChannelsPage(
  deps: Deps & Pick<AppDeps, 'cursors'>,
  organizationId: string,
  query: z.infer<typeof channelListQuery>,
) {
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
        { organizationId },
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
  return { data: await serializeChannels(deps.db, deps.config, shown), next_cursor: nextCursor };
}

// One channel as an Admin, or its owner, sees it. An Admin sees every channel of the organization;
// anyone else only their own and the organization's (another person's is not found).
async function findVisibleChannel(db: Db, actor: MemberActor, id: string): Promise<ChannelWithPreference> {
  const channel = await db.notificationChannel.findFirst({
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

export async function getChannel(deps: Deps, actor: MemberActor, id: string): Promise<ChannelView> {
  const channel = await findVisibleChannel(deps.db, actor, id);
  return (await serializeChannels(deps.db, deps.config, [channel]))[0]!;
}

// A channel the caller may turn on or off (one's own with Read, any other with Admin), with its view.
export async function findChannelToChange(
  deps: Deps,
  actor: MemberActor,
  id: string,
): Promise<{ channel: ChannelWithPreference; view: ChannelView }> {
  const channel = await findVisibleChannel(deps.db, actor, id);
  const own = channel.preference.owner === 'personal' && channel.preference.ownerKey === actor.userId;
  if (!own) requireOwnerLevel(actor, 'organization', true);
  const [view] = await serializeChannels(deps.db, deps.config, [channel]);
  return { channel, view: view! };
}

// Turning a channel to the state it is in changes nothing.
export async function setChannelEnabled(
  deps: Deps,
  actor: MemberActor,
  found: { channel: ChannelWithPreference; view: ChannelView },
  enabled: boolean | undefined,
): Promise<ChannelView> {
  const { channel, view } = found;
  if (enabled === undefined || enabled === channel.enabled) return view;
  // Conditional on the state read, so a PUT of the preference in between is not overwritten.
  await deps.db.notificationChannel.updateMany({
    where: { id: channel.id, enabled: channel.enabled },
    data: { enabled },
  });
  return getChannel(deps, actor, channel.id);
}

// A webhook channel's new signing secret, shown this once; the old one stops signing at once.
export async function rotateChannelSecret(
  db: Db,
  actor: MemberActor,
  id: string,
): Promise<{ id: string; secret: string }> {
  const owner = (await visibleChannelIds(db, actor, [id])).get(id);
  if (!owner) throw errors.notFound('notification channel');
  requireOwnerLevel(actor, owner, true);
  const channel = await db.notificationChannel.findUniqueOrThrow({ where: { id } });
  if (channel.type !== 'webhook')
    throw errors.validation('Only webhook channels have a secret.', [
      { field: 'id', message: 'not a webhook channel' },
    ]);
  const secret = newWebhookSecret();
  await db.notificationChannel.update({ where: { id }, data: { secret } });
  return { id, secret };
}

// A member removed from an organization hears nothing more from it: their personal preference
// there (its sources and channels) is deleted in the removal's transaction, and deliveries still
// pending to those channels fail at once instead of waiting for their next attempt.
export async function endMemberNotifications(
  tx: Prisma.TransactionClient,
  organizationId: string,
  userId: string,
): Promise<void> {
  const channels = await tx.notificationChannel.findMany({
    where: { organizationId, preference: { ownerKey: userId, owner: 'personal' } },
    select: { id: true },
  });
  if (channels.length > 0) {
    await tx.notificationDelivery.updateMany({
      where: { organizationId, channelId: { in: channels.map((c) => c.id) }, status: 'pending' },
      data: { status: 'failed', lastError: "the channel's owner left the organization" },
    });
  }
  await tx.notificationPreference.deleteMany({ where: { organizationId, owner: 'personal', ownerKey: userId } });
}

// Personal preferences whose owner is still a member of the organization (and the organization's
// own): a preference left behind by a removal that did not go through endMemberNotifications (a
// membership deleted directly, an account deleted) never sends.
export async function memberOwnersOf(
  db: Pick<Db, 'membership'>,
  organizationId: string,
  userIds: string[],
): Promise<Set<string>> {
  const unique = [...new Set(userIds)];
  const members = await inBatches(unique, (ids) =>
    db.membership.findMany({ where: { organizationId, userId: { in: ids } }, select: { userId: true } }),
  );
  return new Set(members.map((m) => m.userId));
}
