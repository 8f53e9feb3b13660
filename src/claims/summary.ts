import { visibleAlertSql } from '../alerts/filters.js';
import type { AppDeps } from '../deps.js';
import { Prisma } from '../db/client.js';
import { formatAmount } from '../shared/money.js';
import {
  CLAIM_INCLUDE,
  EMPTY_SUMMARY,
  serializeClaim,
  type ClaimRecord,
  type ClaimSummary,
  type ClaimView,
  type Money,
} from './serialize.js';

type Deps = Pick<AppDeps, 'db'>;
type ViewDeps = Pick<AppDeps, 'db' | 'config'>;
type AlertStatusKey = 'pending' | 'claimed' | 'credited' | 'dismissed';

// The alerts a claim's totals count: set-aside ones (invoice no longer matched, or deleted) are
// left out, as from every other total.
export const countedAlertsWhere: Prisma.AlertWhereInput = { match: { active: true, invoice: { deletedAt: null } } };
// The same rule in SQL over the alert row `a`: the absence of the few ended matches and deleted
// invoices, rather than an active match and a live invoice probed for each alert of the claims.
export const VISIBLE_ALERT = Prisma.raw(visibleAlertSql('a'));

const byCurrency = (a: { currency_code: string | null }, b: { currency_code: string | null }) =>
  (a.currency_code ?? '').localeCompare(b.currency_code ?? '');

// Alert counts and impact per alert status and currency, and refunds per currency, for many
// claims in two grouped queries (money summed in PostgreSQL numeric, never across currencies).
export async function summariesOf(
  deps: Deps,
  claimIds: string[],
): Promise<Map<string, { summary: ClaimSummary; refunds: Money[] }>> {
  const result = new Map<string, { summary: ClaimSummary; refunds: Money[] }>();
  if (claimIds.length === 0) return result;
  // Raw SQL: the set-aside rule as anti-joins (Prisma's relation filters become slow subqueries),
  // the claim ids as one array parameter.
  const [alertRows, refundRows] = await Promise.all([
    deps.db.$queryRaw<
      { claim_id: string; status: AlertStatusKey; currency_code: string | null; count: number; amount: string }[]
    >`
      SELECT a.claim_id::text, a.status::text AS status, a.currency_code, count(*)::int AS count, sum(a.impact_amount)::text AS amount
        FROM alerts a
       WHERE a.claim_id = ANY(${claimIds}::uuid[]) AND ${VISIBLE_ALERT}
       GROUP BY 1, 2, 3`,
    deps.db.$queryRaw<{ claim_id: string; currency_code: string; amount: string }[]>`
      SELECT claim_id::text, currency_code, sum(amount)::text AS amount FROM claim_refunds WHERE claim_id = ANY(${claimIds}::uuid[]) GROUP BY 1, 2`,
  ]);
  for (const id of claimIds) result.set(id, { summary: structuredClone(EMPTY_SUMMARY), refunds: [] });
  for (const row of alertRows) {
    const { summary } = result.get(row.claim_id)!;
    summary.counts[row.status] += row.count;
    summary.counts.total += row.count;
    summary[row.status].push({ currency_code: row.currency_code, amount: formatAmount(row.amount)! });
  }
  for (const row of refundRows)
    result.get(row.claim_id)!.refunds.push({ currency_code: row.currency_code, amount: formatAmount(row.amount)! });
  for (const { summary, refunds } of result.values()) {
    for (const status of ['pending', 'claimed', 'credited', 'dismissed'] as const) summary[status].sort(byCurrency);
    refunds.sort(byCurrency);
  }
  return result;
}

export async function serializeClaims(deps: ViewDeps, claims: ClaimRecord[]): Promise<ClaimView[]> {
  const summaries = await summariesOf(
    deps,
    claims.map((claim) => claim.id),
  );
  return claims.map((claim) => {
    const totals = summaries.get(claim.id)!;
    return serializeClaim(claim, totals.summary, totals.refunds, deps.config.APP_BASE_URL);
  });
}

export async function claimView(deps: ViewDeps, claimId: string): Promise<ClaimView> {
  const claim = await deps.db.claim.findUniqueOrThrow({ where: { id: claimId }, include: CLAIM_INCLUDE });
  return (await serializeClaims(deps, [claim]))[0]!;
}
