import { Prisma, type Db } from '../db/client.js';
import type { Logger } from '../logger.js';
import { batchesOf, countInBatches } from '../shared/batches.js';
import { pairEligibility, type Eligibility } from './eligibility.js';
import { performCheck } from './perform.js';

// The invoice's own check state, as the Ingestion API shows it in alerts.processing:
//   pending     imported, its checks not started yet;
//   processing  checks are running;
//   completed   every eligible matched agreement was checked (alerts may or may not exist);
//   failed      a check failed: the assessment is incomplete even if alerts exist;
//   skipped     nothing to check, with the reason (no_matching_agreements, no_ready_agreements,
//               or why the invoice itself cannot be checked, e.g. credit_note).

export interface InvoiceCheckSettlement {
  status: 'completed' | 'failed' | 'skipped';
  skipReason: string | null;
}

export async function markInvoicesChecking(db: Db, invoiceIds: string[]): Promise<void> {
  await countInBatches(invoiceIds, (ids) =>
    db.invoice.updateMany({
      where: { id: { in: ids } },
      data: { alertCheckStatus: 'processing', alertCheckSkipReason: null, alertCheckFailure: Prisma.DbNull },
    }),
  );
}

function skipReasonOf(eligibility: Eligibility): string {
  if (eligibility.excluded.length === 0) return 'no_matching_agreements';
  const invoiceReason = eligibility.excluded.find((e) => e.reason !== 'agreement_not_ready');
  return invoiceReason ? invoiceReason.reason : 'no_ready_agreements';
}

// Records the outcome of the invoice's checks from the latest check of each eligible pair.
export async function settleInvoiceChecks(db: Db, organizationId: string, invoiceIds: string[]): Promise<void> {
  // One eligibility read for the whole run's invoices, then each invoice's share of it.
  const eligibility = await pairEligibility(db, organizationId, invoiceIds);
  const byInvoice = new Map<string, Eligibility>(
    invoiceIds.map((invoiceId) => [invoiceId, { eligible: [], excluded: [] }]),
  );
  for (const pair of eligibility.eligible) byInvoice.get(pair.invoiceId)?.eligible.push(pair);
  for (const pair of eligibility.excluded) byInvoice.get(pair.invoiceId)?.excluded.push(pair);
  // Two statements for the run's invoices, not two per invoice: per invoice, they were a
  // visible part of a run's end.
  const failures = await latestCheckFailures(db, organizationId, eligibility.eligible);
  const settled = [...byInvoice].map(([invoiceId, of]) => {
    if (of.eligible.length === 0) return { invoiceId, status: 'skipped', skipReason: skipReasonOf(of), failure: null };
    const failure = failures.get(invoiceId) ?? null;
    return { invoiceId, status: failure ? 'failed' : 'completed', skipReason: null, failure };
  });
  for (const part of batchesOf(settled)) {
    await db.$executeRaw`
      UPDATE invoices AS i
         SET alert_check_status = s.status, alert_check_skip_reason = s.skip_reason, alert_check_failure = s.failure::jsonb, updated_at = now()
        FROM unnest(${part.map((s) => s.invoiceId)}::uuid[], ${part.map((s) => s.status)}::text[], ${part.map((s) => s.skipReason)}::text[],
                    ${part.map((s) => (s.failure === null ? null : JSON.stringify(s.failure)))}::text[]) AS s(id, status, skip_reason, failure)
       WHERE i.id = s.id AND i.organization_id = ${organizationId}::uuid`;
  }
}

// latestCheckFailure for many invoices at once: per invoice, the failure of the latest failed
// check among the latest finished check of each of its eligible pairs.
async function latestCheckFailures(
  db: Db,
  organizationId: string,
  pairs: { invoiceId: string; agreementId: string }[],
): Promise<Map<string, Prisma.InputJsonValue>> {
  const latest = new Map<string, { startedAt: Date; failure: Prisma.InputJsonValue }>();
  for (const part of batchesOf(pairs)) {
    const rows = await db.$queryRaw<{ invoiceId: string; failure: Prisma.JsonValue | null; startedAt: Date }[]>`
      SELECT DISTINCT ON (l.invoice_id) l.invoice_id::text AS "invoiceId", l.failure AS "failure", l.started_at AS "startedAt"
        FROM (SELECT DISTINCT ON (c.invoice_id, c.agreement_id) c.invoice_id, c.status, c.failure, c.started_at
                FROM compliance_checks c
                JOIN unnest(${part.map((p) => p.invoiceId)}::uuid[], ${part.map((p) => p.agreementId)}::uuid[]) AS p(invoice_id, agreement_id)
                  ON c.invoice_id = p.invoice_id AND c.agreement_id = p.agreement_id
               WHERE c.organization_id = ${organizationId}::uuid AND c.status <> 'running'
               ORDER BY c.invoice_id, c.agreement_id, c.started_at DESC) AS l
       WHERE l.status = 'failed'
       ORDER BY l.invoice_id, l.started_at DESC`;
    for (const row of rows) {
      // An invoice's pairs may fall into two parts: the later failure of the two is its latest.
      const earlier = latest.get(row.invoiceId);
      if (earlier && earlier.startedAt >= row.startedAt) continue;
      latest.set(row.invoiceId, {
        startedAt: row.startedAt,
        failure: (row.failure as Prisma.InputJsonValue) ?? { code: 'check_failed', message: 'A check failed.' },
      });
    }
  }
  return new Map([...latest].map(([invoiceId, { failure }]) => [invoiceId, failure]));
}

async function settleInvoice(db: Db, invoiceId: string, eligibility: Eligibility): Promise<InvoiceCheckSettlement> {
  if (eligibility.eligible.length === 0) {
    const skipReason = skipReasonOf(eligibility);
    await db.invoice.update({
      where: { id: invoiceId },
      data: { alertCheckStatus: 'skipped', alertCheckSkipReason: skipReason, alertCheckFailure: Prisma.DbNull },
    });
    return { status: 'skipped', skipReason };
  }
  const latestFailure = await latestCheckFailure(
    db,
    invoiceId,
    eligibility.eligible.map((pair) => pair.agreementId),
  );
  const status = latestFailure ? 'failed' : 'completed';
  await db.invoice.update({
    where: { id: invoiceId },
    data: { alertCheckStatus: status, alertCheckSkipReason: null, alertCheckFailure: latestFailure ?? Prisma.DbNull },
  });
  return { status, skipReason: null };
}

// The failure of the latest finished check of any of the pairs, if that check failed.
async function latestCheckFailure(
  db: Db,
  invoiceId: string,
  agreementIds: string[],
): Promise<Prisma.InputJsonValue | null> {
  const checks = await db.complianceCheck.findMany({
    where: { invoiceId, agreementId: { in: agreementIds }, status: { not: 'running' } },
    orderBy: { startedAt: 'desc' },
    select: { agreementId: true, status: true, failure: true },
  });
  const seen = new Set<string>();
  for (const check of checks) {
    if (seen.has(check.agreementId)) continue;
    seen.add(check.agreementId);
    if (check.status === 'failed') return check.failure ?? { code: 'check_failed', message: 'A check failed.' };
  }
  return null;
}

// The check an import runs by itself once the invoice is stored and matched to
// `matchedAgreements` agreements (none: nothing to check, and no eligibility to read).
export async function checkImportedInvoice(
  db: Db,
  organizationId: string,
  runId: string,
  invoiceId: string,
  matchedAgreements: number,
  logger?: Logger,
) {
  const eligibility =
    matchedAgreements === 0 ? { eligible: [], excluded: [] } : await pairEligibility(db, organizationId, [invoiceId]);
  if (eligibility.eligible.length > 0) {
    await markInvoicesChecking(db, [invoiceId]);
    for (const pair of eligibility.eligible)
      await performCheck(db, organizationId, runId, pair.invoiceId, pair.agreementId, undefined, logger);
  }
  const settlement = await settleInvoice(db, invoiceId, eligibility);
  return {
    checked_agreements: eligibility.eligible.length,
    alert_check: settlement.status,
    skip_reason: settlement.skipReason,
  };
}
