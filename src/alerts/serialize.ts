import { modelAndExtras, Prisma, type RawReader } from '../db/client.js';
import type { Alert } from '../generated/prisma/client.js';
import { formatAmount } from '../shared/money.js';

// What an alert is read with: its match (set aside or not) and the invoice's supplier and currency.
export const ALERT_INCLUDE = {
  match: { select: { active: true, invoice: { select: { supplierId: true, currencyCode: true, deletedAt: true } } } },
  claim: { select: { status: true } },
} as const;

export type AlertWithMatch = Alert & {
  match: {
    active: boolean;
    invoice: { supplierId: string | null; currencyCode: string | null; deletedAt: Date | null };
  };
  claim: { status: ClaimStatus } | null;
};

type ClaimStatus = 'pending' | 'in_progress' | 'completed' | 'cancelled';

interface MatchColumns {
  matchActive: boolean | null;
  matchSupplierId: string | null;
  matchCurrencyCode: string | null;
  matchDeletedAt: Date | null;
  claimStatus: ClaimStatus | null;
}
const MATCH_COLUMNS: ReadonlySet<string> = new Set([
  'matchActive',
  'matchSupplierId',
  'matchCurrencyCode',
  'matchDeletedAt',
  'claimStatus',
] satisfies (keyof MatchColumns)[]);

// Alerts with what ALERT_INCLUDE reads, in one statement (Prisma's include takes two more): those
// of `where` (SQL over alerts `a`), in `orderBy`, at most `limit` (a list page). Each alert's
// match and claim are looked up per alert (a lateral subquery kept apart by OFFSET 0, a scalar
// subquery): joined, PostgreSQL spent longer planning the join orders than reading a page (docs/benchmarks.md).
export async function readAlertsWithMatches(
  reader: RawReader,
  where: Prisma.Sql,
  orderBy: Prisma.Sql,
  limit: number,
): Promise<AlertWithMatch[]> {
  const rows = await reader.$queryRaw<Record<string, unknown>[]>`
    SELECT a.*, match."matchActive", match."matchSupplierId", match."matchCurrencyCode", match."matchDeletedAt",
           (SELECT c.status::text FROM claims c WHERE c.id = a.claim_id) AS "claimStatus"
      FROM (SELECT * FROM alerts a WHERE ${where} ORDER BY ${orderBy} LIMIT ${limit}) a
      LEFT JOIN LATERAL (
        SELECT m.active AS "matchActive", i.supplier_id::text AS "matchSupplierId", i.currency_code AS "matchCurrencyCode",
               i.deleted_at AS "matchDeletedAt"
          FROM invoice_agreement_matches m JOIN invoices i ON i.id = m.invoice_id
         WHERE m.invoice_id = a.invoice_id AND m.agreement_id = a.agreement_id
        OFFSET 0) match ON TRUE
     ORDER BY ${orderBy}`;
  return rows.map((row) => {
    const [alert, match] = modelAndExtras<AlertWithMatch, MatchColumns>(row, MATCH_COLUMNS);
    alert.match = {
      active: match.matchActive ?? false,
      invoice: {
        supplierId: match.matchSupplierId,
        currencyCode: match.matchCurrencyCode,
        deletedAt: match.matchDeletedAt,
      },
    };
    alert.claim = match.claimStatus ? { status: match.claimStatus } : null;
    return alert;
  });
}

export function serializeAlert(alert: AlertWithMatch) {
  return {
    id: alert.id,
    status: alert.status,
    invoice_id: alert.invoiceId,
    agreement_id: alert.agreementId,
    supplier_id: alert.match.invoice.supplierId,
    title: alert.title,
    explanation: alert.explanation,
    impact_amount: formatAmount(alert.impactAmount)!,
    currency_code: alert.currencyCode ?? alert.match.invoice.currencyCode,
    expected: (alert.expected as unknown[] | null) ?? null,
    confidence: { level: alert.confidenceLevel },
    citations: (alert.citations as unknown[] | null) ?? [],
    invoice_item_id: alert.invoiceLineId,
    correction_type: alert.correctionType,
    topic_id: alert.topicId,
    claim_id: alert.claimId,
    // Left out of lists and totals: the match ended (or the invoice was deleted).
    set_aside: !alert.match.active || alert.match.invoice.deletedAt !== null,
    provenance: {
      origin: alert.origin as 'check' | 'user' | 'api_key',
      user_id: alert.createdByUserId,
      api_key_id: alert.createdByApiKeyId,
      check_id: alert.checkId,
      checker: alert.checker,
    },
    dismissal: alert.dismissedAt
      ? { category: alert.dismissalCategory, note: alert.dismissalNote, dismissed_at: alert.dismissedAt.toISOString() }
      : null,
    credit:
      alert.creditedAt && alert.creditedBy
        ? { credited_by: alert.creditedBy, credited_at: alert.creditedAt.toISOString() }
        : null,
    created_at: alert.createdAt.toISOString(),
    updated_at: alert.updatedAt.toISOString(),
  };
}

export type AlertView = ReturnType<typeof serializeAlert>;
