import type { Config } from '../config.js';
import { countInBatches, inBatches } from '../shared/batches.js';
import type { Db } from '../db/client.js';
import { Prisma } from '../db/client.js';
import { deterministicUuid } from '../shared/ids.js';
import { scopeCondition, scopeOfMember } from '../teams/scope.js';
import { memberOwnersOf } from './channels.js';
import { channelReadiness, usableSources, type StoredPreference } from './preferences.js';
import type { SourceFilter } from './schemas.js';

// Turns what happened into events and deliveries. An event's id is derived from its cause and its
// subscriber (the preference), a delivery's from its event and channel, and both are inserted with
// ON CONFLICT DO NOTHING: running a dispatch again never creates a second message.

export type EventKind = 'new_alert' | 'agreement_expiring';
const FINISHED_RUN = ['completed', 'completed_with_errors', 'failed', 'cancelled'];
// Alerts listed in one new_alert message; the count says how many there were in all.
const MAX_LISTED_ALERTS = 100;
export const EXPIRY_THRESHOLDS_DAYS = [90, 60, 30] as const;

export const deliveryIdOf = (eventId: string, channelId: string) =>
  deterministicUuid(`notification-delivery:${eventId}:${channelId}`);

// In the checks' own transaction: the alerts each check created, for the run's new_alert messages
// (one outbox row per check, its id the check's).
export async function recordNewAlerts(
  tx: Prisma.TransactionClient,
  organizationId: string,
  runId: string,
  checks: { checkId: string; alertIds: string[] }[],
): Promise<void> {
  const created = checks.filter((check) => check.alertIds.length > 0);
  if (created.length === 0) return;
  // Each check's ids as one JSON array: unnest cannot take an array of arrays of different lengths.
  await tx.$executeRaw`
    INSERT INTO notification_outbox (id, organization_id, run_id, alert_ids)
    SELECT o.id, ${organizationId}::uuid, ${runId}::uuid, ARRAY(SELECT e.id::uuid FROM jsonb_array_elements_text(o.alert_ids::jsonb) WITH ORDINALITY AS e(id, n) ORDER BY e.n)
      FROM unnest(${created.map((check) => check.checkId)}::uuid[], ${created.map((check) => JSON.stringify(check.alertIds))}::text[]) AS o(id, alert_ids)
    ON CONFLICT (id) DO UPDATE SET alert_ids = EXCLUDED.alert_ids`;
}

async function subscribersOf(db: Db, organizationId: string, kind: EventKind) {
  const preferences = await db.notificationPreference.findMany({
    where: { organizationId, channels: { some: { enabled: true, events: { has: kind } } } },
    include: { sources: { orderBy: { position: 'asc' } }, channels: { orderBy: { position: 'asc' } } },
  });
  const userIds = preferences.flatMap((p) => (p.userId ? [p.userId] : []));
  const [users, members] = await Promise.all([
    inBatches(userIds, (ids) => db.user.findMany({ where: { id: { in: ids } }, select: { id: true, email: true } })),
    memberOwnersOf(db, organizationId, userIds),
  ]);
  const emails = new Map(users.map((u) => [u.id, u.email]));
  // Only members hear of the organization: a personal preference whose owner left sends nothing.
  return preferences
    .filter(
      (preference) =>
        preference.owner === 'organization' || (preference.userId !== null && members.has(preference.userId)),
    )
    .map((preference) => ({
      preference,
      ownerEmail: preference.userId ? (emails.get(preference.userId) ?? null) : null,
    }));
}

function readyChannels(config: Config, preference: StoredPreference, ownerEmail: string | null, kind: EventKind) {
  return preference.channels.filter(
    (c) => c.events.includes(kind) && channelReadiness(config, preference, c, ownerEmail) === 'ready',
  );
}

function referencedIds(filters: SourceFilter[]) {
  const of = (type: string) => [
    ...new Set(filters.flatMap((f) => f.references.filter((r) => r.type === type).map((r) => r.id))),
  ];
  return {
    suppliers: of('supplier'),
    recipients: of('recipient'),
    agreements: of('agreement'),
    tags: of('agreement_tag'),
  };
}

// Scope `mine` narrows a personal preference to the records covered by the person's teams
// (docs/notifications.md "Who follows what"): the teams' compiled filters, the same SQL as
// mine=true on the lists. A person in no team (or whose teams have no valid filter) hears nothing.
async function recordsCoveredByCallerTeams(
  db: Db,
  preference: StoredPreference,
  target: 'alert' | 'agreement',
  alias: string,
): Promise<Prisma.Sql> {
  if (preference.owner !== 'personal' || preference.scope !== 'mine' || !preference.userId) return Prisma.sql`TRUE`;
  return scopeCondition(await scopeOfMember(db, preference.organizationId, preference.userId), target, alias);
}

// Which of the alerts the preference follows: all for the organization, else those whose invoice's
// supplier or recipient, agreement, or agreement's tag is referenced by one of its sources.
async function followedAlerts(db: Db, preference: StoredPreference, alertIds: string[]): Promise<string[]> {
  if (preference.owner === 'organization') return alertIds;
  const refs = referencedIds(usableSources(preference).map((s) => s.filter));
  const covered = await recordsCoveredByCallerTeams(db, preference, 'alert', 'a');
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT a.id::text AS id FROM alerts a JOIN invoices i ON i.id = a.invoice_id
     WHERE a.id = ANY(${alertIds}::uuid[]) AND a.organization_id = ${preference.organizationId}::uuid AND ${covered}
       AND (i.supplier_id = ANY(${refs.suppliers}::uuid[]) OR i.recipient_id = ANY(${refs.recipients}::uuid[])
            OR a.agreement_id = ANY(${refs.agreements}::uuid[])
            OR EXISTS (SELECT 1 FROM agreement_tags t WHERE t.agreement_id = a.agreement_id AND t.tag_id = ANY(${refs.tags}::uuid[])))`;
  return rows.map((r) => r.id);
}

async function followedAgreements(db: Db, preference: StoredPreference, agreementIds: string[]): Promise<Set<string>> {
  if (preference.owner === 'organization') return new Set(agreementIds);
  const refs = referencedIds(usableSources(preference).map((s) => s.filter));
  const covered = await recordsCoveredByCallerTeams(db, preference, 'agreement', 'g');
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT g.id::text AS id FROM agreements g
     WHERE g.id = ANY(${agreementIds}::uuid[]) AND g.organization_id = ${preference.organizationId}::uuid AND ${covered}
       AND (g.id = ANY(${refs.agreements}::uuid[])
            OR EXISTS (SELECT 1 FROM agreement_suppliers s WHERE s.agreement_id = g.id AND s.supplier_id = ANY(${refs.suppliers}::uuid[]))
            OR EXISTS (SELECT 1 FROM agreement_recipients r WHERE r.agreement_id = g.id AND r.recipient_id = ANY(${refs.recipients}::uuid[]))
            OR EXISTS (SELECT 1 FROM agreement_tags t WHERE t.agreement_id = g.id AND t.tag_id = ANY(${refs.tags}::uuid[])))`;
  return new Set(rows.map((r) => r.id));
}

async function createEvent(
  tx: Prisma.TransactionClient,
  event: {
    id: string;
    organizationId: string;
    preferenceId: string;
    kind: EventKind;
    payload: Record<string, unknown>;
  },
  channels: { id: string; type: string }[],
) {
  await tx.notificationEvent.createMany({
    data: [{ ...event, payload: event.payload as Prisma.InputJsonValue }],
    skipDuplicates: true,
  });
  await tx.notificationDelivery.createMany({
    data: channels.map((c) => ({
      id: deliveryIdOf(event.id, c.id),
      organizationId: event.organizationId,
      eventId: event.id,
      channelId: c.id,
      channelType: c.type,
      kind: event.kind,
    })),
    skipDuplicates: true,
  });
}

function recordLink(config: Config, path: string) {
  return `${config.APP_BASE_URL.replace(/\/$/, '')}${path}`;
}

// new_alert: for each finished run with recorded alerts, one event per subscriber following any of
// them, delivered to each of its ready channels. Returns how many runs were dispatched.
export async function dispatchNewAlerts(db: Db, config: Config, limit = 200): Promise<number> {
  const runs = await db.$queryRaw<{ run_id: string; organization_id: string }[]>`
    SELECT DISTINCT o.run_id::text AS run_id, o.organization_id::text AS organization_id
      FROM notification_outbox o JOIN workflow_runs r ON r.id = o.run_id
     WHERE r.status::text = ANY(${FINISHED_RUN}::text[])
     LIMIT ${limit}`;
  for (const run of runs) {
    const rows = await db.notificationOutbox.findMany({
      where: { runId: run.run_id },
      select: { id: true, alertIds: true },
    });
    const alertIds = [...new Set(rows.flatMap((r) => r.alertIds))];
    // A run's new alerts can be any number: batched under PostgreSQL's 65,535 bind parameters, then
    // ordered by id as one query would (hex uuids sort as PostgreSQL sorts uuids).
    const existing = (
      await inBatches(alertIds, (ids) =>
        db.alert.findMany({
          where: { id: { in: ids }, organizationId: run.organization_id },
          select: { id: true, title: true, impactAmount: true, currencyCode: true, invoiceId: true, agreementId: true },
        }),
      )
    ).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const byId = new Map(existing.map((a) => [a.id, a]));
    const subscribers = await subscribersOf(db, run.organization_id, 'new_alert');
    const events: { event: Parameters<typeof createEvent>[1]; channels: { id: string; type: string }[] }[] = [];
    for (const { preference, ownerEmail } of subscribers) {
      const channels = readyChannels(config, preference, ownerEmail, 'new_alert');
      if (channels.length === 0 || byId.size === 0) continue;
      const followed = (await followedAlerts(db, preference, [...byId.keys()])).sort();
      if (followed.length === 0) continue;
      const id = deterministicUuid(`notification-event:new_alert:${run.run_id}:${preference.id}`);
      const payload = {
        type: 'new_alert',
        id,
        organization_id: run.organization_id,
        workflow_run_id: run.run_id,
        alert_count: followed.length,
        alerts: followed.slice(0, MAX_LISTED_ALERTS).map((alertId) => {
          const alert = byId.get(alertId)!;
          return {
            id: alert.id,
            title: alert.title,
            impact_amount: alert.impactAmount?.toFixed(2) ?? null,
            currency_code: alert.currencyCode,
            invoice_id: alert.invoiceId,
            agreement_id: alert.agreementId,
            url: recordLink(config, `/alerts/${alert.id}`),
          };
        }),
        url: recordLink(config, `/workflow-runs/${run.run_id}`),
      };
      events.push({
        event: { id, organizationId: run.organization_id, preferenceId: preference.id, kind: 'new_alert', payload },
        channels,
      });
    }
    await db.$transaction(async (tx) => {
      for (const { event, channels } of events) await createEvent(tx, event, channels);
      // Dispatched rows are removed (the events are the record), so the outbox stays small.
      await countInBatches(
        rows.map((r) => r.id),
        (ids) => tx.notificationOutbox.deleteMany({ where: { id: { in: ids } } }),
      );
    });
  }
  return runs.length;
}

// agreement_expiring: agreements expiring exactly 90, 60 or 30 days after `today` (UTC), one event
// per agreement, threshold and subscriber.
export async function dispatchAgreementExpiring(db: Db, config: Config, today: string): Promise<number> {
  const base = Date.parse(`${today}T00:00:00Z`);
  const dates = EXPIRY_THRESHOLDS_DAYS.map((days) => new Date(base + days * 86_400_000));
  const agreements = await db.agreement.findMany({
    where: { expirationDate: { in: dates }, status: { not: 'archived' } },
    select: { id: true, organizationId: true, title: true, expirationDate: true },
  });
  const byOrganization = new Map<string, typeof agreements>();
  for (const a of agreements)
    byOrganization.set(a.organizationId, [...(byOrganization.get(a.organizationId) ?? []), a]);
  let created = 0;
  for (const [organizationId, list] of byOrganization) {
    const subscribers = await subscribersOf(db, organizationId, 'agreement_expiring');
    for (const { preference, ownerEmail } of subscribers) {
      const channels = readyChannels(config, preference, ownerEmail, 'agreement_expiring');
      if (channels.length === 0) continue;
      const followed = await followedAgreements(
        db,
        preference,
        list.map((a) => a.id),
      );
      const due = list.filter((a) => followed.has(a.id));
      await db.$transaction(async (tx) => {
        for (const agreement of due) {
          const expiration = agreement.expirationDate!.toISOString().slice(0, 10);
          const days = Math.round((agreement.expirationDate!.getTime() - base) / 86_400_000);
          const id = deterministicUuid(
            `notification-event:agreement_expiring:${agreement.id}:${expiration}:${days}:${preference.id}`,
          );
          const payload = {
            type: 'agreement_expiring',
            id,
            organization_id: organizationId,
            agreement: {
              id: agreement.id,
              title: agreement.title,
              expiration_date: expiration,
              url: recordLink(config, `/agreements/${agreement.id}`),
            },
            days_until_expiration: days,
          };
          await createEvent(
            tx,
            { id, organizationId, preferenceId: preference.id, kind: 'agreement_expiring', payload },
            channels,
          );
        }
      });
      // Counted after the commit: a transaction retried after a conflict runs its body again.
      created += due.length;
    }
  }
  return created;
}

// Deliveries waiting for their workflow: pending and not attempted yet (new ones, and any whose
// start was lost). One being retried has attempts and its workflow; starting a delivery's workflow
// twice is refused by Temporal (same workflow id), so listing one twice is harmless.
export async function pendingDeliveries(db: Db, limit = 500): Promise<{ id: string; replays: number }[]> {
  return db.notificationDelivery.findMany({
    where: { status: 'pending', attempts: 0 },
    select: { id: true, replays: true },
    orderBy: { createdAt: 'asc' },
    take: limit,
  });
}
