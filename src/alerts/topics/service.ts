import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../../deps.js';
import type { AlertTopic } from '../../generated/prisma/client.js';
import { assertNotInCompletedClaim } from '../service.js';
import { errors } from '../../http/errors.js';
import { visibleAlertsWhere } from '../filters.js';
import type { CreateTopicInput, PatchTopicInput } from './schemas.js';

type Deps = Pick<AppDeps, 'db'>;
type TopicWithCount = AlertTopic & { _count: { alerts: number } };

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

export async function findTopic(deps: Deps, organizationId: string, id: string): Promise<TopicWithCount> {
  const topic = await deps.db.alertTopic.findFirst({ where: { id, organizationId }, include: topicInclude(organizationId) });
  if (!topic) throw errors.notFound('alert topic');
  return topic;
}

// Every id must name an alert of the organization on this agreement; otherwise nothing changes.
async function assertAlertsOfAgreement(deps: Deps, organizationId: string, agreementId: string, alertIds: string[]): Promise<string[]> {
  const ids = [...new Set(alertIds)];
  const alerts = await deps.db.alert.findMany({ where: { organizationId, id: { in: ids } }, select: { id: true, agreementId: true, claimId: true, claim: { select: { status: true } } } });
  const issues = ids.flatMap((id) => {
    const alert = alerts.find((a) => a.id === id);
    if (!alert) return [{ field: 'alert_ids', message: `no alert ${id}` }];
    if (alert.agreementId !== agreementId) return [{ field: 'alert_ids', message: `alert ${id} belongs to another agreement` }];
    return [];
  });
  if (issues.length > 0) throw errors.validation("Some alert_ids name no alert of the topic's agreement; nothing was changed.", issues);
  // Alerts in a completed claim cannot change, their topic included.
  for (const alert of alerts) assertNotInCompletedClaim(alert);
  return ids;
}

export async function createTopic(deps: Deps, organizationId: string, input: CreateTopicInput): Promise<TopicWithCount> {
  const agreement = await deps.db.agreement.findFirst({ where: { id: input.agreement_id, organizationId }, select: { id: true } });
  if (!agreement) throw errors.validation('agreement_id names no agreement.', [{ field: 'agreement_id', message: 'names no agreement' }]);
  const alertIds = input.alert_ids ? await assertAlertsOfAgreement(deps, organizationId, agreement.id, input.alert_ids) : [];
  const id = randomUUID();
  await deps.db.$transaction([
    deps.db.alertTopic.create({
      data: { id, organizationId, agreementId: agreement.id, title: input.title, description: input.description ?? null, isLocked: input.is_locked },
    }),
    deps.db.alert.updateMany({ where: { id: { in: alertIds } }, data: { topicId: id } }),
  ]);
  return findTopic(deps, organizationId, id);
}

export async function patchTopic(deps: Deps, topic: AlertTopic, input: PatchTopicInput): Promise<TopicWithCount> {
  await deps.db.alertTopic.update({
    where: { id: topic.id },
    data: {
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.is_locked !== undefined ? { isLocked: input.is_locked } : {}),
    },
  });
  return findTopic(deps, topic.organizationId, topic.id);
}

// The alerts stay, uncategorized.
export async function deleteTopic(deps: Deps, topic: AlertTopic): Promise<void> {
  await deps.db.$transaction([
    deps.db.alert.updateMany({ where: { topicId: topic.id }, data: { topicId: null } }),
    deps.db.alertTopic.delete({ where: { id: topic.id } }),
  ]);
}

// Moves alerts of the topic's agreement into it; topics they leave stay, even when emptied.
export async function moveAlerts(deps: Deps, topic: AlertTopic, alertIds: string[]): Promise<TopicWithCount> {
  const ids = await assertAlertsOfAgreement(deps, topic.organizationId, topic.agreementId, alertIds);
  await deps.db.alert.updateMany({ where: { id: { in: ids } }, data: { topicId: topic.id } });
  return findTopic(deps, topic.organizationId, topic.id);
}
