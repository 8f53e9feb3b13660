import { randomUUID } from 'node:crypto';
import type { Db, Prisma } from '../../db/client.js';
import { countInBatches, inBatches } from '../../shared/batches.js';
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
    select: { id: true, invoiceId: true, checker: true, status: true, topicId: true, impactAmount: true, currencyCode: true, invoiceLineId: true, match: { select: { active: true, invoice: { select: { deletedAt: true } } } } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const lineIds = [...new Set(alerts.flatMap((a) => a.invoiceLineId ?? []))];
  const lines = await inBatches(lineIds, (ids) => tx.invoiceLine.findMany({ where: { organizationId, id: { in: ids } }, select: { id: true, sellerItemId: true, description: true } }));
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
async function applyPlan(tx: Tx, organizationId: string, agreementId: string, plan: ReconcilePlan): Promise<ReconcileResult> {
  let sorted = 0;
  const place = async (topicId: string, alertIds: string[]) => {
    sorted += await countInBatches(alertIds, (ids) => tx.alert.updateMany({ where: { id: { in: ids }, agreementId, topicId: null }, data: { topicId } }));
  };
  for (const topic of plan.create) {
    const id = randomUUID();
    await tx.alertTopic.create({ data: { id, organizationId, agreementId, title: topic.title, description: topic.description, groupKey: topic.groupKey } });
    await place(id, topic.alertIds);
  }
  for (const assignment of plan.assign) await place(assignment.topicId, assignment.alertIds);
  let rewritten = 0;
  for (const text of plan.rewrite) {
    rewritten += (await tx.alertTopic.updateMany({ where: { id: text.topicId, isLocked: false }, data: { title: text.title, description: text.description } })).count;
  }
  const removed = plan.remove.length
    ? (await tx.alertTopic.deleteMany({ where: { id: { in: plan.remove }, isLocked: false, alerts: { none: {} } } })).count
    : 0;
  return { topics_created: plan.create.length, topics_rewritten: rewritten, topics_removed: removed, alerts_sorted: sorted };
}

/**
 * Sorts the agreement's alerts into topics by the rule in rule.ts, in one transaction. Runs of the
 * same agreement take turns (an advisory lock), so two at once cannot both create a topic for a key.
 * Idempotent: a second reconcile of an unchanged agreement changes nothing.
 */
export async function reconcileAgreementTopics(db: Db, organizationId: string, agreementId: string): Promise<ReconcileResult> {
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`topic-reconcile:${agreementId}`}))`;
      const plan = planReconcile(await loadTopics(tx, organizationId, agreementId), await loadAlerts(tx, organizationId, agreementId));
      return applyPlan(tx, organizationId, agreementId, plan);
    },
    { maxWait: 10_000, timeout: 120_000 },
  );
}
