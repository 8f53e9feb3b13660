import type { Claim, ClaimRefund } from '../generated/prisma/client.js';
import { formatAmount } from '../shared/money.js';

// What a claim is read with; its alert summary and refund totals are computed in bulk
// (src/claims/summary.ts) so a page of claims costs a fixed number of queries.
export const CLAIM_INCLUDE = {
  refunds: { orderBy: [{ date: 'asc' as const }, { createdAt: 'asc' as const }, { id: 'asc' as const }] },
  creditNotes: {
    orderBy: [{ createdAt: 'asc' as const }, { invoiceId: 'asc' as const }],
    include: {
      invoice: {
        select: {
          invoiceNumber: true,
          issueDate: true,
          taxInclusiveAmount: true,
          payableAmount: true,
          currencyCode: true,
        },
      },
    },
  },
};

export type ClaimRecord = Claim & {
  refunds: ClaimRefund[];
  creditNotes: {
    invoiceId: string;
    attachedByUserId: string | null;
    attachedByApiKeyId: string | null;
    createdAt: Date;
    invoice: {
      invoiceNumber: string | null;
      issueDate: Date | null;
      taxInclusiveAmount: { toString(): string } | null;
      payableAmount: { toString(): string } | null;
      currencyCode: string | null;
    };
  }[];
};

export interface Money {
  currency_code: string | null;
  amount: string;
}

export interface ClaimSummary {
  counts: { total: number; pending: number; claimed: number; credited: number; dismissed: number };
  pending: Money[];
  claimed: Money[];
  credited: Money[];
  dismissed: Money[];
}

export const EMPTY_SUMMARY: ClaimSummary = {
  counts: { total: 0, pending: 0, claimed: 0, credited: 0, dismissed: 0 },
  pending: [],
  claimed: [],
  credited: [],
  dismissed: [],
};

// Absolute under APP_BASE_URL, like an invoice's url.
export const claimUrl = (appBaseUrl: string, id: string) => `${appBaseUrl.replace(/\/$/, '')}/claims/${id}`;
const isoDate = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : null);

export function serializeRefund(refund: ClaimRefund) {
  return {
    id: refund.id,
    amount: formatAmount(refund.amount)!,
    currency_code: refund.currencyCode,
    date: isoDate(refund.date)!,
    reference: refund.reference,
    note: refund.note,
    credit_note_invoice_id: refund.creditNoteInvoiceId,
    recorded_by: { user_id: refund.recordedByUserId, api_key_id: refund.recordedByApiKeyId },
    created_at: refund.createdAt.toISOString(),
    updated_at: refund.updatedAt.toISOString(),
  };
}

// A credit note's total including VAT, as a positive amount (credit notes record it either way).
export function creditNoteAmount(invoice: {
  taxInclusiveAmount: { toString(): string } | null;
  payableAmount: { toString(): string } | null;
}): string | null {
  const total = formatAmount(invoice.taxInclusiveAmount ?? invoice.payableAmount);
  return total === null ? null : total.replace(/^-/, '');
}

export function serializeClaim(claim: ClaimRecord, summary: ClaimSummary, refundSummary: Money[], appBaseUrl: string) {
  const contact =
    claim.supplierContactName !== null || claim.supplierContactEmail !== null
      ? { name: claim.supplierContactName, email: claim.supplierContactEmail }
      : null;
  return {
    id: claim.id,
    agreement_id: claim.agreementId,
    supplier_id: claim.supplierId,
    reference: claim.reference,
    title: claim.title,
    status: claim.status,
    supplier_contact: contact,
    note: claim.note,
    summary,
    refund_summary: refundSummary,
    refunds: claim.refunds.map(serializeRefund),
    credit_notes: claim.creditNotes.map((link) => ({
      invoice_id: link.invoiceId,
      invoice_number: link.invoice.invoiceNumber,
      issue_date: isoDate(link.invoice.issueDate),
      amount: creditNoteAmount(link.invoice),
      currency_code: link.invoice.currencyCode,
      attached_by: { user_id: link.attachedByUserId, api_key_id: link.attachedByApiKeyId },
      attached_at: link.createdAt.toISOString(),
    })),
    created_by: { user_id: claim.createdByUserId, api_key_id: claim.createdByApiKeyId },
    created_at: claim.createdAt.toISOString(),
    updated_at: claim.updatedAt.toISOString(),
    completed_at: claim.completedAt?.toISOString() ?? null,
    cancelled_at: claim.cancelledAt?.toISOString() ?? null,
    url: claimUrl(appBaseUrl, claim.id),
  };
}

export type ClaimView = ReturnType<typeof serializeClaim>;
