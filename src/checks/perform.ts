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
import { refreshCheckStatus } from '../invoices/check-status.js';
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
  message:
    'The check could not be completed because of an internal error. It was logged under the run id; check the invoice again, and contact support with the run id if it fails again.',
};

// Storing a check writes its findings and alerts: thousands for a large invoice, which on a busy
// database takes longer than Prisma's default 5 s. An expired transaction was retried as an
// outage, so the whole check ran again and expired again.
const CHECK_STORE_TIMEOUT_MS = 600_000;

export function checkIdFor(runId: string, invoiceId: string, agreementId: string): string {
  return deterministicUuid(`check:${runId}:${invoiceId}:${agreementId}`);
}

export async function performCheck(
  db: Db,
  organizationId: string,
  runId: string,
  invoiceId: string,
  agreementId: string,
  batch?: CheckBatch,
  logger?: Logger,
): Promise<CheckOutcome> {
  const prepared = await prepareCheck(db, organizationId, runId, invoiceId, agreementId, batch, logger);
  if ('outcome' in prepared) return prepared.outcome;
  const [outcome] = await storeChecks(db, organizationId, runId, [prepared]);
  return outcome!;
}

// A check whose findings are known and wait to be stored.
interface FoundCheck {
  checkId: string;
  invoiceId: string;
  agreementId: string;
  loaded: LoadedCheck;
  kept: Finding[];
}

// Everything of a check before its writes: an existing finished check, loading, the checkers (a
// failing checker records its failed check here).
async function prepareCheck(
  db: Db,
  organizationId: string,
  runId: string,
  invoiceId: string,
  agreementId: string,
  batch?: CheckBatch,
  logger?: Logger,
): Promise<FoundCheck | { outcome: CheckOutcome }> {
  const checkId = checkIdFor(runId, invoiceId, agreementId);
  const existing = batch?.checks
    ? (batch.checks.get(checkId) ?? null)
    : await db.complianceCheck.findUnique({ where: { id: checkId }, select: { status: true, findingsCount: true } });
  if (existing && existing.status !== 'running') {
    return {
      outcome: {
        checkId,
        status: existing.status,
        findings: existing.findingsCount ?? 0,
        alerts: existing.findingsCount ?? 0,
      },
    };
  }
  const loaded = await loadCheck(db, organizationId, invoiceId, agreementId, batch);
  if (!loaded) return { outcome: { checkId, status: 'skipped', findings: 0, alerts: 0 } };
  let findings: Finding[];
  try {
    findings = runCheckers(loaded.input);
  } catch (error) {
    // The checkers are pure: the same input fails the same way, so retrying cannot help.
    logger?.error(
      { err: error, run_id: runId, check_id: checkId, invoice_id: invoiceId, agreement_id: agreementId },
      'a checker failed',
    );
    await recordFailedCheck(db, checkId, runId, loaded, invoiceId, agreementId, error);
    return { outcome: { checkId, status: 'failed', findings: 0, alerts: 0 } };
  }
  return { checkId, invoiceId, agreementId, loaded, kept: unsuppressed(loaded, findings) };
}

// Stores checks of one organization and run in one transaction, each statement for all of them:
// the checks, their findings, their pairs' alerts and activity, the invoices' check status. A
// batch's checks took some ten statements each (a large share of the worker's time went to Prisma
// building and sending them, docs/benchmarks.md); together they take about as many as one.
async function storeChecks(
  db: Db,
  organizationId: string,
  runId: string,
  checks: FoundCheck[],
): Promise<CheckOutcome[]> {
  const completedAt = new Date();
  return db.$transaction(
    async (tx) => {
      // Two checks of the same pair (an import's and a user's) must not both add the same alert.
      // The pairs' locks in one order (by their hash), so two transactions cannot wait on each other.
      const keys = checks.map((check) => `check-pair:${check.invoiceId}:${check.agreementId}`);
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(h) FROM (SELECT DISTINCT hashtext(k) AS h FROM unnest(${keys}::text[]) AS k ORDER BY 1) AS sorted`;
      await tx.$executeRaw`
      INSERT INTO compliance_checks (id, organization_id, invoice_id, agreement_id, workflow_run_id, status, findings_count, invoice_version_at, agreement_version_at, completed_at)
      SELECT c.id, ${organizationId}::uuid, c.invoice_id, c.agreement_id, ${runId}::uuid, 'completed'::"CheckStatus", c.findings_count, c.invoice_version_at, c.agreement_version_at, ${completedAt}::timestamptz
        FROM unnest(${checks.map((c) => c.checkId)}::uuid[], ${checks.map((c) => c.invoiceId)}::uuid[], ${checks.map((c) => c.agreementId)}::uuid[],
                    ${checks.map((c) => c.kept.length)}::int[], ${checks.map((c) => c.loaded.invoiceVersionAt.toISOString())}::timestamptz[],
                    ${checks.map((c) => c.loaded.agreementVersionAt.toISOString())}::timestamptz[])
             AS c(id, invoice_id, agreement_id, findings_count, invoice_version_at, agreement_version_at)
      ON CONFLICT (id) DO UPDATE SET status = 'completed', findings_count = EXCLUDED.findings_count, completed_at = EXCLUDED.completed_at`;
      await tx.$executeRaw`DELETE FROM compliance_findings WHERE check_id = ANY(${checks.map((c) => c.checkId)}::uuid[]) AND organization_id = ${organizationId}::uuid`;
      const replaced = await replaceAlerts(tx, organizationId, runId, checks);
      // The created alerts, for the run's new_alert notifications, in the same transaction.
      await recordNewAlerts(
        tx,
        organizationId,
        runId,
        checks.map((check, index) => ({ checkId: check.checkId, alertIds: replaced[index]!.createdIds })),
      );
      // A large invoice has as many findings as lines: rows a chunk per statement, under PostgreSQL's
      // 65,535 bind parameters (src/shared/batches.ts).
      const rows = checks.flatMap((check, index) =>
        check.kept.map((finding, position) =>
          findingRow(check.checkId, check.loaded, position, finding, replaced[index]!.alertIds[position]!),
        ),
      );
      for (const chunk of batchesOf(rows, FINDING_CHUNK)) await insertFindings(tx, organizationId, chunk);
      await refreshCheckStatus(tx, { invoiceIds: [...new Set(checks.map((check) => check.invoiceId))] });
      return checks.map((check, index) => ({
        checkId: check.checkId,
        status: 'completed' as const,
        findings: check.kept.length,
        alerts: replaced[index]!.alertIds.length,
      }));
    },
    { timeout: CHECK_STORE_TIMEOUT_MS },
  );
}

export interface CheckItem {
  itemId: string;
  invoiceId: string;
  agreementId: string;
}

// Checks of one batch prepared at once (loaded and run through the checkers): enough to overlap
// what they still read (exchange rates) with the others' checkers.
const BATCH_CONCURRENCY = 3;
// Findings stored in one transaction at most: a batch of large invoices is stored in parts, so
// one transaction never holds tens of thousands of rows and its pairs' locks for long.
const STORE_FINDINGS_LIMIT = 5_000;

// A batch of a check run's items (pairs) in one activity: it begins its items, checks them with
// what they share read once (each agreement's price items, the suppliers' earlier charges), stores
// them together (storeChecks) and finishes them, each with its check's outcome. Safe to run
// again: begun items are worked again, finished ones are left out, and a check that completed is
// found by its id. A check that throws (an infrastructure error) fails the activity after the
// others end, so Temporal retries the batch.
export async function performCheckBatch(
  db: Db,
  organizationId: string,
  runId: string,
  items: CheckItem[],
): Promise<void> {
  const begun = await beginItems(
    db,
    items.map((item) => item.itemId),
  );
  const todo = items.filter((item) => begun.has(item.itemId));
  if (todo.length === 0) return;
  const { outcomes, errors } = await performChecks(db, organizationId, runId, todo);
  await completeItems(
    db,
    outcomes.map(({ pair, result }) => ({ itemId: pair.itemId, result })),
  );
  if (errors.length > 0) throw errors[0];
}

// The checks of a batch's pairs, without the run items: what they share read once, prepared a
// few at a time, stored together. The outcomes of the checks that ended, and the errors of those
// that threw.
export async function performChecks<T extends { invoiceId: string; agreementId: string }>(
  db: Db,
  organizationId: string,
  runId: string,
  pairs: T[],
): Promise<{ outcomes: { pair: T; result: CheckOutcome }[]; errors: unknown[] }> {
  const invoiceIds = [...new Set(pairs.map((pair) => pair.invoiceId))];
  const [priorCharges, invoices, checks] = await Promise.all([
    loadBatchPriorCharges(db, organizationId, invoiceIds),
    loadBatchInvoices(db, organizationId, invoiceIds),
    db.complianceCheck.findMany({
      where: { id: { in: pairs.map((pair) => checkIdFor(runId, pair.invoiceId, pair.agreementId)) } },
      select: { id: true, status: true, findingsCount: true },
    }),
  ]);
  const batch: CheckBatch = {
    agreements: new Map(),
    priorCharges,
    invoices,
    checks: new Map(checks.map((check) => [check.id, check])),
  };
  const outcomes: { pair: T; result: CheckOutcome }[] = [];
  const found: { pair: T; check: FoundCheck }[] = [];
  const errors: unknown[] = [];
  let next = 0;
  const lane = async () => {
    while (next < pairs.length) {
      const pair = pairs[next++]!;
      const prepared = await prepareCheck(db, organizationId, runId, pair.invoiceId, pair.agreementId, batch);
      if ('outcome' in prepared) outcomes.push({ pair, result: prepared.outcome });
      else found.push({ pair, check: prepared });
    }
  };
  const lanes = await Promise.allSettled(Array.from({ length: Math.min(BATCH_CONCURRENCY, pairs.length) }, lane));
  for (const lane of lanes) if (lane.status === 'rejected') errors.push(lane.reason);
  for (const group of storeGroups(found)) {
    try {
      const stored = await storeChecks(
        db,
        organizationId,
        runId,
        group.map((entry) => entry.check),
      );
      group.forEach((entry, index) => outcomes.push({ pair: entry.pair, result: stored[index]! }));
    } catch (error) {
      if (group.length === 1) {
        errors.push(error);
        continue;
      }
      // One check's error (a bug, or data the statement refuses) must not cost the others their
      // result: stored one by one, the others complete and only that one fails.
      for (const entry of group) {
        try {
          const [outcome] = await storeChecks(db, organizationId, runId, [entry.check]);
          outcomes.push({ pair: entry.pair, result: outcome! });
        } catch (alone) {
          errors.push(alone);
        }
      }
    }
  }
  return { outcomes, errors };
}

function storeGroups<T extends { check: FoundCheck }>(found: T[]): T[][] {
  const groups: T[][] = [];
  let findings = Infinity;
  for (const entry of found) {
    if (findings + entry.check.kept.length > STORE_FINDINGS_LIMIT) {
      groups.push([]);
      findings = 0;
    }
    groups[groups.length - 1]!.push(entry);
    findings += entry.check.kept.length;
  }
  return groups;
}

function checkRow(
  checkId: string,
  runId: string,
  loaded: LoadedCheck,
  invoiceId: string,
  agreementId: string,
  status: 'completed' | 'failed',
  findingsCount: number | null,
) {
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

async function recordFailedCheck(
  db: Db,
  checkId: string,
  runId: string,
  loaded: LoadedCheck,
  invoiceId: string,
  agreementId: string,
  error: unknown,
) {
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
    // A finding without an expected value stores JSON null, as Prisma.JsonNull did.
    expected: JSON.stringify(finding.expected ?? null),
    alertId,
  };
}

// Findings as one array per column: one statement and 15 bind parameters whatever the count
// (Prisma's createMany compiled a statement of 20 parameters per row, each batch anew).
async function insertFindings(
  tx: Prisma.TransactionClient,
  organizationId: string,
  rows: ReturnType<typeof findingRow>[],
) {
  if (rows.length === 0) return;
  const column = <T>(value: (row: ReturnType<typeof findingRow>) => T) => rows.map(value);
  await tx.$executeRaw`
    INSERT INTO compliance_findings (id, check_id, organization_id, position, checker, fingerprint, title, explanation, impact_amount, currency_code,
                                     confidence, invoice_line_id, correction_type, citations, expected, alert_id)
    SELECT f.id, f.check_id, ${organizationId}::uuid, f.position, f.checker, f.fingerprint, f.title, f.explanation, f.impact::numeric, f.currency_code,
           f.confidence, f.line_id, f.correction_type, f.citations::jsonb, f.expected::jsonb, f.alert_id
      FROM unnest(${column((r) => r.id)}::uuid[], ${column((r) => r.checkId)}::uuid[], ${column((r) => r.position)}::int[], ${column((r) => r.checker)}::text[],
                  ${column((r) => r.fingerprint)}::text[], ${column((r) => r.title)}::text[], ${column((r) => r.explanation)}::text[],
                  ${column((r) => r.impactAmount)}::text[], ${column((r) => r.currencyCode)}::text[], ${column((r) => r.confidence)}::text[],
                  ${column((r) => r.invoiceLineId)}::uuid[], ${column((r) => r.correctionType)}::text[], ${column((r) => r.citations)}::text[],
                  ${column((r) => r.expected)}::text[], ${column((r) => r.alertId)}::uuid[])
           AS f(id, check_id, position, checker, fingerprint, title, explanation, impact, currency_code, confidence, line_id, correction_type, citations, expected, alert_id)`;
}

// Findings written by one statement at most.
const FINDING_CHUNK = 5_000;

// Rows a createMany writes at once: about 20 columns each, well under 65,535 bind parameters.
const ROW_CHUNK = 2_000;

// The alerts of each (invoice, agreement) pair.
function pairKey(invoiceId: string, agreementId: string): string {
  return `${invoiceId}:${agreementId}`;
}

function byPair<A extends { invoiceId: string; agreementId: string }>(alerts: A[]): Map<string, A[]> {
  const groups = new Map<string, A[]>();
  for (const alert of alerts) {
    const key = pairKey(alert.invoiceId, alert.agreementId);
    const list = groups.get(key);
    if (list) list.push(alert);
    else groups.set(key, [alert]);
  }
  return groups;
}

// A new check replaces the pair's earlier alerts, user-made ones included, except alerts held by
// a claim that is not cancelled. An alert of the same problem (same fingerprint) is updated in
// place, so it keeps its id, topic and history: a dismissed one comes back as pending (and out of
// the cancelled claim it was left in), a credited one stays credited. For several checks (of
// different pairs) each statement covers all of them.
async function replaceAlerts(
  tx: Prisma.TransactionClient,
  organizationId: string,
  runId: string,
  checks: FoundCheck[],
): Promise<{ alertIds: string[]; createdIds: string[] }[]> {
  const earlierAll = await tx.alert.findMany({
    where: {
      organizationId,
      OR: checks.map((check) => ({ invoiceId: check.invoiceId, agreementId: check.agreementId })),
    },
    include: ALERT_INCLUDE,
  });
  const earlierOf = byPair(earlierAll);
  const isHeld = (alert: (typeof earlierAll)[number]) => alert.claimId !== null && alert.claim?.status !== 'cancelled';
  const updates: FoundAgain[] = [];
  const creates: Prisma.AlertCreateManyInput[] = [];
  const removed: (typeof earlierAll)[number][] = [];
  const plans = checks.map((check) => {
    const { loaded, invoiceId, agreementId, checkId } = check;
    const earlier = earlierOf.get(pairKey(invoiceId, agreementId)) ?? [];
    const held = earlier.filter(isHeld);
    const replaceable = earlier.filter((alert) => !isHeld(alert));
    const byFingerprint = new Map(
      replaceable.filter((a) => a.origin === 'check' && a.fingerprint).map((a) => [a.fingerprint!, a]),
    );
    const heldFingerprints = new Map(held.filter((a) => a.fingerprint).map((a) => [a.fingerprint!, a]));
    const alertIds: string[] = [];
    const createdIds: string[] = [];
    const reused = new Set<string>();
    for (const finding of check.kept) {
      const heldAlert = heldFingerprints.get(finding.fingerprint);
      if (heldAlert) {
        alertIds.push(heldAlert.id);
        continue;
      }
      const previous = byFingerprint.get(finding.fingerprint);
      if (previous && !reused.has(previous.id)) {
        reused.add(previous.id);
        updates.push({ previous, finding, checkId, currencyCode: loaded.currencyCode });
        alertIds.push(previous.id);
      } else {
        const id = randomUUID();
        creates.push({
          id,
          organizationId: loaded.organizationId,
          invoiceId,
          agreementId,
          origin: 'check',
          ...alertContent(finding, loaded, checkId),
        });
        alertIds.push(id);
        createdIds.push(id);
      }
    }
    const gone = replaceable.filter((alert) => !reused.has(alert.id));
    removed.push(...gone);
    return { check, earlier, alertIds, createdIds, gone };
  });
  // One statement each for the updated and the new alerts, whatever their number.
  await updateFoundAgain(tx, organizationId, updates);
  for (const rows of batchesOf(creates, ROW_CHUNK)) await tx.alert.createMany({ data: rows });
  // The check's changes are the system's, done by the check's run (docs/audit.md).
  const actor = systemActor(runId);
  const after = await inBatches([...new Set(plans.flatMap((plan) => plan.alertIds))], (ids) =>
    tx.alert.findMany({ where: { id: { in: ids }, organizationId }, include: ALERT_INCLUDE }),
  );
  const afterOf = byPair(after);
  const activity = plans.flatMap(({ check, earlier, alertIds, gone }) => {
    const earlierById = new Map(earlier.map((alert) => [alert.id, alert]));
    const entries = (afterOf.get(pairKey(check.invoiceId, check.agreementId)) ?? []).flatMap((alert) => {
      const before = earlierById.get(alert.id) ?? null;
      const entry = alertActivity(before ? 'updated' : 'created', before, alert);
      return Object.keys(entry.changes!).length > 0 ? [entry] : [];
    });
    // The check itself is on the invoice's timeline: which agreement, and its alerts before and after.
    const checked = {
      entityType: 'invoice' as const,
      entityId: check.invoiceId,
      action: 'checked',
      changes: {
        agreement_id: { before: check.agreementId, after: check.agreementId },
        alert_count: { before: earlier.length, after: alertIds.length },
      },
    };
    return [checked, ...entries, ...gone.map((alert) => alertActivity('deleted', alert, null))];
  });
  await recordActivity(tx, organizationId, actor, activity);
  if (removed.length > 0) {
    for (const ids of batchesOf(removed.map((alert) => alert.id)))
      await tx.alert.deleteMany({ where: { id: { in: ids }, organizationId } });
    await removeEmptiedTopics(
      tx,
      organizationId,
      actor,
      removed.map((alert) => alert.topicId),
    );
  }
  return plans.map(({ alertIds, createdIds }) => ({ alertIds, createdIds }));
}

interface FoundAgain {
  previous: Alert;
  finding: Finding;
  checkId: string;
  currencyCode: string | null;
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
// as pending with its dismissal cleared (and out of the cancelled claim it was left in). An alert
// found again as it is stays untouched, `check_id` and `updated_at` included: a re-check that finds
// nothing new changes nothing. Rewriting it cost a new row version in every index of alerts (four
// of them GIN over its texts), most of a re-check's database time (docs/check-runs.md).
async function updateFoundAgain(tx: Prisma.TransactionClient, organizationId: string, updates: FoundAgain[]) {
  if (updates.length === 0) return;
  const column = <T>(value: (update: FoundAgain) => T) => updates.map(value);
  await tx.$executeRaw`
    UPDATE alerts AS a
       SET title = f.title, explanation = f.explanation, impact_amount = f.impact::numeric, currency_code = f.currency_code,
           expected = f.expected::jsonb, confidence_level = f.confidence, citations = f.citations::jsonb, invoice_line_id = f.line_id,
           correction_type = f.correction_type, checker = f.checker, fingerprint = f.fingerprint, check_id = f.check_id,
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
                  ${column((u) => u.previous.status === 'dismissed')}::boolean[], ${column((u) => u.checkId)}::uuid[], ${column((u) => u.currencyCode)}::text[])
           AS f(id, title, explanation, impact, expected, confidence, citations, line_id, correction_type, checker, fingerprint, revive, check_id, currency_code)
     WHERE a.id = f.id AND a.organization_id = ${organizationId}::uuid
       AND (f.revive OR (a.title, a.explanation, a.impact_amount, a.currency_code, a.expected, a.confidence_level, a.citations,
                         a.invoice_line_id, a.correction_type, a.checker, a.fingerprint)
                        IS DISTINCT FROM (f.title, f.explanation, f.impact::numeric, f.currency_code, f.expected::jsonb, f.confidence, f.citations::jsonb,
                                          f.line_id, f.correction_type, f.checker, f.fingerprint))`;
}
