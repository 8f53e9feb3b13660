import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client.js';
import { Prisma } from '../db/client.js';
import type { Logger } from '../logger.js';
import { batchesOf } from '../shared/batches.js';
import { publicFailure } from '../shared/failures.js';
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

const CHECK_FAILED = {
  code: 'check_failed',
  message: 'The check could not be completed because of an internal error. It was logged under the run id; check the invoice again, and contact support with the run id if it fails again.',
};

export function checkIdFor(runId: string, invoiceId: string, agreementId: string): string {
  return deterministicUuid(`check:${runId}:${invoiceId}:${agreementId}`);
}

export async function performCheck(db: Db, organizationId: string, runId: string, invoiceId: string, agreementId: string, logger?: Logger): Promise<CheckOutcome> {
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
    logger?.error({ err: error, run_id: runId, check_id: checkId, invoice_id: invoiceId, agreement_id: agreementId }, 'a checker failed');
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
    const alertIds = await replaceAlerts(tx, loaded, invoiceId, agreementId, checkId, kept);
    await insertFindings(tx, kept.map((finding, position) => findingRow(checkId, loaded, position, finding, alertIds[position]!)));
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

function findingRow(checkId: string, loaded: LoadedCheck, position: number, finding: Finding, alertId: string): FindingRow {
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
    citations: JSON.stringify(finding.citations),
    expected: JSON.stringify(finding.expected ?? null),
    alertId,
  };
}

// A large invoice can have thousands of findings (and as many alerts): they are written a chunk
// of rows per statement, each column one array parameter (unnest), never a bind parameter per
// value (PostgreSQL allows 65,535) nor a statement per row.
const ROW_CHUNK = 5000;

interface FindingRow {
  id: string;
  checkId: string;
  organizationId: string;
  position: number;
  checker: string;
  fingerprint: string;
  title: string;
  explanation: string;
  impactAmount: string;
  currencyCode: string | null;
  confidence: string;
  invoiceLineId: string | null;
  correctionType: string;
  citations: string;
  expected: string;
  alertId: string;
}

async function insertFindings(tx: Prisma.TransactionClient, rows: FindingRow[]): Promise<void> {
  for (const chunk of batchesOf(rows, ROW_CHUNK)) {
    const column = <V>(pick: (row: FindingRow) => V): V[] => chunk.map(pick);
    await tx.$executeRaw`
      INSERT INTO compliance_findings (id, check_id, organization_id, position, checker, fingerprint, title, explanation, impact_amount,
                                       currency_code, confidence, invoice_line_id, correction_type, citations, expected, alert_id)
      SELECT * FROM unnest(${column((r) => r.id)}::uuid[], ${column((r) => r.checkId)}::uuid[], ${column((r) => r.organizationId)}::uuid[],
                           ${column((r) => r.position)}::int[], ${column((r) => r.checker)}::text[], ${column((r) => r.fingerprint)}::text[],
                           ${column((r) => r.title)}::text[], ${column((r) => r.explanation)}::text[], ${column((r) => r.impactAmount)}::numeric[],
                           ${column((r) => r.currencyCode)}::text[], ${column((r) => r.confidence)}::text[], ${column((r) => r.invoiceLineId)}::uuid[],
                           ${column((r) => r.correctionType)}::text[], ${column((r) => r.citations)}::jsonb[], ${column((r) => r.expected)}::jsonb[],
                           ${column((r) => r.alertId)}::uuid[])`;
  }
}

// A new check replaces the pair's earlier alerts, user-made ones included, except alerts held by
// a claim. An alert of the same problem (same fingerprint) is updated in place, so it keeps its
// id, topic and history: a dismissed one comes back as pending, a credited one stays credited.
async function replaceAlerts(tx: Prisma.TransactionClient, loaded: LoadedCheck, invoiceId: string, agreementId: string, checkId: string, findings: Finding[]): Promise<string[]> {
  const earlier = await tx.alert.findMany({ where: { invoiceId, agreementId }, select: { id: true, claimId: true, origin: true, fingerprint: true, topicId: true } });
  const held = earlier.filter((alert) => alert.claimId !== null);
  const replaceable = earlier.filter((alert) => alert.claimId === null);
  const byFingerprint = new Map(replaceable.filter((a) => a.origin === 'check' && a.fingerprint).map((a) => [a.fingerprint!, a]));
  const heldFingerprints = new Map(held.filter((a) => a.fingerprint).map((a) => [a.fingerprint!, a]));
  const alertIds: string[] = [];
  const reused = new Set<string>();
  const updated: AlertRow[] = [];
  const created: AlertRow[] = [];
  for (const finding of findings) {
    const heldAlert = heldFingerprints.get(finding.fingerprint);
    if (heldAlert) {
      alertIds.push(heldAlert.id);
      continue;
    }
    const previous = byFingerprint.get(finding.fingerprint);
    if (previous && !reused.has(previous.id)) {
      reused.add(previous.id);
      updated.push(alertRow(previous.id, finding, loaded, checkId));
      alertIds.push(previous.id);
    } else {
      const row = alertRow(randomUUID(), finding, loaded, checkId);
      created.push(row);
      alertIds.push(row.id);
    }
  }
  await updateAlerts(tx, updated);
  await insertAlerts(tx, loaded.organizationId, invoiceId, agreementId, created);
  const removed = replaceable.filter((alert) => !reused.has(alert.id));
  if (removed.length > 0) await removeReplacedAlerts(tx, removed);
  return alertIds;
}

// What a check writes of an alert: the content of its finding.
interface AlertRow {
  id: string;
  title: string;
  explanation: string;
  impactAmount: string;
  currencyCode: string | null;
  expected: string;
  confidenceLevel: string;
  citations: string;
  invoiceLineId: string | null;
  correctionType: string;
  checker: string;
  fingerprint: string;
  checkId: string;
}

function alertRow(id: string, finding: Finding, loaded: LoadedCheck, checkId: string): AlertRow {
  return {
    id,
    title: finding.title,
    explanation: finding.explanation,
    impactAmount: finding.impactAmount,
    currencyCode: loaded.currencyCode,
    expected: JSON.stringify(finding.expected ?? null),
    confidenceLevel: finding.confidence,
    citations: JSON.stringify(finding.citations),
    invoiceLineId: finding.invoiceItemId,
    correctionType: finding.correctionType,
    checker: finding.checker,
    fingerprint: finding.fingerprint,
    checkId,
  };
}

const alertColumn = <V>(rows: AlertRow[], pick: (row: AlertRow) => V): V[] => rows.map(pick);

async function insertAlerts(tx: Prisma.TransactionClient, organizationId: string, invoiceId: string, agreementId: string, rows: AlertRow[]): Promise<void> {
  for (const chunk of batchesOf(rows, ROW_CHUNK)) {
    const column = <V>(pick: (row: AlertRow) => V) => alertColumn(chunk, pick);
    await tx.$executeRaw`
      INSERT INTO alerts (id, organization_id, invoice_id, agreement_id, origin, title, explanation, impact_amount, currency_code, expected,
                          confidence_level, citations, invoice_line_id, correction_type, checker, fingerprint, check_id, updated_at)
      SELECT t.id, ${organizationId}::uuid, ${invoiceId}::uuid, ${agreementId}::uuid, 'check', t.title, t.explanation, t.impact_amount, t.currency_code,
             t.expected, t.confidence_level, t.citations, t.invoice_line_id, t.correction_type, t.checker, t.fingerprint, t.check_id, now()
        FROM unnest(${column((r) => r.id)}::uuid[], ${column((r) => r.title)}::text[], ${column((r) => r.explanation)}::text[],
                    ${column((r) => r.impactAmount)}::numeric[], ${column((r) => r.currencyCode)}::text[], ${column((r) => r.expected)}::jsonb[],
                    ${column((r) => r.confidenceLevel)}::text[], ${column((r) => r.citations)}::jsonb[], ${column((r) => r.invoiceLineId)}::uuid[],
                    ${column((r) => r.correctionType)}::text[], ${column((r) => r.checker)}::text[], ${column((r) => r.fingerprint)}::text[],
                    ${column((r) => r.checkId)}::uuid[])
             AS t(id, title, explanation, impact_amount, currency_code, expected, confidence_level, citations, invoice_line_id,
                  correction_type, checker, fingerprint, check_id)`;
  }
}

// The same problem found again: new content, and a dismissed alert comes back as pending.
async function updateAlerts(tx: Prisma.TransactionClient, rows: AlertRow[]): Promise<void> {
  for (const chunk of batchesOf(rows, ROW_CHUNK)) {
    const column = <V>(pick: (row: AlertRow) => V) => alertColumn(chunk, pick);
    await tx.$executeRaw`
      UPDATE alerts AS a
         SET title = t.title, explanation = t.explanation, impact_amount = t.impact_amount, currency_code = t.currency_code, expected = t.expected,
             confidence_level = t.confidence_level, citations = t.citations, invoice_line_id = t.invoice_line_id, correction_type = t.correction_type,
             checker = t.checker, fingerprint = t.fingerprint, check_id = t.check_id,
             status = CASE WHEN a.status = 'dismissed' THEN 'pending'::"AlertStatus" ELSE a.status END,
             dismissal_category = CASE WHEN a.status = 'dismissed' THEN NULL ELSE a.dismissal_category END,
             dismissal_note = CASE WHEN a.status = 'dismissed' THEN NULL ELSE a.dismissal_note END,
             dismissed_at = CASE WHEN a.status = 'dismissed' THEN NULL ELSE a.dismissed_at END,
             updated_at = now()
        FROM unnest(${column((r) => r.id)}::uuid[], ${column((r) => r.title)}::text[], ${column((r) => r.explanation)}::text[],
                    ${column((r) => r.impactAmount)}::numeric[], ${column((r) => r.currencyCode)}::text[], ${column((r) => r.expected)}::jsonb[],
                    ${column((r) => r.confidenceLevel)}::text[], ${column((r) => r.citations)}::jsonb[], ${column((r) => r.invoiceLineId)}::uuid[],
                    ${column((r) => r.correctionType)}::text[], ${column((r) => r.checker)}::text[], ${column((r) => r.fingerprint)}::text[],
                    ${column((r) => r.checkId)}::uuid[])
             AS t(id, title, explanation, impact_amount, currency_code, expected, confidence_level, citations, invoice_line_id,
                  correction_type, checker, fingerprint, check_id)
       WHERE a.id = t.id`;
  }
}

// Replaced alerts are deleted; an unlocked topic left without alerts goes with them.
async function removeReplacedAlerts(tx: Prisma.TransactionClient, alerts: { id: string; topicId: string | null }[]) {
  const topicIds = [...new Set(alerts.flatMap((a) => (a.topicId ? [a.topicId] : [])))];
  await tx.$executeRaw`DELETE FROM alerts WHERE id = ANY(${alerts.map((a) => a.id)}::uuid[])`;
  if (topicIds.length > 0) {
    await tx.$executeRaw`
      DELETE FROM alert_topics t
       WHERE t.id = ANY(${topicIds}::uuid[]) AND NOT t.is_locked AND NOT EXISTS (SELECT 1 FROM alerts a WHERE a.topic_id = t.id)`;
  }
}
