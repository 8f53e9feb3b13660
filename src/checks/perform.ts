import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client.js';
import { Prisma } from '../db/client.js';
import type { Alert } from '../generated/prisma/client.js';
import { recordActivity, systemActor } from '../activity/record.js';
import { alertActivity, removeEmptiedTopics } from '../alerts/service.js';
import { ALERT_INCLUDE } from '../alerts/serialize.js';
import type { Logger } from '../logger.js';
import { batchesOf, inBatches } from '../shared/batches.js';
import { publicFailure } from '../shared/failures.js';
import { deterministicUuid } from '../shared/ids.js';
import { refreshCheckStatus } from './check-status.js';
import { runCheckers } from './checkers/index.js';
import type { Finding } from './checkers/types.js';
import { loadBatchInvoices, loadBatchPriorCharges, loadCheck, type CheckBatch, type LoadedCheck } from './input.js';
import { beginItems, completeItems } from '../runs/read-model.js';
import { unsuppressed } from './suppression.js';
import { recordNewAlerts } from '../notifications/dispatch.js';

// One check of one invoice against one agreement: run the checkers, store the check with its
// findings, and bring the pair's alerts in line with what was found. Safe to run twice with the
// same check id (a retried activity): the second run finds the completed check and stops.

export interface CheckOutcome {
  checkId: string;
  status: 'completed' | 'failed' | 'skipped';
  findings: number;
  alerts: number;
}

const CHECK_FAILED = {
  code: 'check_failed',
  message: 'The check could not be completed because of an internal error. It was logged under the run id; check the invoice again, and contact support with the run id if it fails again.',
};

// Storing a check writes its findings and alerts: thousands for a large invoice, which on a busy
// database takes longer than Prisma's default 5 s. An expired transaction was retried as an
// outage, so the whole check ran again and expired again.
const CHECK_STORE_TIMEOUT_MS = 600_000;

export function checkIdFor(runId: string, invoiceId: string, agreementId: string): string {
  return deterministicUuid(`check:${runId}:${invoiceId}:${agreementId}`);
}

export async function performCheck(db: Db, organizationId: string, runId: string, invoiceId: string, agreementId: string, batch?: CheckBatch, logger?: Logger): Promise<CheckOutcome> {
  const checkId = checkIdFor(runId, invoiceId, agreementId);
  const existing = batch?.checks ? (batch.checks.get(checkId) ?? null) : await db.complianceCheck.findUnique({ where: { id: checkId }, select: { status: true, findingsCount: true } });
  if (existing && existing.status !== 'running') {
    return { checkId, status: existing.status, findings: existing.findingsCount ?? 0, alerts: existing.findingsCount ?? 0 };
  }
  const loaded = await loadCheck(db, organizationId, invoiceId, agreementId, batch);
  if (!loaded) return { checkId, status: 'skipped', findings: 0, alerts: 0 };
  let findings: Finding[];
  try {
    findings = runCheckers(loaded.input);
  } catch (error) {
    // The checkers are pure: the same input fails the same way, so retrying cannot help.
    logger?.error({ err: error, run_id: runId, check_id: checkId, invoice_id: invoiceId, agreement_id: agreementId }, 'a checker failed');
    await recordFailedCheck(db, checkId, runId, loaded, invoiceId, agreementId, error);
    return { checkId, status: 'failed', findings: 0, alerts: 0 };
  }
  const kept = unsuppressed(loaded, findings);
  const alerts = await db.$transaction(async (tx) => {
    // Two checks of the same pair (an import's and a user's) must not both add the same alert.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`check-pair:${invoiceId}:${agreementId}`}))`;
    await tx.complianceCheck.upsert({
      where: { id: checkId },
      create: checkRow(checkId, runId, loaded, invoiceId, agreementId, 'completed', kept.length),
      update: { status: 'completed', findingsCount: kept.length, completedAt: new Date() },
    });
    await tx.complianceFinding.deleteMany({ where: { checkId } });
    const { alertIds, createdIds } = await replaceAlerts(tx, loaded, runId, invoiceId, agreementId, checkId, kept);
    // The created alerts, for the run's new_alert notifications, in the same transaction.
    await recordNewAlerts(tx, loaded.organizationId, runId, checkId, createdIds);
    // A large invoice has as many findings as lines: rows a chunk per statement, under PostgreSQL's
    // 65,535 bind parameters (src/shared/batches.ts).
    for (const rows of batchesOf(kept.map((finding, position) => findingRow(checkId, loaded, position, finding, alertIds[position]!)), ROW_CHUNK)) {
      await tx.complianceFinding.createMany({ data: rows });
    }
    await refreshCheckStatus(tx, { invoiceIds: [invoiceId] });
    return alertIds.length;
  }, { timeout: CHECK_STORE_TIMEOUT_MS });
  return { checkId, status: 'completed', findings: kept.length, alerts };
}

export interface CheckItem {
  itemId: string;
  invoiceId: string;
  agreementId: string;
}

// Checks of one batch in flight at once: enough to overlap their statements, few enough to leave
// the worker's connection pool to the other batch and activities.
const BATCH_CONCURRENCY = 3;

// A batch of a check run's items (pairs) in one activity: it begins its items, checks them with
// what they share read once (each agreement's price items, the suppliers' earlier charges), and
// finishes them, each with its check's outcome. Safe to run again: begun items are worked again,
// finished ones are left out, and a check that completed is found by its id. A check that throws
// (an infrastructure error) fails the activity after the others end, so Temporal retries the batch.
export async function performCheckBatch(db: Db, organizationId: string, runId: string, items: CheckItem[]): Promise<void> {
  const begun = await beginItems(db, items.map((item) => item.itemId));
  const todo = items.filter((item) => begun.has(item.itemId));
  if (todo.length === 0) return;
  const invoiceIds = [...new Set(todo.map((item) => item.invoiceId))];
  const [priorCharges, invoices, checks] = await Promise.all([
    loadBatchPriorCharges(db, organizationId, invoiceIds),
    loadBatchInvoices(db, organizationId, invoiceIds),
    db.complianceCheck.findMany({ where: { id: { in: todo.map((item) => checkIdFor(runId, item.invoiceId, item.agreementId)) } }, select: { id: true, status: true, findingsCount: true } }),
  ]);
  const batch: CheckBatch = { agreements: new Map(), priorCharges, invoices, checks: new Map(checks.map((check) => [check.id, check])) };
  const completed: { itemId: string; result: CheckOutcome }[] = [];
  let next = 0;
  const lane = async () => {
    while (next < todo.length) {
      const item = todo[next++]!;
      completed.push({ itemId: item.itemId, result: await performCheck(db, organizationId, runId, item.invoiceId, item.agreementId, batch) });
    }
  };
  const lanes = await Promise.allSettled(Array.from({ length: Math.min(BATCH_CONCURRENCY, todo.length) }, lane));
  await completeItems(db, completed);
  const failed = lanes.find((lane): lane is PromiseRejectedResult => lane.status === 'rejected');
  if (failed) throw failed.reason;
}

function checkRow(checkId: string, runId: string, loaded: LoadedCheck, invoiceId: string, agreementId: string, status: 'completed' | 'failed', findingsCount: number | null) {
  return {
    id: checkId,
    organizationId: loaded.organizationId,
    invoiceId,
    agreementId,
    workflowRunId: runId,
    status,
    findingsCount,
    invoiceVersionAt: loaded.invoiceVersionAt,
    agreementVersionAt: loaded.agreementVersionAt,
    completedAt: new Date(),
  };
}

async function recordFailedCheck(db: Db, checkId: string, runId: string, loaded: LoadedCheck, invoiceId: string, agreementId: string, error: unknown) {
  // The customer reads this on the invoice (alerts.processing.failure): never the exception's text.
  const failure = { ...publicFailure(error, CHECK_FAILED) };
  await db.$transaction(async (tx) => {
    await tx.complianceCheck.upsert({
      where: { id: checkId },
      create: { ...checkRow(checkId, runId, loaded, invoiceId, agreementId, 'failed', null), failure },
      update: { status: 'failed', failure, completedAt: new Date() },
    });
    await refreshCheckStatus(tx, { invoiceIds: [invoiceId] });
  });
}

function findingRow(checkId: string, loaded: LoadedCheck, position: number, finding: Finding, alertId: string) {
  return {
    id: deterministicUuid(`finding:${checkId}:${position}`),
    checkId,
    organizationId: loaded.organizationId,
    position,
    checker: finding.checker,
    fingerprint: finding.fingerprint,
    title: finding.title,
    explanation: finding.explanation,
    impactAmount: finding.impactAmount,
    currencyCode: loaded.currencyCode,
    confidence: finding.confidence,
    invoiceLineId: finding.invoiceItemId,
    correctionType: finding.correctionType,
    citations: finding.citations as unknown as Prisma.InputJsonValue,
    expected: finding.expected ? (finding.expected as unknown as Prisma.InputJsonValue) : Prisma.JsonNull,
    alertId,
  };
}

// Rows a createMany writes at once: about 20 columns each, well under 65,535 bind parameters.
const ROW_CHUNK = 2_000;

// A new check replaces the pair's earlier alerts, user-made ones included, except alerts held by
// a claim that is not cancelled. An alert of the same problem (same fingerprint) is updated in
// place, so it keeps its id, topic and history: a dismissed one comes back as pending (and out of
// the cancelled claim it was left in), a credited one stays credited.
async function replaceAlerts(tx: Prisma.TransactionClient, loaded: LoadedCheck, runId: string, invoiceId: string, agreementId: string, checkId: string, findings: Finding[]): Promise<{ alertIds: string[]; createdIds: string[] }> {
  const earlier = await tx.alert.findMany({ where: { invoiceId, agreementId }, include: ALERT_INCLUDE });
  const isHeld = (alert: (typeof earlier)[number]) => alert.claimId !== null && alert.claim?.status !== 'cancelled';
  const held = earlier.filter(isHeld);
  const replaceable = earlier.filter((alert) => !isHeld(alert));
  const byFingerprint = new Map(replaceable.filter((a) => a.origin === 'check' && a.fingerprint).map((a) => [a.fingerprint!, a]));
  const heldFingerprints = new Map(held.filter((a) => a.fingerprint).map((a) => [a.fingerprint!, a]));
  const alertIds: string[] = [];
  const reused = new Set<string>();
  const updates: { previous: Alert; finding: Finding }[] = [];
  const creates: Prisma.AlertCreateManyInput[] = [];
  for (const finding of findings) {
    const heldAlert = heldFingerprints.get(finding.fingerprint);
    if (heldAlert) {
      alertIds.push(heldAlert.id);
      continue;
    }
    const previous = byFingerprint.get(finding.fingerprint);
    if (previous && !reused.has(previous.id)) {
      reused.add(previous.id);
      updates.push({ previous, finding });
      alertIds.push(previous.id);
    } else {
      const id = randomUUID();
      creates.push({ id, organizationId: loaded.organizationId, invoiceId, agreementId, origin: 'check', ...alertContent(finding, loaded, checkId) });
      alertIds.push(id);
    }
  }
  // One statement each for the updated and the new alerts, whatever their number.
  await updateFoundAgain(tx, loaded, checkId, updates);
  for (const rows of batchesOf(creates, ROW_CHUNK)) await tx.alert.createMany({ data: rows });
  const removed = replaceable.filter((alert) => !reused.has(alert.id));
  // The check's changes are the system's, done by the check's run (docs/audit.md).
  const actor = systemActor(runId);
  const after = await inBatches(alertIds, (ids) => tx.alert.findMany({ where: { id: { in: ids } }, include: ALERT_INCLUDE }));
  const earlierById = new Map(earlier.map((alert) => [alert.id, alert]));
  const entries = after.flatMap((alert) => {
    const before = earlierById.get(alert.id) ?? null;
    const entry = alertActivity(before ? 'updated' : 'created', before, alert);
    return Object.keys(entry.changes!).length > 0 ? [entry] : [];
  });
  // The check itself is on the invoice's timeline: which agreement, and its alerts before and after.
  const checked = {
    entityType: 'invoice' as const,
    entityId: invoiceId,
    action: 'checked',
    changes: { agreement_id: { before: agreementId, after: agreementId }, alert_count: { before: earlier.length, after: alertIds.length } },
  };
  await recordActivity(tx, loaded.organizationId, actor, [checked, ...entries, ...removed.map((alert) => alertActivity('deleted', alert, null))]);
  if (removed.length > 0) {
    for (const ids of batchesOf(removed.map((alert) => alert.id))) await tx.alert.deleteMany({ where: { id: { in: ids } } });
    await removeEmptiedTopics(tx, loaded.organizationId, actor, removed.map((alert) => alert.topicId));
  }
  return { alertIds, createdIds: creates.map((create) => create.id!) };
}

function alertContent(finding: Finding, loaded: LoadedCheck, checkId: string) {
  return {
    title: finding.title,
    explanation: finding.explanation,
    impactAmount: finding.impactAmount,
    currencyCode: loaded.currencyCode,
    expected: finding.expected ? (finding.expected as unknown as Prisma.InputJsonValue) : Prisma.JsonNull,
    confidenceLevel: finding.confidence,
    citations: finding.citations as unknown as Prisma.InputJsonValue,
    invoiceLineId: finding.invoiceItemId,
    correctionType: finding.correctionType,
    checker: finding.checker,
    fingerprint: finding.fingerprint,
    checkId,
  };
}

// Alerts found again get the finding's content (as alertContent), and a dismissed one comes back
// as pending with its dismissal cleared (and out of the cancelled claim it was left in).
async function updateFoundAgain(tx: Prisma.TransactionClient, loaded: LoadedCheck, checkId: string, updates: { previous: Alert; finding: Finding }[]) {
  if (updates.length === 0) return;
  const column = <T>(value: (update: { previous: Alert; finding: Finding }) => T) => updates.map(value);
  await tx.$executeRaw`
    UPDATE alerts AS a
       SET title = f.title, explanation = f.explanation, impact_amount = f.impact::numeric, currency_code = ${loaded.currencyCode},
           expected = f.expected::jsonb, confidence_level = f.confidence, citations = f.citations::jsonb, invoice_line_id = f.line_id,
           correction_type = f.correction_type, checker = f.checker, fingerprint = f.fingerprint, check_id = ${checkId}::uuid,
           status = CASE WHEN f.revive THEN 'pending'::"AlertStatus" ELSE a.status END,
           dismissal_category = CASE WHEN f.revive THEN NULL ELSE a.dismissal_category END,
           dismissal_note = CASE WHEN f.revive THEN NULL ELSE a.dismissal_note END,
           dismissed_at = CASE WHEN f.revive THEN NULL ELSE a.dismissed_at END,
           claim_id = CASE WHEN f.revive THEN NULL ELSE a.claim_id END,
           updated_at = now()
      FROM unnest(${column((u) => u.previous.id)}::uuid[], ${column((u) => u.finding.title)}::text[], ${column((u) => u.finding.explanation)}::text[],
                  ${column((u) => u.finding.impactAmount)}::text[], ${column((u) => JSON.stringify(u.finding.expected ?? null))}::text[],
                  ${column((u) => u.finding.confidence)}::text[], ${column((u) => JSON.stringify(u.finding.citations))}::text[],
                  ${column((u) => u.finding.invoiceItemId)}::uuid[], ${column((u) => u.finding.correctionType)}::text[],
                  ${column((u) => u.finding.checker)}::text[], ${column((u) => u.finding.fingerprint)}::text[],
                  ${column((u) => u.previous.status === 'dismissed')}::boolean[])
           AS f(id, title, explanation, impact, expected, confidence, citations, line_id, correction_type, checker, fingerprint, revive)
     WHERE a.id = f.id`;
}
