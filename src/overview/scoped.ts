import { Prisma } from '../db/client.js';
import { visibleAlertSql } from '../alerts/filters.js';
import { scopeCondition, type TeamScope } from '../teams/scope.js';

// The invoice, alert and claim figures of GET /v1/overview narrowed to what a set of teams covers
// (mine / team_ids). The organization's trigger-kept totals cannot be narrowed, so these read the
// records themselves, once each: every table is scanned for the organization, the teams' compiled
// filter (the lists' scopeCondition) keeps the covered rows in a materialized CTE, and every part
// of the figure is aggregated from it in SQL. Same rows and columns as the unscoped statements in
// service.ts, so figuresOf() adds them up the same way.

const SPEND = `CASE WHEN document_type = 'credit_note' THEN -abs(coalesce(tax_inclusive_amount, 0)) ELSE coalesce(tax_inclusive_amount, 0) END`;
const COUNTED = `processing_status = 'completed' AND duplicate_of_invoice_id IS NULL`;

export function scopedInvoiceFigures(scope: TeamScope, since: Date): Prisma.Sql {
  const org = scope.organizationId;
  return Prisma.sql`
    WITH covered AS MATERIALIZED (
      SELECT currency_code, document_type, tax_inclusive_amount, created_at, processing_status, check_status, duplicate_of_invoice_id
        FROM invoices WHERE organization_id = ${org}::uuid AND deleted_at IS NULL AND ${scopeCondition(scope, 'invoice')})
    SELECT 'spend' AS part, currency_code, count(*)::int AS count, count(*) FILTER (WHERE created_at >= ${since})::int AS recent_count,
           sum(${Prisma.raw(SPEND)})::text AS total, coalesce(sum(${Prisma.raw(SPEND)}) FILTER (WHERE created_at >= ${since}), 0)::text AS recent
      FROM covered WHERE ${Prisma.raw(COUNTED)}
     GROUP BY currency_code
    UNION ALL
    SELECT k.part, NULL, k.count::int, 0, '0', '0'
      FROM (SELECT count(*) FILTER (WHERE processing_status = 'failed') AS failed,
                   count(*) FILTER (WHERE check_status = 'incomplete') AS incomplete,
                   count(*) FILTER (WHERE check_status = 'outdated') AS outdated
              FROM covered) t
     CROSS JOIN LATERAL (VALUES ('failed', t.failed), ('incomplete', t.incomplete), ('outdated', t.outdated)) k(part, count)`;
}

// Alerts pending or claimed that are visible (docs/alerts.md) and covered as alerts; claims and
// their refunds covered as claims. The recent claimed amount: covered claimed alerts of claims
// created in the last 7 days.
export function scopedAlertAndClaimFigures(scope: TeamScope, since: Date, recentFrom: string): Prisma.Sql {
  const org = scope.organizationId;
  return Prisma.sql`
    WITH covered_alerts AS MATERIALIZED (
      SELECT a.status, a.currency_code, a.impact_amount, a.created_at, a.claim_id
        FROM alerts a
       WHERE a.organization_id = ${org}::uuid AND a.status IN ('pending', 'claimed') AND ${Prisma.raw(visibleAlertSql('a'))}
         AND ${scopeCondition(scope, 'alert', 'a')}),
    covered_claims AS MATERIALIZED (
      SELECT c.id, c.status, c.created_at FROM claims c WHERE c.organization_id = ${org}::uuid AND ${scopeCondition(scope, 'claim', 'c')})
    SELECT status::text AS part, currency_code, count(*)::int AS count,
           count(*) FILTER (WHERE status = 'pending' AND created_at >= ${since})::int AS recent_count,
           sum(impact_amount)::text AS total,
           coalesce(sum(impact_amount) FILTER (WHERE status = 'pending' AND created_at >= ${since}), 0)::text AS recent
      FROM covered_alerts GROUP BY status, currency_code
    UNION ALL
    SELECT 'claimed', a.currency_code, 0, 0, '0', sum(a.impact_amount)::text
      FROM covered_alerts a JOIN claims c ON c.id = a.claim_id
     WHERE a.status = 'claimed' AND c.organization_id = ${org}::uuid AND c.created_at >= ${since}
     GROUP BY a.currency_code
    UNION ALL
    SELECT 'open_claims', NULL, count(*) FILTER (WHERE status IN ('pending', 'in_progress'))::int,
           count(*) FILTER (WHERE status IN ('pending', 'in_progress') AND created_at >= ${since})::int, '0', '0'
      FROM covered_claims
    UNION ALL
    SELECT 'refunded', r.currency_code, count(*)::int, 0, sum(r.amount)::text, coalesce(sum(r.amount) FILTER (WHERE r.date >= ${recentFrom}::date), 0)::text
      FROM claim_refunds r JOIN covered_claims c ON c.id = r.claim_id
     WHERE r.organization_id = ${org}::uuid
     GROUP BY r.currency_code`;
}
