import { Prisma, type Db } from '../db/client.js';
import { containsText, createdRangeWhere, joinRelations } from '../http/schemas.js';
import { allOf, containsSql, createdRangeSql, joinRelationsSql } from '../http/sql-filters.js';
import type { AlertFilter } from './schemas.js';

// The alerts a user sees: of the organization, on an invoice that is not deleted and is still
// matched to the agreement. An alert whose match ended is "set aside": out of every list, total,
// group, export and bulk filter until the match returns (its decisions are kept meanwhile).
export function visibleAlertsWhere(organizationId: string): Prisma.AlertWhereInput {
  return { organizationId, match: { active: true, invoice: { deletedAt: null } } };
}

// The same rule in SQL over the alert row `alias` (a constant of the caller, never input), written
// as the absence of the few set-aside rows through the partial indexes on ended matches and deleted
// invoices: every alert has its match (a foreign key), so it says what visibleAlertsWhere says
// without reading a match and an invoice for every alert (docs/benchmarks.md).
//
// `perRow` is for a list page, which reads few alerts: each condition stays a subplan checked
// per alert (OFFSET 0 keeps PostgreSQL from pulling it up into an anti-join). Planning the two
// anti-joins took as long as running the page (docs/benchmarks.md); the probes are the same index
// lookups either way. Figures over the whole organization keep the anti-joins.
export function visibleAlertSql(alias: string, { perRow = false } = {}): string {
  const fence = perRow ? ' OFFSET 0' : '';
  return `NOT EXISTS (SELECT 1 FROM invoice_agreement_matches ended WHERE ended.invoice_id = ${alias}.invoice_id AND ended.agreement_id = ${alias}.agreement_id AND NOT ended.active${fence})
    AND NOT EXISTS (SELECT 1 FROM invoices deleted WHERE deleted.id = ${alias}.invoice_id AND deleted.organization_id = ${alias}.organization_id AND deleted.deleted_at IS NOT NULL${fence})`;
}

// The set-aside alerts of the organization `$1` (id, status, currency, impact), for figures read
// from the totals the alert triggers keep (organization_alert_totals counts every alert, set aside
// or not). Found from the few ended matches and deleted invoices through their partial indexes.
// `statusCondition` narrows both halves (SQL over `a`, a constant of the caller, never input).
export function setAsideAlertsSql(statusCondition: string = 'TRUE'): string {
  return `
    SELECT a.id, a.status, a.currency_code, a.impact_amount
      FROM invoice_agreement_matches m JOIN alerts a ON a.invoice_id = m.invoice_id AND a.agreement_id = m.agreement_id
     WHERE m.organization_id = $1::uuid AND NOT m.active AND ${statusCondition}
    UNION
    SELECT a.id, a.status, a.currency_code, a.impact_amount
      FROM invoices i JOIN alerts a ON a.invoice_id = i.id
     WHERE i.organization_id = $1::uuid AND i.deleted_at IS NOT NULL AND ${statusCondition}`;
}

function topicWhere(topicIds: (string | null)[]): Prisma.AlertWhereInput {
  const ids = topicIds.filter((id): id is string => id !== null);
  const uncategorized = topicIds.includes(null);
  const conditions: Prisma.AlertWhereInput[] = [];
  if (ids.length > 0) conditions.push({ topicId: { in: ids } });
  if (uncategorized) conditions.push({ topicId: null });
  return { OR: conditions };
}

// The organization is repeated on the invoice so the query can start from the supplier's invoices
// (index on organization, supplier) instead of reading every alert of the organization.
function supplierWhere(organizationId: string, filter: AlertFilter): Prisma.AlertWhereInput | null {
  if (!filter.supplier_ids) return null;
  if (filter.supplier_operator === 'is_not') {
    return { match: { invoice: { OR: [{ supplierId: null }, { supplierId: { notIn: filter.supplier_ids } }] } } };
  }
  return { match: { invoice: { organizationId, supplierId: { in: filter.supplier_ids } } } };
}

const presence = (value: boolean | undefined, column: 'topicId' | 'claimId'): Prisma.AlertWhereInput =>
  value === undefined ? {} : value ? { NOT: { [column]: null } } : { [column]: null };

// `search` matches an alert's title or explanation, its invoice's number, or its invoice's
// supplier by name. The suppliers whose name matches are read first (searchSupplierIds), since an
// invoice has no relation to its supplier record for Prisma to filter through.
export async function searchSupplierIds(
  db: Pick<Db, 'supplier'>,
  organizationId: string,
  filter: Pick<AlertFilter, 'search'>,
): Promise<string[]> {
  if (!filter.search) return [];
  const suppliers = await db.supplier.findMany({
    where: { organizationId, name: containsText(filter.search) },
    select: { id: true },
  });
  return suppliers.map((supplier) => supplier.id);
}

// alertWhere with the suppliers a search names read first: what every Prisma reader of alerts calls.
export async function alertWhereOf(
  db: Pick<Db, 'supplier'>,
  organizationId: string,
  filter: AlertFilter,
): Promise<Prisma.AlertWhereInput> {
  return alertWhere(organizationId, filter, await searchSupplierIds(db, organizationId, filter));
}

function searchWhere(search: string, supplierIds: readonly string[]): Prisma.AlertWhereInput {
  const invoice: Prisma.InvoiceWhereInput[] = [
    { invoiceNumber: containsText(search) },
    ...(supplierIds.length > 0 ? [{ supplierId: { in: [...supplierIds] } }] : []),
  ];
  return {
    OR: [
      { title: containsText(search) },
      { explanation: containsText(search) },
      { match: { invoice: { OR: invoice } } },
    ],
  };
}

export function alertWhere(
  organizationId: string,
  filter: AlertFilter,
  searchSuppliers: readonly string[],
): Prisma.AlertWhereInput {
  return {
    AND: [
      visibleAlertsWhere(organizationId),
      joinRelations<Prisma.AlertWhereInput>(filter.join_operator, [
        filter.invoice_ids ? { invoiceId: { in: filter.invoice_ids } } : null,
        filter.agreement_ids ? { agreementId: { in: filter.agreement_ids } } : null,
        supplierWhere(organizationId, filter),
        filter.topic_ids ? topicWhere(filter.topic_ids) : null,
        filter.claim_ids ? { claimId: { in: filter.claim_ids } } : null,
      ]),
      filter.statuses ? { status: { in: filter.statuses } } : {},
      presence(filter.has_topic, 'topicId'),
      presence(filter.has_claim, 'claimId'),
      createdRangeWhere(filter),
      filter.search ? searchWhere(filter.search, searchSuppliers) : {},
    ],
  };
}

// alertWhere as SQL over alerts `a`, for the list page read in one statement (src/alerts/list.ts)
// and the groups and filtered totals (src/alerts/reports.ts, one statement each); exports and bulk
// selections use alertWhere. Both select the same alerts for every filter
// (test/integration/alert-filters.test.ts). `perRow` as for visibleAlertSql: a page reads few
// alerts, a group reads every one of the organization.
export function alertFilterSql(organizationId: string, filter: AlertFilter, { perRow = true } = {}): Prisma.Sql {
  const ids = (column: string, values: string[]) => Prisma.sql`${Prisma.raw(`a.${column}`)} = ANY(${values}::uuid[])`;
  return allOf([
    Prisma.sql`a.organization_id = ${organizationId}::uuid`,
    Prisma.raw(visibleAlertSql('a', { perRow })),
    joinRelationsSql(filter.join_operator, [
      filter.invoice_ids ? ids('invoice_id', filter.invoice_ids) : null,
      filter.agreement_ids ? ids('agreement_id', filter.agreement_ids) : null,
      supplierSql(organizationId, filter),
      filter.topic_ids ? topicSql(filter.topic_ids) : null,
      filter.claim_ids ? ids('claim_id', filter.claim_ids) : null,
    ]),
    filter.statuses ? Prisma.sql`a.status = ANY(${filter.statuses}::"AlertStatus"[])` : null,
    presenceSql(filter.has_topic, 'topic_id'),
    presenceSql(filter.has_claim, 'claim_id'),
    createdRangeSql(filter, 'a'),
    filter.search ? searchSql(organizationId, filter.search) : null,
  ]);
}

// The same search as searchWhere: the invoices of the organization whose number or supplier's name
// matches are one hashed subplan (trigram index on the number, the organization's suppliers by name).
function searchSql(organizationId: string, search: string): Prisma.Sql {
  return Prisma.sql`(${containsSql('a.title', search)} OR ${containsSql('a.explanation', search)} OR a.invoice_id IN (
      SELECT si.id FROM invoices si
       WHERE si.organization_id = ${organizationId}::uuid
         AND (${containsSql('si.invoice_number', search)}
              OR si.supplier_id IN (SELECT ss.id FROM suppliers ss WHERE ss.organization_id = ${organizationId}::uuid AND ${containsSql('ss.name', search)}))))`;
}

function topicSql(topicIds: (string | null)[]): Prisma.Sql {
  const ids = topicIds.filter((id): id is string => id !== null);
  const conditions = [
    ...(ids.length > 0 ? [Prisma.sql`a.topic_id = ANY(${ids}::uuid[])`] : []),
    ...(topicIds.includes(null) ? [Prisma.sql`a.topic_id IS NULL`] : []),
  ];
  return conditions.length === 0 ? Prisma.sql`FALSE` : Prisma.sql`(${Prisma.join(conditions, ' OR ')})`;
}

function supplierSql(organizationId: string, filter: AlertFilter): Prisma.Sql | null {
  if (!filter.supplier_ids) return null;
  const suppliers = Prisma.sql`${filter.supplier_ids}::uuid[]`;
  return filter.supplier_operator === 'is_not'
    ? Prisma.sql`EXISTS (SELECT 1 FROM invoices i WHERE i.id = a.invoice_id AND (i.supplier_id IS NULL OR NOT (i.supplier_id = ANY(${suppliers}))))`
    : Prisma.sql`EXISTS (SELECT 1 FROM invoices i WHERE i.id = a.invoice_id AND i.organization_id = ${organizationId}::uuid AND i.supplier_id = ANY(${suppliers}))`;
}

const presenceSql = (value: boolean | undefined, column: 'topic_id' | 'claim_id'): Prisma.Sql | null =>
  value === undefined ? null : Prisma.raw(`a.${column} IS ${value ? 'NOT ' : ''}NULL`);
