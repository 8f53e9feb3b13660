import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { changedFields, recordActivity, type Actor } from '../../activity/record.js';
import type { RequestActor } from '../../auth/actor.js';
import type { AppDeps } from '../../deps.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { AlertTopic } from '../../generated/prisma/client.js';
import { assertNotInCompletedClaim } from '../service.js';
import { ApiError, errors } from '../../http/errors.js';
import { keyset, pageOf, resolvePage, type SortColumn } from '../../http/pagination.js';
import { visibleAlertsWhere } from '../filters.js';
import type { CreateTopicInput, PatchTopicInput, topicListQuery } from './schemas.js';

type Deps = Pick<AppDeps, 'db'>;
type TopicWithCount = AlertTopic & { _count: { alerts: number } };
type ActingAs = RequestActor | Actor;

// What a topic's activity entries compare (alert_count is derived, not a change of the topic).
const topicFields = (topic: AlertTopic | null): Record<string, unknown> =>
  topic
    ? { agreement_id: topic.agreementId, title: topic.title, description: topic.description, is_locked: topic.isLocked }
    : {};

function topicActivity(action: string, before: AlertTopic | null, after: AlertTopic | null) {
  return {
    entityType: 'topic' as const,
    entityId: (after ?? before)!.id,
    action,
    changes: changedFields(topicFields(before), topicFields(after), [
      'agreement_id',
      'title',
      'description',
      'is_locked',
    ]),
  };
}

// Alerts put into a topic (or taken out of theirs): one entry per alert whose topic changes.
async function recordTopicMoves(
  tx: Prisma.TransactionClient,
  organizationId: string,
  actor: ActingAs,
  moves: { id: string; topicId: string | null }[],
  topicId: string | null,
) {
  const moved = moves.filter((alert) => alert.topicId !== topicId);
  await recordActivity(
    tx,
    organizationId,
    actor,
    moved.map((alert) => ({
      entityType: 'alert' as const,
      entityId: alert.id,
      action: 'topic_changed',
      changes: { topic_id: { before: alert.topicId, after: topicId } },
    })),
  );
}

// Topics group the alerts of one agreement. alert_count counts what lists show: set-aside alerts
// stay in their topic but are not counted (and a topic holding only those is "empty" in lists).
export function topicInclude(organizationId: string) {
  return { _count: { select: { alerts: { where: visibleAlertsWhere(organizationId) } } } };
}

export function serializeTopic(topic: TopicWithCount) {
  return {
    id: topic.id,
    agreement_id: topic.agreementId,
    title: topic.title,
    description: topic.description,
    is_locked: topic.isLocked,
    alert_count: topic._count.alerts,
    created_at: topic.createdAt.toISOString(),
    updated_at: topic.updatedAt.toISOString(),
  };
}

const SORTS: Record<string, SortColumn> = {
  created_at: { field: 'createdAt', kind: 'date' },
  updated_at: { field: 'updatedAt', kind: 'date' },
  title: { field: 'title', kind: 'string' },
};

// A page of the organization's topics, newest first; topics without visible alerts only with include_empty.
export async function listTopicsPage(
  deps: Pick<AppDeps, 'db' | 'cursors'>,
  organizationId: string,
  query: z.infer<typeof topicListQuery>,
) {
  const { limit, cursor, sort, direction, fields, ...filters } = query;
  const page = resolvePage(
    deps.cursors,
    { limit, cursor, sort, direction },
    { sort: 'created_at', direction: 'desc' },
    filters,
  );
  const column = SORTS[page.sort]!;
  const { where, orderBy, take } = keyset(page, column);
  const topicWhere: Prisma.AlertTopicWhereInput = {
    organizationId,
    ...(filters.agreement_ids ? { agreementId: { in: filters.agreement_ids } } : {}),
    ...(filters.include_empty ? {} : { alerts: { some: visibleAlertsWhere(organizationId) } }),
  };
  const rows = await deps.db.alertTopic.findMany({
    where: { AND: [topicWhere, where] },
    orderBy,
    take,
    include: topicInclude(organizationId),
  });
  const { rows: visible, nextCursor } = pageOf(deps.cursors, page, column, rows);
  return { data: visible.map(serializeTopic), next_cursor: nextCursor };
}

export async function findTopic(deps: Deps, organizationId: string, id: string): Promise<TopicWithCount> {
  const topic = await deps.db.alertTopic.findFirst({
    where: { id, organizationId },
    include: topicInclude(organizationId),
  });
  if (!topic) throw errors.notFound('alert topic');
  return topic;
}

// Every id must name an alert of the organization on this agreement; otherwise nothing changes.
async function assertAlertsOfAgreement(
  deps: Deps,
  organizationId: string,
  agreementId: string,
  alertIds: string[],
): Promise<string[]> {
  const ids = [...new Set(alertIds)];
  const alerts = await deps.db.alert.findMany({
    where: { organizationId, id: { in: ids } },
    select: { id: true, agreementId: true, claimId: true, claim: { select: { status: true } } },
  });
  const issues = ids.flatMap((id) => {
    const alert = alerts.find((a) => a.id === id);
    if (!alert) return [{ field: 'alert_ids', message: `no alert ${id}` }];
    if (alert.agreementId !== agreementId)
      return [{ field: 'alert_ids', message: `alert ${id} belongs to another agreement` }];
    return [];
  });
  if (issues.length > 0)
    throw errors.validation("Some alert_ids name no alert of the topic's agreement; nothing was changed.", issues);
  // Alerts in a completed claim cannot change, their topic included.
  for (const alert of alerts) assertNotInCompletedClaim(alert);
  return ids;
}

export async function createTopic(
  deps: Deps,
  actor: ActingAs,
  organizationId: string,
  input: CreateTopicInput,
): Promise<TopicWithCount> {
  const agreement = await deps.db.agreement.findFirst({
    where: { id: input.agreement_id, organizationId },
    select: { id: true },
  });
  if (!agreement)
    throw errors.validation('agreement_id names no agreement.', [
      { field: 'agreement_id', message: 'names no agreement' },
    ]);
  const alertIds = input.alert_ids
    ? await assertAlertsOfAgreement(deps, organizationId, agreement.id, input.alert_ids)
    : [];
  const id = randomUUID();
  await deps.db.$transaction(async (tx) => {
    const topic = await tx.alertTopic.create({
      data: {
        id,
        organizationId,
        agreementId: agreement.id,
        title: input.title,
        description: input.description ?? null,
        isLocked: input.is_locked,
      },
    });
    await recordActivity(tx, organizationId, actor, [topicActivity('created', null, topic)]);
    await moveInto(tx, organizationId, actor, alertIds, id);
  });
  return findTopic(deps, organizationId, id);
}

export async function patchTopic(
  deps: Deps,
  actor: ActingAs,
  topic: AlertTopic,
  input: PatchTopicInput,
): Promise<TopicWithCount> {
  const next: AlertTopic = {
    ...topic,
    ...(input.title !== undefined ? { title: input.title } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.is_locked !== undefined ? { isLocked: input.is_locked } : {}),
  };
  const entry = topicActivity('updated', topic, next);
  // Sending back what was read changes nothing, not even updated_at.
  if (Object.keys(entry.changes).length > 0) {
    await deps.db.$transaction(async (tx) => {
      await tx.alertTopic.update({
        where: { id: topic.id },
        data: { title: next.title, description: next.description, isLocked: next.isLocked },
      });
      await recordActivity(tx, topic.organizationId, actor, [entry]);
    });
  }
  return findTopic(deps, topic.organizationId, topic.id);
}

// The alerts stay, uncategorized. Alerts in a completed claim cannot change, their topic included
// (spec, Alert transitions): while the topic holds one, it is not deleted (409, nothing changes).
export async function deleteTopic(deps: Deps, actor: ActingAs, topic: AlertTopic): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    const held = await tx.alert.findMany({
      where: { topicId: topic.id, claim: { status: 'completed' } },
      select: { id: true, claimId: true },
      take: 100,
    });
    if (held.length > 0) {
      throw new ApiError(
        409,
        'alert_in_completed_claim',
        'The topic holds alerts of a completed claim, which cannot change; reopen the claim or move those alerts out first. Nothing was changed.',
        {
          details: held.map((alert) => ({
            field: 'id',
            alert_id: alert.id,
            claim_id: alert.claimId,
            message: 'in a completed claim',
          })),
        },
      );
    }
    const alerts = await tx.alert.findMany({ where: { topicId: topic.id }, select: { id: true, topicId: true } });
    await tx.alert.updateMany({ where: { topicId: topic.id }, data: { topicId: null } });
    await recordTopicMoves(tx, topic.organizationId, actor, alerts, null);
    const { count } = await tx.alertTopic.deleteMany({ where: { id: topic.id } });
    if (count > 0) await recordActivity(tx, topic.organizationId, actor, [topicActivity('deleted', topic, null)]);
  });
}

async function moveInto(
  tx: Prisma.TransactionClient,
  organizationId: string,
  actor: ActingAs,
  alertIds: string[],
  topicId: string,
) {
  if (alertIds.length === 0) return;
  const before = await tx.alert.findMany({ where: { id: { in: alertIds } }, select: { id: true, topicId: true } });
  await tx.alert.updateMany({ where: { id: { in: alertIds } }, data: { topicId } });
  await recordTopicMoves(tx, organizationId, actor, before, topicId);
}

// Moves alerts of the topic's agreement into it; topics they leave stay, even when emptied.
export async function moveAlerts(
  deps: Deps,
  actor: ActingAs,
  topic: AlertTopic,
  alertIds: string[],
): Promise<TopicWithCount> {
  const ids = await assertAlertsOfAgreement(deps, topic.organizationId, topic.agreementId, alertIds);
  await deps.db.$transaction((tx) => moveInto(tx, topic.organizationId, actor, ids, topic.id));
  return findTopic(deps, topic.organizationId, topic.id);
}
