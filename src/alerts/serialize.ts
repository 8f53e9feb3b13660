import type { Db, RawReader } from '../db/client.js';
import type { Alert } from '../generated/prisma/client.js';
import { formatAmount } from '../shared/money.js';

// What an alert is read with: its match (set aside or not) and the invoice's supplier and currency.
export const ALERT_INCLUDE = {
  match: { select: { active: true, invoice: { select: { supplierId: true, currencyCode: true, deletedAt: true } } } },
  claim: { select: { status: true } },
} as const;

export type AlertWithMatch = Alert & {
  match: { active: boolean; invoice: { supplierId: string | null; currencyCode: string | null; deletedAt: Date | null } };
  claim: { status: ClaimStatus } | null;
};

type ClaimStatus = 'pending' | 'in_progress' | 'completed' | 'cancelled';

// ALERT_INCLUDE for a page of alerts in one statement (Prisma's include takes two more: the
// matches, then their invoices).
export async function withMatches(db: RawReader, alerts: Alert[]): Promise<AlertWithMatch[]> {
  if (alerts.length === 0) return [];
  const rows = await db.$queryRaw<{ invoiceId: string; agreementId: string; active: boolean; supplierId: string | null; currencyCode: string | null; deletedAt: Date | null }[]>`
    SELECT m.invoice_id::text AS "invoiceId", m.agreement_id::text AS "agreementId", m.active AS "active",
           i.supplier_id::text AS "supplierId", i.currency_code AS "currencyCode", i.deleted_at AS "deletedAt"
      FROM unnest(${alerts.map((a) => a.invoiceId)}::uuid[], ${alerts.map((a) => a.agreementId)}::uuid[]) AS pair(invoice_id, agreement_id)
      JOIN invoice_agreement_matches m ON m.invoice_id = pair.invoice_id AND m.agreement_id = pair.agreement_id
      JOIN invoices i ON i.id = m.invoice_id`;
  const matches = new Map(rows.map((row) => [`${row.invoiceId}:${row.agreementId}`, row]));
  const claimIds = [...new Set(alerts.map((a) => a.claimId).filter((id): id is string => id !== null))];
  const claims = claimIds.length === 0 ? [] : await db.$queryRaw<{ id: string; status: ClaimStatus }[]>`
    SELECT id::text AS "id", status::text AS "status" FROM claims WHERE id = ANY(${claimIds}::uuid[])`;
  const claimStatus = new Map(claims.map((claim) => [claim.id, claim.status]));
  return alerts.map((alert) => {
    // Every alert has its match (a foreign key); a match removed meanwhile took the alert with it.
    const match = matches.get(`${alert.invoiceId}:${alert.agreementId}`);
    return {
      ...alert,
      match: {
        active: match?.active ?? false,
        invoice: { supplierId: match?.supplierId ?? null, currencyCode: match?.currencyCode ?? null, deletedAt: match?.deletedAt ?? null },
      },
      claim: alert.claimId && claimStatus.has(alert.claimId) ? { status: claimStatus.get(alert.claimId)! } : null,
    };
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
    dismissal: alert.dismissedAt ? { category: alert.dismissalCategory, note: alert.dismissalNote, dismissed_at: alert.dismissedAt.toISOString() } : null,
    credit: alert.creditedAt && alert.creditedBy ? { credited_by: alert.creditedBy, credited_at: alert.creditedAt.toISOString() } : null,
    created_at: alert.createdAt.toISOString(),
    updated_at: alert.updatedAt.toISOString(),
  };
}

export type AlertView = ReturnType<typeof serializeAlert>;
