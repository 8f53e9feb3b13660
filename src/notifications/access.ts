import type { MemberActor } from '../auth/actor.js';
import { atLeast } from '../auth/levels.js';
import type { Db } from '../db/client.js';
import { errors } from '../http/errors.js';
import { ORGANIZATION_OWNER_KEY, type Owner } from './preferences.js';

// Who may see and change which notification channels (and their deliveries); one channel as a
// caller sees it is findVisibleChannel (channels.ts).

// Personal preferences change nothing of the organization's data, so Read suffices to read and
// change one's own; the organization's preference is read with Read and changed with Admin.
export function requireOwnerLevel(actor: MemberActor, owner: Owner, change: boolean): void {
  if (owner === 'organization' && change && !atLeast(actor.level, 'admin')) throw errors.insufficientLevel('admin');
}

// The channels a caller may see: their own personal ones and the organization's.
export async function visibleChannelIds(
  db: Db,
  actor: MemberActor,
  channelIds?: string[],
): Promise<Map<string, Owner>> {
  const channels = await db.notificationChannel.findMany({
    where: {
      organizationId: actor.organizationId,
      preference: { ownerKey: { in: [actor.userId, ORGANIZATION_OWNER_KEY] } },
      ...(channelIds ? { id: { in: channelIds } } : {}),
    },
    select: { id: true, preference: { select: { owner: true } } },
  });
  return new Map(channels.map((c) => [c.id, c.preference.owner as Owner]));
}
