import { z } from 'zod';
import type { RequestActor } from '../auth/actor.js';
import { CHECK_STATUSES } from './check-status.js';
import { Prisma, type RawReader } from '../db/client.js';
import type { AppDeps } from '../deps.js';
import { errors } from '../http/errors.js';
import { cursorAfter, pageParams, resolvePage, type PageRequest } from '../http/pagination.js';
import {
  booleanParam,
  commaList,
  createdRangeParams,
  dateString,
  joinOperatorParam,
  uuidList,
} from '../http/schemas.js';
import { allOf, containsSql, createdRangeSql, joinRelationsSql } from '../http/sql-filters.js';
import { teamScopeParams } from '../teams/scope.js';
import { sqlListPage, type SqlList } from '../teams/scoped-page.js';
import {
  ingestionView,
  listView,
  readInvoiceLines,
  readInvoicesWithExtras,
  type InvoiceWithExtras,
} from './service.js';

// GET /v1/invoices: the filters as SQL over invoices `i`, and a page read in one statement with
// every invoice's extras (docs/decisions.md, "A list page in one statement"); the lines, when
// shown, in a second statement once the page is cut to its line budget (MAX_PAGE_LINES).

const INVOICE_LIST: SqlList = {
  table: 'invoices',
  alias: 'i',
  target: 'invoice',
  // Keyset over (column, id); unknown values (null) come last in either direction.
  sorts: {
    created_at: { field: 'createdAt', column: 'created_at', kind: 'date', type: 'timestamptz' },
    issue_date: { field: 'issueDate', column: 'issue_date', kind: 'date', type: 'date', nullable: true },
    due_date: { field: 'dueDate', column: 'due_date', kind: 'date', type: 'date', nullable: true },
    'amounts.including_vat': {
      field: 'taxInclusiveAmount',
      column: 'tax_inclusive_amount',
      kind: 'number',
      type: 'numeric',
      nullable: true,
    },
    invoice_number: { field: 'invoiceNumber', column: 'invoice_number', kind: 'string', type: 'text', nullable: true },
  },
};
export const INGESTION_MAX_PAGE_SIZE = 100;
// A page's size is bounded by its invoices' lines as well as by `limit`: a page holds invoices
// while their lines add up to at most this many, and always at least one invoice (however many
// lines it has). A shorter page's next_cursor continues after its last invoice.
export const MAX_PAGE_LINES = 10_000;

export const invoiceListQuery = z.object({
  ...pageParams(['created_at', 'issue_date', 'due_date', 'amounts.including_vat', 'invoice_number']),
  issued_from: dateString.optional(),
  issued_through: dateString.optional(),
  supplier_ids: uuidList.optional(),
  supplier_operator: z.enum(['is', 'is_not']).optional(),
  agreement_ids: uuidList.optional().meta({ description: 'Invoices matched to any of these agreements' }),
  join_operator: joinOperatorParam.meta({
    description: 'How supplier_ids and agreement_ids combine: and (default) or or',
  }),
  search: z.string().min(1).max(200).optional().meta({ description: 'Invoice number or supplier name (any case)' }),
  document_types: commaList(z.enum(['invoice', 'credit_note'])).optional(),
  processing_statuses: commaList(z.enum(['pending', 'processing', 'completed', 'failed'])).optional(),
  check_statuses: commaList(z.enum(CHECK_STATUSES)).optional().meta({
    description:
      'not_checked, checked (every matched agreement), incomplete (some, or a check failed), outdated (invoice or agreement changed since)',
  }),
  needs_review: booleanParam.optional().meta({
    description:
      "true: invoices whose reading is uncertain (read from a PDF's layout and it does not add up or lacks a key field: the extraction's needsReview), the review queue; false: the others",
  }),
  ...createdRangeParams,
  ...teamScopeParams,
});

type Filters = Omit<z.infer<typeof invoiceListQuery>, 'limit' | 'cursor' | 'sort' | 'direction' | 'fields'>;

function filterSql(organizationId: string, filters: Filters): Prisma.Sql {
  const bySupplier = filters.supplier_ids
    ? filters.supplier_operator === 'is_not'
      ? Prisma.sql`(i.supplier_id IS NULL OR NOT (i.supplier_id = ANY(${filters.supplier_ids}::uuid[])))`
      : Prisma.sql`i.supplier_id = ANY(${filters.supplier_ids}::uuid[])`
    : null;
  const byAgreement = filters.agreement_ids
    ? Prisma.sql`EXISTS (SELECT 1 FROM invoice_agreement_matches m WHERE m.invoice_id = i.id AND m.agreement_id = ANY(${filters.agreement_ids}::uuid[]) AND m.active)`
    : null;
  return allOf([
    Prisma.sql`i.organization_id = ${organizationId}::uuid AND i.deleted_at IS NULL`,
    filters.issued_from ? Prisma.sql`i.issue_date >= ${filters.issued_from}::date` : null,
    filters.issued_through ? Prisma.sql`i.issue_date <= ${filters.issued_through}::date` : null,
    joinRelationsSql(filters.join_operator, [bySupplier, byAgreement]),
    filters.document_types ? Prisma.sql`i.document_type = ANY(${filters.document_types}::"DocumentType"[])` : null,
    filters.processing_statuses
      ? Prisma.sql`i.processing_status = ANY(${filters.processing_statuses}::"ProcessingStatus"[])`
      : null,
    filters.check_statuses ? Prisma.sql`i.check_status = ANY(${filters.check_statuses}::text[])` : null,
    createdRangeSql(filters, 'i'),
    needsReviewSql(filters.needs_review),
    // The supplier's invoiced name has a trigram index on this very expression.
    filters.search
      ? Prisma.sql`(${containsSql('i.invoice_number', filters.search)} OR ${containsSql(`(i.supplier_party #>> '{name}')`, filters.search)})`
      : null,
  ]);
}

// The layout reader marks a reading that does not add up (extraction.needsReview); structured
// readings and invoices sent as data never carry the mark.
function needsReviewSql(needsReview: boolean | undefined): Prisma.Sql | null {
  if (needsReview === undefined) return null;
  const marked = Prisma.sql`(i.extraction->>'needsReview') = 'true'`;
  return needsReview ? marked : Prisma.sql`NOT COALESCE(${marked}, false)`;
}

// Invoices arrive soon after they are issued, so issue date and creation time move together. Asked
// for a month of issue dates newest first, PostgreSQL assumes that month's invoices are spread
// evenly over the creation-time index and walks it from now through every newer invoice (tens
// of thousands for a month far back: a page many times slower, docs/benchmarks.md). The creation times of the invoices
// issued in the range, read from a covering issue-date index alone, bound that walk. The bound restates
// the filter (every invoice of the range lies inside it), so the page is the same. A range of more
// than BOUNDED_RANGE invoices is left to the walk: reading its bounds would cost more than it saves.
// (The subquery's LIMIT also keeps PostgreSQL from answering min/max by that same walk.)
const BOUNDED_RANGE = 20_000;

async function createdBoundsOfIssueRange(
  reader: RawReader,
  organizationId: string,
  filters: Filters,
): Promise<Prisma.Sql | null> {
  if (!filters.issued_from && !filters.issued_through) return null;
  const range = [
    ...(filters.issued_from ? [Prisma.sql`issue_date >= ${filters.issued_from}::date`] : []),
    ...(filters.issued_through ? [Prisma.sql`issue_date <= ${filters.issued_through}::date`] : []),
  ];
  const [bounds] = await reader.$queryRaw<{ count: number; first: Date | null; last: Date | null }[]>`
    SELECT count(*)::int AS count, min(created_at) AS first, max(created_at) AS last
      FROM (SELECT created_at FROM invoices WHERE organization_id = ${organizationId}::uuid AND issue_date IS NOT NULL AND ${Prisma.join(range, ' AND ')} LIMIT ${BOUNDED_RANGE + 1}) issued`;
  if (!bounds || bounds.count > BOUNDED_RANGE) return null;
  if (!bounds.first || !bounds.last) return Prisma.sql`FALSE`;
  return Prisma.sql`i.created_at BETWEEN ${bounds.first}::timestamptz AND ${bounds.last}::timestamptz`;
}

// Whether `fields` (as validated by the router) shows the lines: all fields, or line_items asked.
function showsLines(fields: string | undefined): boolean {
  if (fields === undefined) return true;
  return fields.split(',').some((field) => field.trim() === 'line_items' || field.trim().startsWith('line_items.'));
}

// The page cut where its lines pass MAX_PAGE_LINES (keeping at least one invoice), then the kept
// invoices' lines read in one statement.
async function withLinesWithinBudget(
  deps: AppDeps,
  organizationId: string,
  page: PageRequest,
  listed: { rows: InvoiceWithExtras[]; nextCursor: string | null },
) {
  let kept = 0;
  let lines = 0;
  for (const invoice of listed.rows) {
    const count = invoice.lineCount ?? 0;
    if (kept > 0 && lines + count > MAX_PAGE_LINES) break;
    lines += count;
    kept += 1;
  }
  const cut = kept < listed.rows.length;
  const rows = listed.rows.slice(0, kept);
  const nextCursor = cut
    ? cursorAfter(deps.cursors, page, INVOICE_LIST.sorts[page.sort]!, rows[kept - 1]!)
    : listed.nextCursor;
  const linesOf = await readInvoiceLines(
    deps,
    organizationId,
    rows.filter((invoice) => (invoice.lineCount ?? 0) > 0).map((invoice) => invoice.id),
  );
  for (const invoice of rows) invoice.extras.lines = linesOf.get(invoice.id) ?? [];
  return { rows, nextCursor };
}

export async function listInvoices(deps: AppDeps, actor: RequestActor, query: z.infer<typeof invoiceListQuery>) {
  const { limit, cursor, sort, direction, fields, ...filters } = query;
  const ingestion = actor.kind === 'ingestion_token';
  if (ingestion && limit > INGESTION_MAX_PAGE_SIZE) {
    throw errors.validation(`limit must be 1 to ${INGESTION_MAX_PAGE_SIZE}.`, [
      { field: 'query.limit', message: `at most ${INGESTION_MAX_PAGE_SIZE}` },
    ]);
  }
  // The Ingestion API's contract sorts by created_at only.
  if (ingestion && sort && sort !== 'created_at')
    throw errors.validation('sort must be created_at.', [{ field: 'query.sort', message: 'must be created_at' }]);
  // Newest first by default; the other sorts ascend unless told otherwise.
  const sortOrDefault = sort ?? 'created_at';
  const page = resolvePage(
    deps.cursors,
    { limit, cursor, sort, direction },
    { sort: sortOrDefault, direction: sortOrDefault === 'created_at' ? 'desc' : 'asc' },
    filters,
  );
  const organizationId = actor.organizationId;
  const withLines = !ingestion && showsLines(fields);
  const listed = await sqlListPage(deps, INVOICE_LIST, {
    actor,
    page,
    teams: filters,
    filters: allOf([
      filterSql(organizationId, filters),
      page.sort === 'created_at' ? await createdBoundsOfIssueRange(deps.reader, organizationId, filters) : null,
    ]),
    // Lines are read only when shown (the Ingestion shape has none; `fields` may leave them out),
    // after the page is cut to its line budget: here only their number.
    read: (where, orderBy, count) =>
      readInvoicesWithExtras(deps, where, orderBy, count, { lines: false, lineCounts: withLines }),
  });
  const { rows, nextCursor } = withLines ? await withLinesWithinBudget(deps, organizationId, page, listed) : listed;
  return ingestion
    ? { invoices: rows.map((invoice) => ingestionView(deps, invoice)), next_cursor: nextCursor }
    : { data: rows.map((invoice) => listView(deps, invoice)), next_cursor: nextCursor };
}
