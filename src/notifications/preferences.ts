import { randomBytes, randomUUID } from 'node:crypto';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { Prisma } from '../db/client.js';
import { errors } from '../http/errors.js';
import { addressPolicyOf, staticDestinationProblem } from './address-policy.js';
import { emailAddress, sourceFilterSchema, type PreferenceInput, type SourceFilter } from './schemas.js';

export type Owner = 'personal' | 'organization';
export type Readiness = 'ready' | 'disabled' | 'no_events' | 'no_sources' | 'invalid_destination';

export const ORGANIZATION_OWNER_KEY = 'organization';
export const ownerKeyOf = (owner: Owner, userId: string) =>
  owner === 'organization' ? ORGANIZATION_OWNER_KEY : userId;

// Standard Webhooks secrets: "whsec_" and base64 of random bytes (24 bytes = 192 bits).
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

const PREFERENCE_INCLUDE = {
  sources: { orderBy: { position: 'asc' } },
  channels: { orderBy: { position: 'asc' } },
} as const satisfies Prisma.NotificationPreferenceInclude;
export type StoredPreference = Prisma.NotificationPreferenceGetPayload<{ include: typeof PREFERENCE_INCLUDE }>;
type StoredChannel = StoredPreference['channels'][number];

export async function loadPreference(
  db: Db,
  organizationId: string,
  owner: Owner,
  userId: string,
): Promise<StoredPreference | null> {
  return db.notificationPreference.findUnique({
    where: { organizationId_ownerKey: { organizationId, ownerKey: ownerKeyOf(owner, userId) } },
    include: PREFERENCE_INCLUDE,
  });
}

// Only usable filters count (and appear): a stored filter that no longer validates is left out.
export function usableSources(
  preference: Pick<StoredPreference, 'sources'>,
): { id: string; name: string; filter: SourceFilter }[] {
  return preference.sources.flatMap((source) => {
    const parsed = sourceFilterSchema.safeParse(source.filter);
    return parsed.success ? [{ id: source.id, name: source.name, filter: parsed.data }] : [];
  });
}

// Why a channel would not deliver, first reason first; `ownerEmail` is the personal owner's address.
export function channelReadiness(
  config: Config,
  preference: Pick<StoredPreference, 'owner' | 'sources'>,
  channel: StoredChannel,
  ownerEmail: string | null,
): Readiness {
  if (!channel.enabled) return 'disabled';
  if (channel.events.length === 0) return 'no_events';
  if (preference.owner === 'personal' && usableSources(preference).length === 0) return 'no_sources';
  if (channel.type === 'email') {
    const address = channel.address ?? (preference.owner === 'personal' ? ownerEmail : null);
    if (!address || !emailAddress.safeParse(address).success) return 'invalid_destination';
  } else {
    if (!channel.url || !channel.secret || staticDestinationProblem(channel.url, addressPolicyOf(config)))
      return 'invalid_destination';
  }
  return 'ready';
}

// Names of the referenced records, in one statement per record type; a reference to a record
// that is gone (or another organization's) is `missing` with a null name.
async function referenceNames(db: Db, organizationId: string, filters: SourceFilter[]) {
  const ids = (type: string) => [
    ...new Set(filters.flatMap((f) => f.references.filter((r) => r.type === type).map((r) => r.id))),
  ];
  const [suppliers, recipients, agreements, tags] = await Promise.all([
    db.supplier.findMany({ where: { organizationId, id: { in: ids('supplier') } }, select: { id: true, name: true } }),
    db.recipient.findMany({
      where: { organizationId, id: { in: ids('recipient') } },
      select: { id: true, name: true },
    }),
    db.agreement.findMany({
      where: { organizationId, id: { in: ids('agreement') } },
      select: { id: true, title: true },
    }),
    db.tag.findMany({ where: { organizationId, id: { in: ids('agreement_tag') } }, select: { id: true, name: true } }),
  ]);
  const names = new Map<string, string | null>();
  for (const s of suppliers) names.set(`supplier:${s.id}`, s.name);
  for (const r of recipients) names.set(`recipient:${r.id}`, r.name);
  for (const a of agreements) names.set(`agreement:${a.id}`, a.title);
  for (const t of tags) names.set(`agreement_tag:${t.id}`, t.name);
  return names;
}

export async function serializePreference(
  db: Db,
  config: Config,
  organizationId: string,
  owner: Owner,
  userId: string,
  stored: StoredPreference | null,
  newSecrets: Map<string, string> = new Map(),
) {
  if (!stored) return { owner, scope: owner === 'personal' ? 'mine' : 'organization', sources: [], channels: [] };
  const sources = usableSources(stored);
  const [names, user] = await Promise.all([
    referenceNames(
      db,
      organizationId,
      sources.map((s) => s.filter),
    ),
    owner === 'personal' ? db.user.findUnique({ where: { id: userId }, select: { email: true } }) : null,
  ]);
  return {
    owner,
    scope: stored.scope,
    sources: sources.map((source) => ({
      id: source.id,
      name: source.name,
      personal: owner === 'personal',
      filter: source.filter,
      references: source.filter.references.map((ref) => {
        const key = `${ref.type}:${ref.id}`;
        return { id: ref.id, name: names.get(key) ?? null, missing: !names.has(key), type: ref.type };
      }),
    })),
    channels: stored.channels.map((channel) => ({
      id: channel.id,
      type: channel.type,
      enabled: channel.enabled,
      events: channel.events,
      readiness: channelReadiness(config, stored, channel, user?.email ?? null),
      ...(channel.type === 'email'
        ? { address: channel.address }
        : { url: channel.url, secret_set: channel.secret !== null }),
      ...(newSecrets.has(channel.id) ? { secret: newSecrets.get(channel.id) } : {}),
    })),
  };
}

// Replaces the whole preference: sources and channels not sent are removed. A channel sent with
// its id keeps its secret; a new webhook channel gets one, returned once (in newSecrets).
export async function replacePreference(
  db: Db,
  organizationId: string,
  userId: string,
  input: PreferenceInput,
): Promise<{ stored: StoredPreference; newSecrets: Map<string, string> }> {
  const ownerKey = ownerKeyOf(input.owner, userId);
  return db.$transaction(async (tx) => {
    // One writer per preference at a time, so two PUTs cannot interleave their replacements.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`notification-preference:${organizationId}:${ownerKey}`}))`;
    const existing = await tx.notificationPreference.findUnique({
      where: { organizationId_ownerKey: { organizationId, ownerKey } },
      include: PREFERENCE_INCLUDE,
    });
    const known = new Map((existing?.channels ?? []).map((c) => [c.id, c]));
    const knownSources = new Set((existing?.sources ?? []).map((s) => s.id));
    const unknown = [
      ...input.channels.flatMap((c, i) =>
        c.id && !known.has(c.id)
          ? [
              {
                field: `preferences.0.channels.${i}.id`,
                message: 'no such channel in this preference; leave id out to add one',
              },
            ]
          : [],
      ),
      ...input.sources.flatMap((s, i) =>
        s.id && !knownSources.has(s.id)
          ? [
              {
                field: `preferences.0.sources.${i}.id`,
                message: 'no such source in this preference; leave id out to add one',
              },
            ]
          : [],
      ),
    ];
    const repeated = (ids: (string | undefined)[]) => ids.filter((id, i) => id && ids.indexOf(id) !== i);
    if (repeated(input.channels.map((c) => c.id)).length || repeated(input.sources.map((s) => s.id)).length) {
      throw errors.validation('A channel or source id is sent twice.', [
        { field: 'preferences.0', message: 'ids must not repeat' },
      ]);
    }
    if (unknown.length > 0)
      throw errors.validation('The preference names channels or sources it does not have.', unknown);
    const id = existing?.id ?? randomUUID();
    if (existing) {
      await tx.notificationPreference.update({ where: { id }, data: { scope: input.scope } });
      await tx.notificationSource.deleteMany({ where: { preferenceId: id } });
      await tx.notificationChannel.deleteMany({
        where: { preferenceId: id, id: { notIn: input.channels.flatMap((c) => (c.id ? [c.id] : [])) } },
      });
    } else {
      await tx.notificationPreference.create({
        data: {
          id,
          organizationId,
          owner: input.owner,
          ownerKey,
          userId: input.owner === 'personal' ? userId : null,
          scope: input.scope,
        },
      });
    }
    await tx.notificationSource.createMany({
      data: input.sources.map((source, position) => ({
        id: source.id ?? randomUUID(),
        organizationId,
        preferenceId: id,
        position,
        name: source.name,
        filter: source.filter,
      })),
    });
    const newSecrets = new Map<string, string>();
    for (const [position, channel] of input.channels.entries()) {
      const previous = channel.id ? known.get(channel.id) : undefined;
      const channelId = channel.id ?? randomUUID();
      let secret = previous?.secret ?? null;
      if (channel.type === 'webhook' && !secret) {
        secret = newWebhookSecret();
        newSecrets.set(channelId, secret);
      }
      const data = {
        position,
        type: channel.type,
        enabled: channel.enabled,
        events: channel.events,
        address: channel.type === 'email' ? (channel.address ?? null) : null,
        url: channel.type === 'webhook' ? channel.url : null,
        secret: channel.type === 'webhook' ? secret : null,
      };
      if (previous) await tx.notificationChannel.update({ where: { id: channelId }, data });
      else await tx.notificationChannel.create({ data: { id: channelId, organizationId, preferenceId: id, ...data } });
    }
    const stored = await tx.notificationPreference.findUniqueOrThrow({ where: { id }, include: PREFERENCE_INCLUDE });
    return { stored, newSecrets };
  });
}
