import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client.js';
import { Prisma } from '../db/client.js';
import type { Alert } from '../generated/prisma/client.js';
import { recordActivity, systemActor } from '../activity/record.js';
import { alertActivity, removeEmptiedTopics } from '../alerts/service.js';
import { ALERT_INCLUDE } from '../alerts/serialize.js';
import { deterministicUuid } from '../shared/ids.js';
import { refreshCheckStatus } from './check-status.js';
import { runCheckers } from './checkers/index.js';
import type { Finding } from './checkers/types.js';
import { loadCheck, type LoadedCheck } from './input.js';
import { suppressedBy } from './suppression.js';

// One check of one invoice against one agreement: run the checkers, store the check with its
// findings, and bring the pair's alerts in line with what was found. Safe to run twice with the
// same check id (a retried activity): the second run finds the completed check and stops.

export interface CheckOutcome {
  checkId: string;
  status: 'completed' | 'failed' | 'skipped';
  findings: number;
  alerts: number;
}

export function checkIdFor(runId: string, invoiceId: string, agreementId: string): string {
  return deterministicUuid(`check:${runId}:${invoiceId}:${agreementId}`);
}

export async function performCheck(db: Db, organizationId: string, runId: string, invoiceId: string, agreementId: string): Promise<CheckOutcome> {
  const checkId = checkIdFor(runId, invoiceId, agreementId);
  const existing = await db.complianceCheck.findUnique({ where: { id: checkId } });
  if (existing && existing.status !== 'running') {
    return { checkId, status: existing.status, findings: existing.findingsCount ?? 0, alerts: existing.findingsCount ?? 0 };
  }
  const loaded = await loadCheck(db, organizationId, invoiceId, agreementId);
  if (!loaded) return { checkId, status: 'skipped', findings: 0, alerts: 0 };
  let findings: Finding[];
  try {
    findings = runCheckers(loaded.input);
  } catch (error) {
    // The checkers are pure: the same input fails the same way, so retrying cannot help.
    await recordFailedCheck(db, checkId, runId, loaded, invoiceId, agreementId, error);
    return { checkId, status: 'failed', findings: 0, alerts: 0 };
  }
  const kept = findings.filter((finding) => !suppressedBy(loaded, finding));
  const alerts = await db.$transaction(async (tx) => {
    // Two checks of the same pair (an import's and a user's) must not both add the same alert.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`check-pair:${invoiceId}:${agreementId}`}))`;
    await tx.complianceCheck.upsert({
      where: { id: checkId },
      create: checkRow(checkId, runId, loaded, invoiceId, agreementId, 'completed', kept.length),
      update: { status: 'completed', findingsCount: kept.length, completedAt: new Date() },
    });
    await tx.complianceFinding.deleteMany({ where: { checkId } });
    const alertIds = await replaceAlerts(tx, loaded, runId, invoiceId, agreementId, checkId, kept);
    await tx.complianceFinding.createMany({ data: kept.map((finding, position) => findingRow(checkId, loaded, position, finding, alertIds[position]!)) });
    await refreshCheckStatus(tx, { invoiceIds: [invoiceId] });
    return alertIds.length;
  });
  return { checkId, status: 'completed', findings: kept.length, alerts };
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
  const failure = { code: 'check_failed', message: error instanceof Error ? error.message : String(error) };
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

// A new check replaces the pair's earlier alerts, user-made ones included, except alerts held by
// a claim that is not cancelled. An alert of the same problem (same fingerprint) is updated in
// place, so it keeps its id, topic and history: a dismissed one comes back as pending (and out of
// the cancelled claim it was left in), a credited one stays credited.
async function replaceAlerts(tx: Prisma.TransactionClient, loaded: LoadedCheck, runId: string, invoiceId: string, agreementId: string, checkId: string, findings: Finding[]): Promise<string[]> {
  const earlier = await tx.alert.findMany({ where: { invoiceId, agreementId }, include: ALERT_INCLUDE });
  const isHeld = (alert: (typeof earlier)[number]) => alert.claimId !== null && alert.claim?.status !== 'cancelled';
  const held = earlier.filter(isHeld);
  const replaceable = earlier.filter((alert) => !isHeld(alert));
  const byFingerprint = new Map(replaceable.filter((a) => a.origin === 'check' && a.fingerprint).map((a) => [a.fingerprint!, a]));
  const heldFingerprints = new Map(held.filter((a) => a.fingerprint).map((a) => [a.fingerprint!, a]));
  const alertIds: string[] = [];
  const reused = new Set<string>();
  for (const finding of findings) {
    const heldAlert = heldFingerprints.get(finding.fingerprint);
    if (heldAlert) {
      alertIds.push(heldAlert.id);
      continue;
    }
    const previous = byFingerprint.get(finding.fingerprint);
    if (previous && !reused.has(previous.id)) {
      reused.add(previous.id);
      await tx.alert.update({ where: { id: previous.id }, data: { ...alertContent(finding, loaded, checkId), ...returningStatus(previous) } });
      alertIds.push(previous.id);
    } else {
      const id = randomUUID();
      await tx.alert.create({ data: { id, organizationId: loaded.organizationId, invoiceId, agreementId, origin: 'check', ...alertContent(finding, loaded, checkId) } });
      alertIds.push(id);
    }
  }
  const removed = replaceable.filter((alert) => !reused.has(alert.id));
  // The check's changes are the system's, done by the check's run (docs/audit.md).
  const actor = systemActor(runId);
  const after = await tx.alert.findMany({ where: { id: { in: alertIds } }, include: ALERT_INCLUDE });
  const entries = after.flatMap((alert) => {
    const before = earlier.find((e) => e.id === alert.id) ?? null;
    const entry = alertActivity(before ? 'updated' : 'created', before, alert);
    return Object.keys(entry.changes!).length > 0 ? [entry] : [];
  });
  await recordActivity(tx, loaded.organizationId, actor, [...entries, ...removed.map((alert) => alertActivity('deleted', alert, null))]);
  if (removed.length > 0) {
    await tx.alert.deleteMany({ where: { id: { in: removed.map((alert) => alert.id) } } });
    await removeEmptiedTopics(tx, loaded.organizationId, actor, removed.map((alert) => alert.topicId));
  }
  return alertIds;
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

function returningStatus(previous: Alert) {
  if (previous.status !== 'dismissed') return {};
  return { status: 'pending' as const, dismissalCategory: null, dismissalNote: null, dismissedAt: null, claimId: null };
}
