import { Decimal } from 'decimal.js';
import { READINESS_GAPS } from '../agreements/schemas.js';
import type { AppDeps } from '../deps.js';
import { formatAmount } from '../shared/money.js';
import {
  EXPIRING_LISTED,
  EXPIRING_WITHIN_DAYS,
  NOT_READY_STEPS,
  RECENT_DAYS,
  RENEWAL_DUE_WITHIN_DAYS,
  type NextStep,
  type Overview,
} from './schemas.js';

// The organization at a glance, computed on request: thirteen grouped statements run side by side,
// each an index-only or index scan of the rows it counts (indexes of migration overview_and_search).
// No precomputed table, so the figures are never stale. Measured by npm run bench:overview.

type Deps = Pick<AppDeps, 'db'>;
type Gap = (typeof READINESS_GAPS)[number];

const DAY_MS = 86_400_000;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

interface MoneyRow {
  currency_code: string | null;
  total: string;
  recent: string;
}

const byCurrency = (a: { currency_code: string | null }, b: { currency_code: string | null }) => (a.currency_code ?? '').localeCompare(b.currency_code ?? '');
const money = (rows: MoneyRow[]) => rows.map((r) => ({ currency_code: r.currency_code, total: formatAmount(r.total)!, recent: formatAmount(r.recent)! })).sort(byCurrency);

// Visible alerts only: an alert whose match ended or whose invoice was deleted is set aside
// (docs/alerts.md) and out of every total. Written as the absence of the few set-aside rows
// (partial indexes on ended matches and deleted invoices) rather than a join with every match
// and invoice: every alert has its match and invoice, so the two say the same.
const VISIBLE_ALERT = `
  NOT EXISTS (SELECT 1 FROM invoice_agreement_matches m WHERE m.invoice_id = a.invoice_id AND m.agreement_id = a.agreement_id AND NOT m.active)
  AND NOT EXISTS (SELECT 1 FROM invoices i WHERE i.id = a.invoice_id AND i.organization_id = a.organization_id AND i.deleted_at IS NOT NULL)`;

// Readiness of each agreement that is not archived, as readinessOf() in src/agreements/service.ts
// says it, in SQL so the overview never loads agreements one by one.
const READINESS_SQL = `
  SELECT a.id, a.title, a.status, a.expiration_date,
         (a.title IS NULL OR a.title = '') AS title_missing,
         NOT EXISTS (SELECT 1 FROM agreement_suppliers s WHERE s.agreement_id = a.id) AS supplier_missing,
         a.status <> 'active' AS active_status_missing,
         (NOT EXISTS (SELECT 1 FROM price_items p WHERE p.agreement_id = a.id)
           AND NOT coalesce(a.instructions ~ '[^[:space:]]', false)
           AND NOT EXISTS (SELECT 1 FROM agreement_documents d WHERE d.agreement_id = a.id AND d.status = 'completed' AND d.classification = 'terms')) AS usable_terms_missing,
         EXISTS (SELECT 1 FROM agreement_documents d WHERE d.agreement_id = a.id AND d.status IN ('queued', 'processing')) AS documents_processing_missing
    FROM agreements a
   WHERE a.organization_id = $1::uuid AND a.status <> 'archived'`;
const NOT_READY = `(title_missing OR supplier_missing OR active_status_missing OR usable_terms_missing OR documents_processing_missing)`;

// Why checks cannot run, in the order a user fixes it.
const GAP_REASON: Record<Gap, string> = {
  supplier: 'has no supplier',
  usable_terms: 'has no price list, instructions or terms document',
  title: 'has no title',
  active_status: 'is not active',
  documents_processing: 'has documents still being read',
};
const GAP_ORDER: Gap[] = ['supplier', 'usable_terms', 'title', 'active_status', 'documents_processing'];

interface SpendRow {
  currency_code: string | null;
  document_type: 'invoice' | 'credit_note' | null;
  count: number;
  signed: string;
  absolute: string;
}

// Invoices add their total, credit notes subtract theirs whatever sign their format writes.
const spendOf = (row: SpendRow) => (row.document_type === 'credit_note' ? new Decimal(row.absolute).negated() : new Decimal(row.signed));

function spendByCurrency(all: SpendRow[], recent: SpendRow[]) {
  const totals = new Map<string, { total: Decimal; recent: Decimal }>();
  const entry = (currency: string) => totals.get(currency) ?? totals.set(currency, { total: new Decimal(0), recent: new Decimal(0) }).get(currency)!;
  for (const row of all) if (row.currency_code !== null) entry(row.currency_code).total = entry(row.currency_code).total.plus(spendOf(row));
  for (const row of recent) if (row.currency_code !== null) entry(row.currency_code).recent = entry(row.currency_code).recent.plus(spendOf(row));
  return {
    count: all.reduce((n, r) => n + r.count, 0),
    recentCount: recent.reduce((n, r) => n + r.count, 0),
    money: [...totals].map(([currency_code, sums]) => ({ currency_code, total: sums.total.toString(), recent: sums.recent.toString() })),
  };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export async function overview(deps: Deps, organizationId: string, now = new Date()): Promise<Overview> {
  const since = new Date(now.getTime() - RECENT_DAYS * DAY_MS);
  const today = isoDay(now);
  // Calendar dates (refunds): today and the 6 days before it.
  const recentFrom = isoDay(new Date(now.getTime() - (RECENT_DAYS - 1) * DAY_MS));
  const expiringThrough = isoDay(new Date(now.getTime() + EXPIRING_WITHIN_DAYS * DAY_MS));
  const renewalThrough = isoDay(new Date(now.getTime() + RENEWAL_DUE_WITHIN_DAYS * DAY_MS));
  const db = deps.db;
  const org = organizationId;

  const [spendRows, recentSpendRows, checkRows, [failed], alertRows, recentAlertRows, claimRows, claimedRows, refundRows, [agreementCounts], soonest, notReady, [renewal]] = await Promise.all([
    // Spend as GET /v1/invoices/metrics counts it (credit notes subtract whatever their sign):
    // all of it in one index-only pass with no per-row expression, the recent part from the few
    // rows of the last 7 days through the created_at index.
    db.$queryRawUnsafe<SpendRow[]>(
      `SELECT currency_code, document_type::text AS document_type, count(*)::int AS count,
              coalesce(sum(tax_inclusive_amount), 0)::text AS signed, coalesce(sum(abs(tax_inclusive_amount)), 0)::text AS absolute
         FROM invoices
        WHERE organization_id = $1::uuid AND deleted_at IS NULL AND processing_status = 'completed' AND duplicate_of_invoice_id IS NULL
        GROUP BY 1, 2`,
      org,
    ),
    db.$queryRawUnsafe<SpendRow[]>(
      `SELECT currency_code, document_type::text AS document_type, count(*)::int AS count,
              coalesce(sum(tax_inclusive_amount), 0)::text AS signed, coalesce(sum(abs(tax_inclusive_amount)), 0)::text AS absolute
         FROM invoices
        WHERE organization_id = $1::uuid AND created_at >= $2 AND deleted_at IS NULL AND processing_status = 'completed' AND duplicate_of_invoice_id IS NULL
        GROUP BY 1, 2`,
      org,
      since,
    ),
    // Invoices to look at again, counted as their list links count them.
    db.$queryRawUnsafe<{ check_status: string; count: number }[]>(
      `SELECT check_status, count(*)::int AS count FROM invoices
        WHERE organization_id = $1::uuid AND deleted_at IS NULL AND check_status IN ('incomplete', 'outdated')
        GROUP BY 1`,
      org,
    ),
    db.$queryRawUnsafe<{ count: number }[]>(`SELECT count(*)::int AS count FROM invoices WHERE organization_id = $1::uuid AND processing_status = 'failed' AND deleted_at IS NULL`, org),
    db.$queryRawUnsafe<{ currency_code: string | null; count: number; total: string }[]>(
      `SELECT a.currency_code, count(*)::int AS count, sum(a.impact_amount)::text AS total
         FROM alerts a
        WHERE a.organization_id = $1::uuid AND a.status = 'pending' AND ${VISIBLE_ALERT}
        GROUP BY 1`,
      org,
    ),
    db.$queryRawUnsafe<{ currency_code: string | null; count: number; total: string }[]>(
      `SELECT a.currency_code, count(*)::int AS count, sum(a.impact_amount)::text AS total
         FROM alerts a
        WHERE a.organization_id = $1::uuid AND a.created_at >= $2 AND a.status = 'pending' AND ${VISIBLE_ALERT}
        GROUP BY 1`,
      org,
      since,
    ),
    db.$queryRawUnsafe<{ count: number; recent_count: number }[]>(
      `SELECT count(*)::int AS count, count(*) FILTER (WHERE created_at >= $2)::int AS recent_count
         FROM claims WHERE organization_id = $1::uuid AND status IN ('pending', 'in_progress')`,
      org,
      since,
    ),
    db.$queryRawUnsafe<MoneyRow[]>(
      `SELECT a.currency_code, sum(a.impact_amount)::text AS total, coalesce(sum(a.impact_amount) FILTER (WHERE c.created_at >= $2), 0)::text AS recent
         FROM alerts a JOIN claims c ON c.id = a.claim_id
        WHERE a.organization_id = $1::uuid AND a.status = 'claimed' AND ${VISIBLE_ALERT}
        GROUP BY 1`,
      org,
      since,
    ),
    db.$queryRawUnsafe<MoneyRow[]>(
      `SELECT currency_code, sum(amount)::text AS total, coalesce(sum(amount) FILTER (WHERE date >= $2::date), 0)::text AS recent
         FROM claim_refunds WHERE organization_id = $1::uuid GROUP BY 1`,
      org,
      recentFrom,
    ),
    db.$queryRawUnsafe<Record<string, number>[]>(
      `WITH readiness AS (${READINESS_SQL})
       SELECT count(*) FILTER (WHERE status = 'active')::int AS active,
              count(*) FILTER (WHERE status = 'active' AND expiration_date BETWEEN $2::date AND $3::date)::int AS expiring,
              count(*) FILTER (WHERE ${NOT_READY})::int AS not_ready,
              ${READINESS_GAPS.map((gap) => `count(*) FILTER (WHERE ${gap}_missing)::int AS ${gap}`).join(', ')}
         FROM readiness`,
      org,
      today,
      expiringThrough,
    ),
    db.$queryRawUnsafe<{ id: string; title: string | null; expiration_date: string }[]>(
      `SELECT id::text, title, expiration_date::text FROM agreements
        WHERE organization_id = $1::uuid AND status = 'active' AND expiration_date BETWEEN $2::date AND $3::date
        ORDER BY expiration_date, id LIMIT ${EXPIRING_LISTED}`,
      org,
      today,
      expiringThrough,
    ),
    // The not-ready agreements that hold back the most invoices (matched, not deleted).
    db.$queryRawUnsafe<({ id: string; title: string | null; invoices: number } & Record<`${Gap}_missing`, boolean>)[]>(
      `WITH readiness AS (${READINESS_SQL}), not_ready AS (SELECT * FROM readiness WHERE ${NOT_READY})
       SELECT r.id::text, r.title, ${READINESS_GAPS.map((gap) => `r.${gap}_missing`).join(', ')}, counted.invoices
         FROM not_ready r
         CROSS JOIN LATERAL (
           SELECT count(*)::int AS invoices FROM invoice_agreement_matches m
            WHERE m.agreement_id = r.id AND m.active
              AND NOT EXISTS (SELECT 1 FROM invoices i WHERE i.id = m.invoice_id AND i.organization_id = m.organization_id AND i.deleted_at IS NOT NULL)) counted
        WHERE counted.invoices > 0
        ORDER BY counted.invoices DESC, r.id LIMIT ${NOT_READY_STEPS}`,
      org,
    ),
    db.$queryRawUnsafe<{ count: number }[]>(
      `SELECT count(*)::int AS count FROM agreements WHERE organization_id = $1::uuid AND status = 'active' AND renewal_deadline <= $2::date`,
      org,
      renewalThrough,
    ),
  ]);

  const spend = spendByCurrency(spendRows, recentSpendRows);
  const checks = Object.fromEntries(checkRows.map((row) => [row.check_status, row.count])) as Record<string, number>;
  const openAlerts = alertRows.reduce((n, r) => n + r.count, 0);
  const recentAlerts = new Map(recentAlertRows.map((r) => [r.currency_code, r]));
  const impact = alertRows.map((r) => ({ currency_code: r.currency_code, total: r.total, recent: recentAlerts.get(r.currency_code)?.total ?? '0' }));
  const counts = agreementCounts!;

  const steps: NextStep[] = [];
  for (const agreement of notReady) {
    const gaps = GAP_ORDER.filter((gap) => agreement[`${gap}_missing`]);
    const name = agreement.title ? `"${agreement.title}"` : 'without a title';
    steps.push({
      kind: 'agreement_not_ready',
      message: `${plural(agreement.invoices, 'invoice')} could not be checked: agreement ${name} ${gaps.map((gap) => GAP_REASON[gap]).join(' and ')}`,
      count: agreement.invoices,
      link: `/v1/invoices?agreement_ids=${agreement.id}`,
      agreement_id: agreement.id,
    });
  }
  const step = (kind: NextStep['kind'], n: number, message: string, link: string) => {
    if (n > 0) steps.push({ kind, message, count: n, link, agreement_id: null });
  };
  step('review_alerts', openAlerts, `${plural(openAlerts, 'alert')} ${openAlerts === 1 ? 'waits' : 'wait'} for review`, '/v1/alerts?statuses=pending');
  step('failed_invoices', failed!.count, `${plural(failed!.count, 'invoice')} could not be read`, '/v1/invoices?processing_statuses=failed');
  step('incomplete_checks', checks.incomplete ?? 0, `${plural(checks.incomplete ?? 0, 'invoice')} could not be checked completely`, '/v1/invoices?check_statuses=incomplete');
  step('outdated_checks', checks.outdated ?? 0, `${plural(checks.outdated ?? 0, 'invoice')} changed, or ${checks.outdated === 1 ? 'its' : 'their'} agreement did, since the last check`, '/v1/invoices?check_statuses=outdated');
  step('renewal_due', renewal!.count, `${plural(renewal!.count, 'agreement')} must be renewed or cancelled by ${renewalThrough}`, `/v1/agreements?statuses=active&renewal_deadline_through=${renewalThrough}`);

  return {
    recent_since: since.toISOString(),
    invoices: { count: spend.count, recent_count: spend.recentCount, spend: money(spend.money) },
    alerts: { open_count: openAlerts, recent_open_count: recentAlertRows.reduce((n, r) => n + r.count, 0), impact: money(impact) },
    claims: { open_count: claimRows[0]!.count, recent_open_count: claimRows[0]!.recent_count, claimed: money(claimedRows), refunded: money(refundRows) },
    agreements: {
      active_count: counts.active!,
      expiring_soon: { count: counts.expiring!, within_days: EXPIRING_WITHIN_DAYS, soonest },
      not_ready: { count: counts.not_ready!, missing: Object.fromEntries(READINESS_GAPS.map((gap) => [gap, counts[gap]!])) as Record<Gap, number> },
    },
    next_steps: steps,
  };
}
