import { randomUUID } from 'node:crypto';
import { Prisma } from '../db/client.js';
import type { Alert } from '../generated/prisma/client.js';
import { recordActivity, systemActor } from '../activity/record.js';
import { batchesOf, inBatches } from '../shared/batches.js';
import { ALERT_INCLUDE } from './serialize.js';
import { alertActivity, removeEmptiedTopics } from './service.js';

// A check's findings become its (invoice, agreement) pair's alerts: the check
// (src/checks/perform.ts) calls replaceAlerts in the transaction that stores it.

// What an alert takes from a check's finding. The checkers' `Finding` (src/checks/checkers/types.ts)
// has this shape; it is declared here so that alerts never import checks (docs/architecture.md).
export interface AlertFinding {
  checker: string;
  fingerprint: string;
  title: string;
  explanation: string;
  citations: unknown[];
  impactAmount: string;
  expected: unknown[] | null;
  confidence: Alert['confidenceLevel'];
  invoiceItemId: string | null;
  correctionType: Alert['correctionType'];
}

// What a stored check found, for its pair.
export interface CheckFindings {
  checkId: string;
  invoiceId: string;
  agreementId: string;
  loaded: { organizationId: string; currencyCode: string | null };
  kept: AlertFinding[];
}

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
export async function replaceAlerts(
  tx: Prisma.TransactionClient,
  organizationId: string,
  runId: string,
  checks: CheckFindings[],
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
  finding: AlertFinding;
  checkId: string;
  currencyCode: string | null;
}

function alertContent(finding: AlertFinding, loaded: CheckFindings['loaded'], checkId: string) {
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
