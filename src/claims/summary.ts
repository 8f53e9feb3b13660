import type { AppDeps } from '../deps.js';
import type { Prisma } from '../generated/prisma/client.js';
import { formatAmount, sum } from '../shared/money.js';
import { CLAIM_INCLUDE, EMPTY_SUMMARY, serializeClaim, type ClaimRecord, type ClaimSummary, type ClaimView, type Money } from './serialize.js';

type Deps = Pick<AppDeps, 'db'>;
type AlertStatusKey = 'pending' | 'claimed' | 'credited' | 'dismissed';

// The alerts a claim's totals count: set-aside ones (invoice no longer matched, or deleted) are
// left out, as from every other total.
export const countedAlertsWhere: Prisma.AlertWhereInput = { match: { active: true, invoice: { deletedAt: null } } };

const byCurrency = (a: { currency_code: string | null }, b: { currency_code: string | null }) => (a.currency_code ?? '').localeCompare(b.currency_code ?? '');

// Alert counts and impact per alert status and currency, and refunds per currency, for many
// claims in two grouped queries (money summed in PostgreSQL numeric, never across currencies).
export async function summariesOf(deps: Deps, claimIds: string[]): Promise<Map<string, { summary: ClaimSummary; refunds: Money[] }>> {
  const result = new Map<string, { summary: ClaimSummary; refunds: Money[] }>();
  if (claimIds.length === 0) return result;
  const [alertRows, refundRows] = await Promise.all([
    deps.db.alert.groupBy({
      by: ['claimId', 'status', 'currencyCode'],
      where: { claimId: { in: claimIds }, ...countedAlertsWhere },
      _count: { _all: true },
      _sum: { impactAmount: true },
    }),
    deps.db.claimRefund.groupBy({ by: ['claimId', 'currencyCode'], where: { claimId: { in: claimIds } }, _sum: { amount: true } }),
  ]);
  for (const id of claimIds) result.set(id, { summary: structuredClone(EMPTY_SUMMARY), refunds: [] });
  for (const row of alertRows) {
    const { summary } = result.get(row.claimId!)!;
    const status = row.status as AlertStatusKey;
    summary.counts[status] += row._count._all;
    summary.counts.total += row._count._all;
    summary[status].push({ currency_code: row.currencyCode, amount: formatAmount(sum([row._sum.impactAmount]))! });
  }
  for (const row of refundRows) result.get(row.claimId)!.refunds.push({ currency_code: row.currencyCode, amount: formatAmount(sum([row._sum.amount]))! });
  for (const { summary, refunds } of result.values()) {
    for (const status of ['pending', 'claimed', 'credited', 'dismissed'] as const) summary[status].sort(byCurrency);
    refunds.sort(byCurrency);
  }
  return result;
}

export async function serializeClaims(deps: Deps, claims: ClaimRecord[]): Promise<ClaimView[]> {
  const summaries = await summariesOf(deps, claims.map((claim) => claim.id));
  return claims.map((claim) => {
    const totals = summaries.get(claim.id)!;
    return serializeClaim(claim, totals.summary, totals.refunds);
  });
}

export async function claimView(deps: Deps, claimId: string): Promise<ClaimView> {
  const claim = await deps.db.claim.findUniqueOrThrow({ where: { id: claimId }, include: CLAIM_INCLUDE });
  return (await serializeClaims(deps, [claim]))[0]!;
}
