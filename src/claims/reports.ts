import { Prisma } from '../db/client.js';
import { coveredIds, type TeamScope } from '../teams/scope.js';
import { inBatches } from '../shared/batches.js';
import { pageOfRanked, type PageRequest, type Rank } from '../http/pagination.js';
import type { AppDeps } from '../deps.js';
import { formatAmount, sum } from '../shared/money.js';
import { CLAIM_STATUSES, type ClaimFilter, type ClaimStatus } from './schemas.js';
import type { ClaimRecord } from './serialize.js';
import { claimWhere } from './list.js';
import { countedAlertsWhere, VISIBLE_ALERT } from './summary.js';

type Deps = Pick<AppDeps, 'db'>;

// Presigned download links live this long: long enough to click, short enough not to share.
export const DOWNLOAD_LINK_SECONDS = 15 * 60;

type Amounts = { currency_code: string | null; total: string } & Record<ClaimStatus, string>;
type StatusSum = { status: ClaimStatus; currency_code: string | null; amount: string };

// Per currency, one sum per claim status and their total; never added across currencies.
function perCurrency(rows: StatusSum[]): Amounts[] {
  const currencies = [...new Set(rows.map((r) => r.currency_code))].sort((a, b) => (a ?? '').localeCompare(b ?? ''));
  return currencies.map((currency) => {
    const ofCurrency = rows.filter((r) => r.currency_code === currency);
    const entry: Record<string, string | null> = {
      currency_code: currency,
      total: formatAmount(sum(ofCurrency.map((r) => r.amount))),
    };
    for (const status of CLAIM_STATUSES)
      entry[status] = formatAmount(sum(ofCurrency.filter((r) => r.status === status).map((r) => r.amount)));
    return entry as Amounts;
  });
}

// The filtered claims (one small row each); a team scope keeps the ones it covers, in one
// statement over the id array.
async function filteredClaims(deps: Deps, organizationId: string, filter: ClaimFilter, scope: TeamScope | null) {
  const listed = await deps.db.claim.findMany({
    where: claimWhere(organizationId, filter),
    select: { id: true, status: true },
  });
  if (!scope) return listed;
  const covered = await coveredIds(
    deps.db,
    scope,
    'claim',
    listed.map((c) => c.id),
  );
  return listed.filter((c) => covered.has(c.id));
}

type RefundDates = { from?: string; through?: string };

// The refunds `r` dated within the dates given (inclusive; either may be left out).
function refundDatedSql({ from, through }: RefundDates): Prisma.Sql {
  return Prisma.sql`(${from ?? null}::date IS NULL OR r.date >= ${from ?? null}::date)
       AND (${through ?? null}::date IS NULL OR r.date <= ${through ?? null}::date)`;
}

// The filtered claims' ids, then one statement of two grouped sums over them: the claimed impact
// and the refunds per claim status and currency, summed in PostgreSQL numeric.
export async function claimMetrics(
  deps: Deps,
  organizationId: string,
  filter: ClaimFilter,
  refunded: RefundDates,
  scope: TeamScope | null = null,
) {
  const claims = await filteredClaims(deps, organizationId, filter, scope);
  const ids = claims.map((c) => c.id);
  // Both sums in one statement (one round trip).
  const sums = await deps.db.$queryRaw<(StatusSum & { kind: 'claimed' | 'refunded' })[]>`
    SELECT 'claimed' AS kind, c.status::text AS status, a.currency_code, sum(a.impact_amount)::text AS amount
      FROM alerts a
      JOIN claims c ON c.id = a.claim_id
     WHERE a.claim_id = ANY(${ids}::uuid[]) AND a.status = 'claimed' AND ${VISIBLE_ALERT}
     GROUP BY 1, 2, 3
    UNION ALL
    SELECT 'refunded', c.status::text, r.currency_code, sum(r.amount)::text
      FROM claim_refunds r
      JOIN claims c ON c.id = r.claim_id
     WHERE r.claim_id = ANY(${ids}::uuid[])
       AND ${refundDatedSql(refunded)}
     GROUP BY 1, 2, 3`;
  const claimed = sums.filter((row) => row.kind === 'claimed');
  const refunds = sums.filter((row) => row.kind === 'refunded');
  const counts = { total: claims.length, pending: 0, in_progress: 0, completed: 0, cancelled: 0 };
  for (const claim of claims) counts[claim.status] += 1;
  return { counts, claimed: perCurrency(claimed), refund_summary: perCurrency(refunds) };
}

// The filtered claims' refunds per calendar month of their date and currency (the overview's
// "recovered" chart: a year of months in one statement, rather than the claim metrics once per
// month, each summing every claimed alert again). Months without refunds are left out.
export async function refundsByMonth(
  deps: Deps,
  organizationId: string,
  filter: ClaimFilter,
  refunded: RefundDates,
  scope: TeamScope | null = null,
) {
  const ids = (await filteredClaims(deps, organizationId, filter, scope)).map((c) => c.id);
  const rows = await deps.db.$queryRaw<{ month: string; currency_code: string; amount: string }[]>`
    SELECT to_char(r.date, 'YYYY-MM') AS month, r.currency_code, sum(r.amount)::text AS amount
      FROM claim_refunds r
     WHERE r.claim_id = ANY(${ids}::uuid[])
       AND ${refundDatedSql(refunded)}
     GROUP BY 1, 2
     ORDER BY 1, 2`;
  const months = new Map<string, { currency_code: string; amount: string }[]>();
  for (const row of rows) {
    const refunds = months.get(row.month) ?? [];
    refunds.push({ currency_code: row.currency_code, amount: formatAmount(row.amount)! });
    months.set(row.month, refunds);
  }
  return { months: [...months].map(([month, refunds]) => ({ month, refunds })) };
}

type DocumentRole = 'invoice' | 'invoice_attachment' | 'credit_note' | 'credit_note_attachment';

// The files behind a claim: each of its alerts' invoices (original and attachments) and each
// attached credit note's, with presigned GET links. Invoices created as data have no file.
// The files behind a claim, in the letter's order (invoice date, number, id; the primary file,
// then the attachments), one page at a time: only the page's files get download links.
export async function claimDocuments(
  deps: Pick<AppDeps, 'db' | 'storage' | 'cursors'>,
  claim: ClaimRecord,
  page: PageRequest,
) {
  const alertInvoices = await deps.db.alert.findMany({
    where: { claimId: claim.id, ...countedAlertsWhere },
    select: { invoiceId: true },
    distinct: ['invoiceId'],
  });
  const invoiceIds = alertInvoices.map((a) => a.invoiceId);
  const creditNoteIds = claim.creditNotes.map((c) => c.invoiceId);
  // The ids as one array parameter (a claim may hold more invoices than PostgreSQL's 65,535 bind
  // parameters), in the letter's order.
  const invoices = await deps.db.$queryRaw<
    {
      id: string;
      invoiceNumber: string | null;
      issueDate: Date | null;
      primaryDocumentId: string | null;
      attachmentDocumentIds: string[];
    }[]
  >`
    SELECT id::text AS "id", invoice_number AS "invoiceNumber", issue_date AS "issueDate",
           primary_document_id::text AS "primaryDocumentId", COALESCE(attachment_document_ids::text[], '{}') AS "attachmentDocumentIds"
      FROM invoices
     WHERE organization_id = ${claim.organizationId}::uuid AND id = ANY(${[...invoiceIds, ...creditNoteIds]}::uuid[]) AND deleted_at IS NULL
     ORDER BY issue_date ASC, invoice_number ASC, id ASC`;
  const creditNotes = new Set(creditNoteIds);
  const wanted: { documentId: string; role: DocumentRole; invoice: (typeof invoices)[number]; rank: Rank }[] = [];
  for (const invoice of invoices) {
    const isCreditNote = creditNotes.has(invoice.id);
    // The letter's order by value (unknown dates and numbers last), so a page's cursor holds while
    // invoices join the claim; within an invoice, its files in order (a file may sit behind two
    // invoices, so the rank's unique last part names both).
    const rankOf = (file: number, documentId: string): Rank => [
      invoice.issueDate?.toISOString() ?? '~',
      invoice.invoiceNumber ?? '\uffff',
      invoice.id,
      file,
      `${invoice.id}:${documentId}`,
    ];
    if (invoice.primaryDocumentId)
      wanted.push({
        documentId: invoice.primaryDocumentId,
        role: isCreditNote ? 'credit_note' : 'invoice',
        invoice,
        rank: rankOf(0, invoice.primaryDocumentId),
      });
    invoice.attachmentDocumentIds.forEach((id, index) =>
      wanted.push({
        documentId: id,
        role: isCreditNote ? 'credit_note_attachment' : 'invoice_attachment',
        invoice,
        rank: rankOf(index + 1, id),
      }),
    );
  }
  const { rows, nextCursor } = pageOfRanked(deps.cursors, page, wanted, (entry) => entry.rank);
  const documents = await inBatches(
    rows.map((w) => w.documentId),
    (ids) => deps.db.document.findMany({ where: { organizationId: claim.organizationId, id: { in: ids } } }),
  );
  const byId = new Map(documents.map((d) => [d.id, d]));
  const data = [];
  for (const entry of rows) {
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
  return { data, next_cursor: nextCursor };
}
