import { Prisma, type Db } from '../db/client.js';

// An invoice's check status, derived from the latest finished check of each of its active
// matches, and kept on the invoice row so the invoice list can filter on it:
//   not_checked  no current or outdated completed check (or no active match at all);
//   outdated     a completed check read an older invoice or agreement than the current one;
//   incomplete   some matched agreements are checked, others not, or the latest check failed;
//   checked      every matched agreement has a current completed check.
// It must be refreshed after anything that changes one of its inputs: a check finishing, the
// invoice's content, an agreement's terms, the matches (see callers of refreshCheckStatus).
export const CHECK_STATUSES = ['not_checked', 'checked', 'incomplete', 'outdated'] as const;
export type InvoiceCheckStatus = (typeof CHECK_STATUSES)[number];

export type CheckStatusScope = { invoiceIds: string[] } | { agreementId: string };

function scopeCondition(scope: CheckStatusScope): Prisma.Sql {
  if ('invoiceIds' in scope) {
    return Prisma.sql`i.id = ANY(${scope.invoiceIds}::uuid[])`;
  }
  return Prisma.sql`i.id IN (SELECT invoice_id FROM invoice_agreement_matches WHERE agreement_id = ${scope.agreementId}::uuid)`;
}

// The invoices' rows are locked first, in id order: two refreshes over overlapping invoices (an
// agreement's price items changed while a match refresh or another agreement's change runs) then
// queue behind each other instead of locking in their plans' orders and deadlocking.
export async function refreshCheckStatus(db: Db | Prisma.TransactionClient, scope: CheckStatusScope): Promise<void> {
  if ('invoiceIds' in scope && scope.invoiceIds.length === 0) return;
  await db.$executeRaw`
    WITH locked AS MATERIALIZED (
      SELECT i.id FROM invoices i WHERE ${scopeCondition(scope)} ORDER BY i.id FOR NO KEY UPDATE
    ),
    latest AS (
      SELECT DISTINCT ON (c.invoice_id, c.agreement_id)
             c.invoice_id, c.agreement_id, c.status, c.invoice_version_at, c.agreement_version_at
        FROM compliance_checks c
        JOIN invoice_agreement_matches m
          ON m.invoice_id = c.invoice_id AND m.agreement_id = c.agreement_id AND m.active
        JOIN invoices i ON i.id = c.invoice_id
       WHERE c.status <> 'running' AND ${scopeCondition(scope)}
       ORDER BY c.invoice_id, c.agreement_id, c.started_at DESC
    ),
    summary AS (
      SELECT i.id,
             (SELECT count(*) FROM invoice_agreement_matches m WHERE m.invoice_id = i.id AND m.active) AS matched,
             count(l.invoice_id) FILTER (WHERE l.status = 'completed'
               AND l.invoice_version_at >= i.content_changed_at AND l.agreement_version_at >= a.terms_changed_at) AS current,
             count(l.invoice_id) FILTER (WHERE l.status = 'completed'
               AND (l.invoice_version_at < i.content_changed_at OR l.agreement_version_at < a.terms_changed_at)) AS outdated,
             count(l.invoice_id) FILTER (WHERE l.status = 'failed') AS failed
        FROM locked
        JOIN invoices i ON i.id = locked.id
        LEFT JOIN latest l ON l.invoice_id = i.id
        LEFT JOIN agreements a ON a.id = l.agreement_id
       GROUP BY i.id
    )
    UPDATE invoices AS target
       SET check_status = CASE
             WHEN s.outdated > 0 THEN 'outdated'
             WHEN s.current = 0 AND s.failed = 0 THEN 'not_checked'
             WHEN s.current = s.matched AND s.failed = 0 THEN 'checked'
             ELSE 'incomplete'
           END,
           checked_agreement_count = s.current
      FROM summary s
     WHERE target.id = s.id`;
}
