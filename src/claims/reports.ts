import type { AppDeps } from '../deps.js';
import type { Prisma } from '../generated/prisma/client.js';
import { formatAmount, sum } from '../shared/money.js';
import { CLAIM_STATUSES, type ClaimFilter, type ClaimStatus } from './schemas.js';
import type { ClaimRecord } from './serialize.js';
import { claimWhere } from './service.js';
import { countedAlertsWhere } from './summary.js';

type Deps = Pick<AppDeps, 'db'>;

// Presigned download links live this long: long enough to click, short enough not to share.
export const DOWNLOAD_LINK_SECONDS = 15 * 60;

type Amounts = { currency_code: string | null; total: string } & Record<ClaimStatus, string>;

// Per currency, one sum per claim status and their total; never added across currencies.
function perCurrency(byStatus: Map<ClaimStatus, { currencyCode: string | null; amount: Prisma.Decimal | null }[]>): Amounts[] {
  const currencies = new Set<string | null>();
  for (const rows of byStatus.values()) for (const row of rows) currencies.add(row.currencyCode);
  return [...currencies]
    .sort((a, b) => (a ?? '').localeCompare(b ?? ''))
    .map((currency) => {
      const entry: Record<string, string | null> = { currency_code: currency };
      const amounts = CLAIM_STATUSES.map((status) => sum((byStatus.get(status) ?? []).filter((r) => r.currencyCode === currency).map((r) => r.amount)));
      CLAIM_STATUSES.forEach((status, index) => (entry[status] = formatAmount(amounts[index]!)));
      entry.total = formatAmount(sum(amounts));
      return entry as Amounts;
    });
}

// A fixed number of grouped queries whatever the number of claims: counts per status, and per
// claim status the claimed impact and the refunds, each grouped by currency in PostgreSQL.
export async function claimMetrics(deps: Deps, organizationId: string, filter: ClaimFilter, refunded: { from?: string; through?: string }) {
  const where = claimWhere(organizationId, filter);
  const dateRange = refunded.from || refunded.through
    ? { date: { ...(refunded.from ? { gte: new Date(`${refunded.from}T00:00:00Z`) } : {}), ...(refunded.through ? { lte: new Date(`${refunded.through}T00:00:00Z`) } : {}) } }
    : {};
  const ofStatus = (status: ClaimStatus): Prisma.ClaimWhereInput => ({ AND: [where, { status }] });
  const [statusCounts, claimed, refunds] = await Promise.all([
    deps.db.claim.groupBy({ by: ['status'], where, _count: { _all: true } }),
    Promise.all(
      CLAIM_STATUSES.map((status) =>
        deps.db.alert.groupBy({ by: ['currencyCode'], where: { status: 'claimed', claim: ofStatus(status), ...countedAlertsWhere }, _sum: { impactAmount: true } }),
      ),
    ),
    Promise.all(CLAIM_STATUSES.map((status) => deps.db.claimRefund.groupBy({ by: ['currencyCode'], where: { claim: ofStatus(status), ...dateRange }, _sum: { amount: true } }))),
  ]);
  const counts = { total: 0, pending: 0, in_progress: 0, completed: 0, cancelled: 0 };
  for (const row of statusCounts) {
    counts[row.status as ClaimStatus] += row._count._all;
    counts.total += row._count._all;
  }
  return {
    counts,
    claimed: perCurrency(new Map(CLAIM_STATUSES.map((status, i) => [status, claimed[i]!.map((r) => ({ currencyCode: r.currencyCode, amount: r._sum.impactAmount }))]))),
    refund_summary: perCurrency(new Map(CLAIM_STATUSES.map((status, i) => [status, refunds[i]!.map((r) => ({ currencyCode: r.currencyCode, amount: r._sum.amount }))]))),
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
