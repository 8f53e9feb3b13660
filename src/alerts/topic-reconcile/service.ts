import { randomUUID } from 'node:crypto';
import { recordActivity, systemActor, type ActivityEntryInput } from '../../activity/record.js';
import type { Db, Prisma } from '../../db/client.js';
import { inBatches } from '../../shared/batches.js';
import { planReconcile, type ReconcileAlert, type ReconcilePlan, type ReconcileTopic } from './rule.js';

export interface ReconcileResult {
  topics_created: number;
  topics_rewritten: number;
  topics_removed: number;
  alerts_sorted: number;
}

type Tx = Prisma.TransactionClient;

async function loadTopics(tx: Tx, organizationId: string, agreementId: string): Promise<ReconcileTopic[]> {
  return tx.alertTopic.findMany({
    where: { organizationId, agreementId },
    select: { id: true, groupKey: true, isLocked: true, title: true, description: true },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
}

async function loadAlerts(tx: Tx, organizationId: string, agreementId: string): Promise<ReconcileAlert[]> {
  const alerts = await tx.alert.findMany({
    where: { organizationId, agreementId },
    select: {
      id: true,
      invoiceId: true,
      checker: true,
      status: true,
      topicId: true,
      impactAmount: true,
      currencyCode: true,
      invoiceLineId: true,
      match: { select: { active: true, invoice: { select: { deletedAt: true } } } },
    },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const lineIds = [...new Set(alerts.flatMap((a) => a.invoiceLineId ?? []))];
  const lines = await inBatches(lineIds, (ids) =>
    tx.invoiceLine.findMany({
      where: { organizationId, id: { in: ids } },
      select: { id: true, sellerItemId: true, description: true },
    }),
  );
  const lineById = new Map(lines.map((line) => [line.id, line]));
  return alerts.map((alert) => {
    const line = alert.invoiceLineId ? lineById.get(alert.invoiceLineId) : undefined;
    return {
      id: alert.id,
      invoiceId: alert.invoiceId,
      checker: alert.checker,
      status: alert.status,
      topicId: alert.topicId,
      impactAmount: alert.impactAmount.toString(),
      currencyCode: alert.currencyCode,
      line: line ? { sellerItemId: line.sellerItemId, description: line.description } : null,
      // As everywhere (docs/alerts.md): the match ended or the invoice was deleted.
      setAside: !alert.match.active || alert.match.invoice.deletedAt !== null,
    };
  });
}

// Every write is conditional on what the plan saw, so a user's concurrent move, lock or delete wins.
// Every change is recorded as the system's, done by the reconcile run (docs/audit.md).
async function applyPlan(
  tx: Tx,
  organizationId: string,
  agreementId: string,
  plan: ReconcilePlan,
  topics: ReconcileTopic[],
): Promise<{ result: ReconcileResult; activity: ActivityEntryInput[] }> {
  const activity: ActivityEntryInput[] = [];
  let sorted = 0;
  const place = async (topicId: string, alertIds: string[]) => {
    if (alertIds.length === 0) return;
    // Alerts of a completed claim cannot change, their topic included.
    const placed = await tx.$queryRaw<{ id: string }[]>`
      UPDATE alerts SET topic_id = ${topicId}::uuid, updated_at = now()
       WHERE id = ANY(${alertIds}::uuid[]) AND agreement_id = ${agreementId}::uuid AND topic_id IS NULL
         AND (claim_id IS NULL OR NOT EXISTS (SELECT 1 FROM claims c WHERE c.id = alerts.claim_id AND c.status = 'completed'))
      RETURNING id`;
    sorted += placed.length;
    activity.push(
      ...placed.map((alert) => ({
        entityType: 'alert' as const,
        entityId: alert.id,
        action: 'topic_changed',
        changes: { topic_id: { before: null, after: topicId } },
      })),
    );
  };
  for (const topic of plan.create) {
    const id = randomUUID();
    await tx.alertTopic.create({
      data: {
        id,
        organizationId,
        agreementId,
        title: topic.title,
        description: topic.description,
        groupKey: topic.groupKey,
      },
    });
    activity.push({
      entityType: 'topic',
      entityId: id,
      action: 'created',
      changes: {
        agreement_id: { before: null, after: agreementId },
        title: { before: null, after: topic.title },
        description: { before: null, after: topic.description },
      },
    });
    await place(id, topic.alertIds);
  }
  for (const assignment of plan.assign) await place(assignment.topicId, assignment.alertIds);
  let rewritten = 0;
  for (const text of plan.rewrite) {
    const { count } = await tx.alertTopic.updateMany({
      where: { id: text.topicId, isLocked: false },
      data: { title: text.title, description: text.description },
    });
    rewritten += count;
    const before = topics.find((topic) => topic.id === text.topicId);
    if (count > 0) {
      activity.push({
        entityType: 'topic',
        entityId: text.topicId,
        action: 'updated',
        changes: {
          title: { before: before?.title ?? null, after: text.title },
          description: { before: before?.description ?? null, after: text.description },
        },
      });
    }
  }
  const removed = plan.remove.length
    ? await tx.$queryRaw<{ id: string; title: string; description: string | null }[]>`
        DELETE FROM alert_topics t
         WHERE t.id = ANY(${plan.remove}::uuid[]) AND NOT t.is_locked AND NOT EXISTS (SELECT 1 FROM alerts a WHERE a.topic_id = t.id)
        RETURNING t.id, t.title, t.description`
    : [];
  activity.push(
    ...removed.map((topic) => ({
      entityType: 'topic' as const,
      entityId: topic.id,
      action: 'deleted',
      changes: { title: { before: topic.title, after: null }, description: { before: topic.description, after: null } },
    })),
  );
  return {
    result: {
      topics_created: plan.create.length,
      topics_rewritten: rewritten,
      topics_removed: removed.length,
      alerts_sorted: sorted,
    },
    activity,
  };
}

/**
 * Sorts the agreement's alerts into topics by the rule in rule.ts, in one transaction. Runs of the
 * same agreement take turns (an advisory lock), so two at once cannot both create a topic for a key.
 * Idempotent: a second reconcile of an unchanged agreement changes nothing.
 */
export async function reconcileAgreementTopics(
  db: Db,
  organizationId: string,
  agreementId: string,
  runId: string | null = null,
): Promise<ReconcileResult> {
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`topic-reconcile:${agreementId}`}))`;
      const topics = await loadTopics(tx, organizationId, agreementId);
      const plan = planReconcile(topics, await loadAlerts(tx, organizationId, agreementId));
      const { result, activity } = await applyPlan(tx, organizationId, agreementId, plan, topics);
      await recordActivity(tx, organizationId, systemActor(runId), activity);
      return result;
    },
    { maxWait: 10_000, timeout: 120_000 },
  );
}
