import { Decimal } from 'decimal.js';
import { READINESS_GAPS } from '../agreements/schemas.js';
import type { AppDeps } from '../deps.js';
import { formatAmount } from '../shared/money.js';
import { setAsideAlertsSql, visibleAlertSql } from '../alerts/filters.js';
import { Prisma } from '../db/client.js';
import { scopeCondition, type TeamScope, type TeamScopeQuery } from '../teams/scope.js';
import { scopedAlertAndClaimFigures, scopedInvoiceFigures } from './scoped.js';
import {
  EXPIRING_LISTED,
  EXPIRING_WITHIN_DAYS,
  NOT_READY_STEPS,
  RECENT_DAYS,
  RENEWAL_DUE_WITHIN_DAYS,
  type NextStep,
  type Overview,
} from './schemas.js';

// The organization at a glance in three statements run side by side. Figures over all invoices
// and alerts come from totals that triggers keep in the same transaction as each change
// (organization_invoice_totals, organization_alert_totals; migration overview_totals), so they are
// never stale and cost the same at any number of records; the recent parts and the set-aside
// alerts read indexes of just their rows (docs/overview-and-search.md). npm run bench:overview.

type Deps = Pick<AppDeps, 'db'>;
type Gap = (typeof READINESS_GAPS)[number];

const DAY_MS = 86_400_000;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

const byCurrency = (a: { currency_code: string | null }, b: { currency_code: string | null }) =>
  (a.currency_code ?? '').localeCompare(b.currency_code ?? '');

// Visible alerts only: an alert whose match ended or whose invoice was deleted is set aside
// (docs/alerts.md) and out of every total.
const VISIBLE_ALERT = visibleAlertSql('a');

// Readiness of each agreement that is not archived, as readinessOf() in src/agreements/service.ts
// says it, in SQL so the overview never loads agreements one by one.
function readinessSql(org: string, covered: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
  SELECT a.id, a.title, a.status, a.expiration_date,
         (a.title IS NULL OR a.title = '') AS title_missing,
         NOT EXISTS (SELECT 1 FROM agreement_suppliers s WHERE s.agreement_id = a.id) AS supplier_missing,
         a.status <> 'active' AS active_status_missing,
         (NOT EXISTS (SELECT 1 FROM price_items p WHERE p.agreement_id = a.id)
           AND NOT coalesce(a.instructions ~ '[^[:space:]]', false)
           AND NOT EXISTS (SELECT 1 FROM agreement_documents d WHERE d.agreement_id = a.id AND d.status = 'completed' AND d.classification = 'terms')) AS usable_terms_missing,
         EXISTS (SELECT 1 FROM agreement_documents d WHERE d.agreement_id = a.id AND d.status IN ('queued', 'processing')) AS documents_processing_missing
    FROM agreements a
   WHERE a.organization_id = ${org}::uuid AND a.status <> 'archived' AND ${covered}`;
}
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

// One row of a money figure: a part of the overview, per currency. A figure may come in several
// rows (a total and its recent part from different sources); they add up per part and currency.
interface FigureRow {
  part: 'spend' | 'pending' | 'claimed' | 'open_claims' | 'refunded' | 'failed' | 'incomplete' | 'outdated';
  currency_code: string | null;
  count: number;
  recent_count: number;
  total: string;
  recent: string;
}

interface Figure {
  count: number;
  recentCount: number;
  money: { currency_code: string | null; count: number; total: Decimal; recent: Decimal }[];
}

function figuresOf(rows: FigureRow[]): (part: FigureRow['part']) => Figure {
  const figures = new Map<FigureRow['part'], Figure>();
  for (const row of rows) {
    const figure =
      figures.get(row.part) ?? figures.set(row.part, { count: 0, recentCount: 0, money: [] }).get(row.part)!;
    figure.count += row.count;
    figure.recentCount += row.recent_count;
    let entry = figure.money.find((m) => m.currency_code === row.currency_code);
    if (!entry)
      figure.money.push(
        (entry = { currency_code: row.currency_code, count: 0, total: new Decimal(0), recent: new Decimal(0) }),
      );
    entry.count += row.count;
    entry.total = entry.total.plus(row.total);
    entry.recent = entry.recent.plus(row.recent);
  }
  return (part) => figures.get(part) ?? { count: 0, recentCount: 0, money: [] };
}

// Amounts per currency, sorted by code; a currency whose records were all subtracted (set aside)
// has no entry.
const moneyOf = (figure: Figure) =>
  figure.money
    .filter((m) => m.count > 0)
    .map((m) => ({ currency_code: m.currency_code, total: formatAmount(m.total)!, recent: formatAmount(m.recent)! }))
    .sort(byCurrency);

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const COUNTED_INVOICE = `deleted_at IS NULL AND processing_status = 'completed' AND duplicate_of_invoice_id IS NULL`;

// Invoices: the spend and the invoices to look at again from the totals the invoice triggers keep
// (organization_invoice_totals, a row per currency), the recent spend from the rows of the last 7
// days (a partial covering index).
const INVOICE_FIGURES = `
  SELECT 'spend' AS part, nullif(currency_code, '') AS currency_code, invoice_count::int AS count, 0 AS recent_count, spend::text AS total, '0' AS recent
    FROM organization_invoice_totals WHERE organization_id = $1::uuid AND invoice_count > 0
  UNION ALL
  SELECT 'spend', currency_code, 0, count(*)::int, '0',
         coalesce(sum(CASE WHEN document_type = 'credit_note' THEN -abs(tax_inclusive_amount) ELSE tax_inclusive_amount END), 0)::text
    FROM invoices WHERE organization_id = $1::uuid AND created_at >= $2 AND ${COUNTED_INVOICE}
   GROUP BY currency_code
  UNION ALL
  SELECT k.part, NULL, sum(k.count)::int, 0, '0', '0'
    FROM organization_invoice_totals t
    CROSS JOIN LATERAL (VALUES ('failed', t.failed_count), ('incomplete', t.incomplete_count), ('outdated', t.outdated_count)) k(part, count)
   WHERE t.organization_id = $1::uuid
   GROUP BY k.part`;

// Alerts and claims. Pending and claimed alerts from the totals the alert triggers keep (every
// alert), minus the set-aside ones, found from the few ended matches and deleted invoices through
// their partial indexes; the recent parts from the alerts of the last 7 days (a partial covering
// index) and of the claims created in them.
const ALERT_AND_CLAIM_FIGURES = `
  WITH set_aside AS (${setAsideAlertsSql("a.status IN ('pending', 'claimed')")})
  SELECT status::text AS part, nullif(currency_code, '') AS currency_code, alert_count::int AS count, 0 AS recent_count, impact::text AS total, '0' AS recent
    FROM organization_alert_totals WHERE organization_id = $1::uuid AND status IN ('pending', 'claimed') AND alert_count > 0
  UNION ALL
  SELECT status::text, currency_code, -count(*)::int, 0, (-sum(impact_amount))::text, '0' FROM set_aside GROUP BY status, currency_code
  UNION ALL
  SELECT 'pending', a.currency_code, 0, count(*)::int, '0', sum(a.impact_amount)::text
    FROM alerts a WHERE a.organization_id = $1::uuid AND a.status = 'pending' AND a.created_at >= $2 AND ${VISIBLE_ALERT}
   GROUP BY a.currency_code
  UNION ALL
  SELECT 'claimed', a.currency_code, 0, 0, '0', sum(a.impact_amount)::text
    FROM claims c CROSS JOIN LATERAL (
      SELECT a.currency_code, a.impact_amount FROM alerts a WHERE a.claim_id = c.id AND a.status = 'claimed' AND ${VISIBLE_ALERT}) a
   WHERE c.organization_id = $1::uuid AND c.created_at >= $2
   GROUP BY a.currency_code
  UNION ALL
  SELECT 'open_claims', NULL, count(*)::int, count(*) FILTER (WHERE created_at >= $2)::int, '0', '0'
    FROM claims WHERE organization_id = $1::uuid AND status IN ('pending', 'in_progress')
  UNION ALL
  SELECT 'refunded', currency_code, count(*)::int, 0, sum(amount)::text, coalesce(sum(amount) FILTER (WHERE date >= $3::date), 0)::text
    FROM claim_refunds WHERE organization_id = $1::uuid
   GROUP BY currency_code`;

// Agreements: readiness computed once, then its counts, the soonest to expire, the not-ready ones
// holding back the most invoices (matched, not deleted) and the renewals due, as one row.
// With teams (scope), only the agreements they cover, and of their invoices only the covered ones.
function agreementFigures(
  org: string,
  today: string,
  expiringThrough: string,
  renewalThrough: string,
  scope: TeamScope | null,
): Prisma.Sql {
  const coveredAgreement = (alias: string) => (scope ? scopeCondition(scope, 'agreement', alias) : Prisma.sql`TRUE`);
  const coveredInvoice = scope
    ? Prisma.sql`EXISTS (SELECT 1 FROM invoices iv WHERE iv.id = m.invoice_id AND ${scopeCondition(scope, 'invoice', 'iv')})`
    : Prisma.sql`TRUE`;
  return Prisma.sql`
  WITH readiness AS MATERIALIZED (${readinessSql(org, coveredAgreement('a'))}),
  counts AS (
    SELECT count(*) FILTER (WHERE status = 'active')::int AS active,
           count(*) FILTER (WHERE status = 'active' AND expiration_date BETWEEN ${today}::date AND ${expiringThrough}::date)::int AS expiring,
           count(*) FILTER (WHERE ${Prisma.raw(NOT_READY)})::int AS not_ready,
           ${Prisma.raw(READINESS_GAPS.map((gap) => `count(*) FILTER (WHERE ${gap}_missing)::int AS ${gap}`).join(', '))}
      FROM readiness),
  soonest AS (
    SELECT id, title, expiration_date::text AS expiration_date FROM readiness
     WHERE status = 'active' AND expiration_date BETWEEN ${today}::date AND ${expiringThrough}::date
     ORDER BY expiration_date, id LIMIT ${Prisma.raw(String(EXPIRING_LISTED))}),
  held_back AS (
    SELECT r.id, r.title, ${Prisma.raw(READINESS_GAPS.map((gap) => `r.${gap}_missing`).join(', '))}, counted.invoices
      FROM readiness r
      CROSS JOIN LATERAL (
        SELECT count(*)::int AS invoices FROM invoice_agreement_matches m
         WHERE m.agreement_id = r.id AND m.active AND ${coveredInvoice}
           AND NOT EXISTS (SELECT 1 FROM invoices i WHERE i.id = m.invoice_id AND i.organization_id = ${org}::uuid AND i.deleted_at IS NOT NULL)) counted
     WHERE ${Prisma.raw(NOT_READY)} AND counted.invoices > 0
     ORDER BY counted.invoices DESC, r.id LIMIT ${Prisma.raw(String(NOT_READY_STEPS))})
  SELECT (SELECT row_to_json(counts) FROM counts) AS counts,
         (SELECT coalesce(json_agg(soonest ORDER BY expiration_date, id), '[]') FROM soonest) AS soonest,
         (SELECT coalesce(json_agg(held_back ORDER BY invoices DESC, id), '[]') FROM held_back) AS held_back,
         (SELECT count(*)::int FROM agreements WHERE organization_id = ${org}::uuid AND status = 'active' AND renewal_deadline <= ${renewalThrough}::date AND ${coveredAgreement('agreements')}) AS renewal_due`;
}

interface AgreementFigures {
  counts: Record<'active' | 'expiring' | 'not_ready' | Gap, number>;
  soonest: { id: string; title: string | null; expiration_date: string }[];
  held_back: ({ id: string; title: string | null; invoices: number } & Record<`${Gap}_missing`, boolean>)[];
  renewal_due: number;
}

// The team query of the request carried into the next steps' links, so a link lists the records
// its step counted.
function scopeSuffix(query: TeamScopeQuery): string {
  if (query.mine === true) return 'mine=true';
  if (query.team_ids) return `team_ids=${query.team_ids.join(',')}`;
  return '';
}

const withQuery = (link: string, suffix: string) =>
  suffix ? `${link}${link.includes('?') ? '&' : '?'}${suffix}` : link;

// With a team scope (mine / team_ids) every figure covers only what the teams cover; without one
// it comes from the trigger-kept totals.
export async function overview(
  deps: Deps,
  organizationId: string,
  scope: TeamScope | null = null,
  teamQuery: TeamScopeQuery = {},
  now = new Date(),
): Promise<Overview> {
  const since = new Date(now.getTime() - RECENT_DAYS * DAY_MS);
  const today = isoDay(now);
  // Calendar dates (refunds): today and the 6 days before it.
  const recentFrom = isoDay(new Date(now.getTime() - (RECENT_DAYS - 1) * DAY_MS));
  const expiringThrough = isoDay(new Date(now.getTime() + EXPIRING_WITHIN_DAYS * DAY_MS));
  const renewalThrough = isoDay(new Date(now.getTime() + RENEWAL_DUE_WITHIN_DAYS * DAY_MS));
  const db = deps.db;
  const org = organizationId;

  // Three independent statements side by side, each on its own pool connection.
  const [invoiceRows, alertAndClaimRows, [agreements]] = await Promise.all([
    scope
      ? db.$queryRaw<FigureRow[]>(scopedInvoiceFigures(scope, since))
      : db.$queryRawUnsafe<FigureRow[]>(INVOICE_FIGURES, org, since),
    scope
      ? db.$queryRaw<FigureRow[]>(scopedAlertAndClaimFigures(scope, since, recentFrom))
      : db.$queryRawUnsafe<FigureRow[]>(ALERT_AND_CLAIM_FIGURES, org, since, recentFrom),
    db.$queryRaw<AgreementFigures[]>(agreementFigures(org, today, expiringThrough, renewalThrough, scope)),
  ]);
  const figure = figuresOf([...invoiceRows, ...alertAndClaimRows]);
  const { counts, soonest, held_back: notReady, renewal_due: renewalDue } = agreements!;

  const spend = figure('spend');
  const pending = figure('pending');
  const openClaims = figure('open_claims');
  const failed = figure('failed').count;
  const incomplete = figure('incomplete').count;
  const outdated = figure('outdated').count;

  const suffix = scopeSuffix(teamQuery);
  const steps: NextStep[] = [];
  for (const agreement of notReady) {
    const gaps = GAP_ORDER.filter((gap) => agreement[`${gap}_missing`]);
    const name = agreement.title ? `"${agreement.title}"` : 'without a title';
    steps.push({
      kind: 'agreement_not_ready',
      message: `${plural(agreement.invoices, 'invoice')} could not be checked: agreement ${name} ${gaps.map((gap) => GAP_REASON[gap]).join(' and ')}`,
      count: agreement.invoices,
      link: withQuery(`/v1/invoices?agreement_ids=${agreement.id}`, suffix),
      agreement_id: agreement.id,
    });
  }
  const step = (kind: NextStep['kind'], n: number, message: string, link: string) => {
    if (n > 0) steps.push({ kind, message, count: n, link: withQuery(link, suffix), agreement_id: null });
  };
  step(
    'review_alerts',
    pending.count,
    `${plural(pending.count, 'alert')} ${pending.count === 1 ? 'waits' : 'wait'} for review`,
    '/v1/alerts?statuses=pending',
  );
  step(
    'failed_invoices',
    failed,
    `${plural(failed, 'invoice')} could not be read`,
    '/v1/invoices?processing_statuses=failed',
  );
  step(
    'incomplete_checks',
    incomplete,
    `${plural(incomplete, 'invoice')} could not be checked completely`,
    '/v1/invoices?check_statuses=incomplete',
  );
  step(
    'outdated_checks',
    outdated,
    `${plural(outdated, 'invoice')} changed, or ${outdated === 1 ? 'its' : 'their'} agreement did, since the last check`,
    '/v1/invoices?check_statuses=outdated',
  );
  step(
    'renewal_due',
    renewalDue,
    `${plural(renewalDue, 'agreement')} must be renewed or cancelled by ${renewalThrough}`,
    `/v1/agreements?statuses=active&renewal_deadline_through=${renewalThrough}`,
  );

  return {
    recent_since: since.toISOString(),
    // Invoices without a currency count, but in no spend entry.
    invoices: {
      count: spend.count,
      recent_count: spend.recentCount,
      spend: moneyOf(spend).filter((m) => m.currency_code !== null),
    },
    alerts: { open_count: pending.count, recent_open_count: pending.recentCount, impact: moneyOf(pending) },
    claims: {
      open_count: openClaims.count,
      recent_open_count: openClaims.recentCount,
      claimed: moneyOf(figure('claimed')),
      refunded: moneyOf(figure('refunded')),
    },
    agreements: {
      active_count: counts.active,
      expiring_soon: { count: counts.expiring, within_days: EXPIRING_WITHIN_DAYS, soonest },
      not_ready: {
        count: counts.not_ready,
        missing: Object.fromEntries(READINESS_GAPS.map((gap) => [gap, counts[gap]])) as Record<Gap, number>,
      },
    },
    next_steps: steps,
  };
}
