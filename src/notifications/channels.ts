import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { Prisma } from '../db/client.js';
import { inBatches } from '../shared/batches.js';
import { channelReadiness, type Owner } from './preferences.js';

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
