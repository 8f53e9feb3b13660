import type { Db, Prisma } from '../db/client.js';
import { replaceAlerts } from '../alerts/reconcile-check.js';
import { recordNewAlerts } from '../notifications/dispatch.js';
import { batchesOf } from '../shared/batches.js';
import { deterministicUuid } from '../shared/ids.js';
import { refreshCheckStatus } from '../invoices/check-status.js';
import type { Finding } from './checkers/types.js';
import type { LoadedCheck } from './input.js';

// Storing checks whose findings are known: the check rows, their findings, their pairs' alerts
// (src/alerts/reconcile-check.ts) and the invoices' check status, in one transaction.

/** What one check came to: the run's item result. */
export interface CheckOutcome {
  checkId: string;
  status: 'completed' | 'failed' | 'skipped';
  findings: number;
  alerts: number;
}

// Storing a check writes its findings and alerts: thousands for a large invoice, which on a busy
// database takes longer than Prisma's default 5 s. An expired transaction was retried as an
// outage, so the whole check ran again and expired again.
const CHECK_STORE_TIMEOUT_MS = 600_000;

// A check whose findings are known and wait to be stored.
export interface FoundCheck {
  checkId: string;
  invoiceId: string;
  agreementId: string;
  loaded: LoadedCheck;
  kept: Finding[];
}

// Stores checks of one organization and run in one transaction, each statement for all of them:
// the checks, their findings, their pairs' alerts and activity, the invoices' check status. A
// batch's checks took some ten statements each (a quarter of the worker's time went to Prisma
// building and sending them); together they take about as many as one.
export async function storeChecks(
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
