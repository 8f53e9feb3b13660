import type { AppDeps } from '../deps.js';
import { formatAmount, sum } from '../shared/money.js';
import { CLAIM_STATUSES, type ClaimFilter, type ClaimStatus } from './schemas.js';
import type { ClaimRecord } from './serialize.js';
import { claimWhere } from './service.js';
import { countedAlertsWhere } from './summary.js';

type Deps = Pick<AppDeps, 'db'>;

// Presigned download links live this long: long enough to click, short enough not to share.
export const DOWNLOAD_LINK_SECONDS = 15 * 60;

interface Row {
  claimId: string;
  currencyCode: string | null;
  amount: { toString(): string } | null;
}

// Sums per currency and claim status; never added across currencies.
function perCurrency(rows: Row[], statusOf: Map<string, ClaimStatus>) {
  const currencies = [...new Set(rows.map((r) => r.currencyCode))].sort((a, b) => (a ?? '').localeCompare(b ?? ''));
  return currencies.map((currency) => {
    const ofCurrency = rows.filter((r) => r.currencyCode === currency);
    const entry: Record<string, string | null> = { currency_code: currency, total: formatAmount(sum(ofCurrency.map((r) => r.amount)))! };
    for (const status of CLAIM_STATUSES) entry[status] = formatAmount(sum(ofCurrency.filter((r) => statusOf.get(r.claimId) === status).map((r) => r.amount)))!;
    return entry as { currency_code: string | null; total: string } & Record<ClaimStatus, string>;
  });
}

export async function claimMetrics(deps: Deps, organizationId: string, filter: ClaimFilter, refunded: { from?: string; through?: string }) {
  const where = claimWhere(organizationId, filter);
  const dateRange = refunded.from || refunded.through
    ? { date: { ...(refunded.from ? { gte: new Date(`${refunded.from}T00:00:00Z`) } : {}), ...(refunded.through ? { lte: new Date(`${refunded.through}T00:00:00Z`) } : {}) } }
    : {};
  const [claims, claimed, refunds] = await Promise.all([
    deps.db.claim.findMany({ where, select: { id: true, status: true } }),
    deps.db.alert.groupBy({ by: ['claimId', 'currencyCode'], where: { status: 'claimed', claim: where, ...countedAlertsWhere }, _sum: { impactAmount: true } }),
    deps.db.claimRefund.groupBy({ by: ['claimId', 'currencyCode'], where: { claim: where, ...dateRange }, _sum: { amount: true } }),
  ]);
  const statusOf = new Map(claims.map((c) => [c.id, c.status as ClaimStatus]));
  const counts = { total: claims.length, pending: 0, in_progress: 0, completed: 0, cancelled: 0 };
  for (const claim of claims) counts[claim.status as ClaimStatus] += 1;
  return {
    counts,
    claimed: perCurrency(claimed.map((r) => ({ claimId: r.claimId!, currencyCode: r.currencyCode, amount: r._sum.impactAmount })), statusOf),
    refund_summary: perCurrency(refunds.map((r) => ({ claimId: r.claimId, currencyCode: r.currencyCode, amount: r._sum.amount })), statusOf),
  };
}

type DocumentRole = 'invoice' | 'invoice_attachment' | 'credit_note' | 'credit_note_attachment';

// The files behind a claim: each of its alerts' invoices (original and attachments) and each
// attached credit note's, with presigned GET links. Invoices created as data have no file.
export async function claimDocuments(deps: Pick<AppDeps, 'db' | 'storage'>, claim: ClaimRecord) {
  const alertInvoices = await deps.db.alert.findMany({ where: { claimId: claim.id, ...countedAlertsWhere }, select: { invoiceId: true }, distinct: ['invoiceId'] });
  const invoiceIds = alertInvoices.map((a) => a.invoiceId);
  const creditNoteIds = claim.creditNotes.map((c) => c.invoiceId);
  const invoices = await deps.db.invoice.findMany({
    where: { organizationId: claim.organizationId, id: { in: [...invoiceIds, ...creditNoteIds] }, deletedAt: null },
    select: { id: true, invoiceNumber: true, issueDate: true, primaryDocumentId: true, attachmentDocumentIds: true },
    orderBy: [{ issueDate: 'asc' }, { invoiceNumber: 'asc' }, { id: 'asc' }],
  });
  const creditNotes = new Set(creditNoteIds);
  const wanted: { documentId: string; role: DocumentRole; invoice: (typeof invoices)[number] }[] = [];
  for (const invoice of invoices) {
    const isCreditNote = creditNotes.has(invoice.id);
    if (invoice.primaryDocumentId) wanted.push({ documentId: invoice.primaryDocumentId, role: isCreditNote ? 'credit_note' : 'invoice', invoice });
    for (const id of invoice.attachmentDocumentIds) wanted.push({ documentId: id, role: isCreditNote ? 'credit_note_attachment' : 'invoice_attachment', invoice });
  }
  const documents = await deps.db.document.findMany({ where: { organizationId: claim.organizationId, id: { in: wanted.map((w) => w.documentId) } } });
  const byId = new Map(documents.map((d) => [d.id, d]));
  const data = [];
  for (const entry of wanted) {
    const document = byId.get(entry.documentId);
    if (!document) continue;
    const link = await deps.storage.presignDownload(document.storageKey, document.fileName, DOWNLOAD_LINK_SECONDS);
    data.push({
      document_id: document.id,
      role: entry.role,
      invoice_id: entry.invoice.id,
      invoice_number: entry.invoice.invoiceNumber,
      file_name: document.fileName,
      mime_type: document.mimeType,
      file_size: document.fileSize,
      download_url: link.url,
      expires_at: link.expiresAt.toISOString(),
    });
  }
  return data;
}
