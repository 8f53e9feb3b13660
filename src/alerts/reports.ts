import ExcelJS from 'exceljs';
import type { AppDeps } from '../deps.js';
import { Prisma } from '../db/client.js';
import { errors } from '../http/errors.js';
import { formatAmount, sum } from '../shared/money.js';
import { neutraliseText, toSafeCsv } from '../shared/spreadsheet-cells.js';
import { alertFilterSql, alertWhereOf, setAsideAlertsSql } from './filters.js';
import { ALERT_STATUSES, type AlertFilter, type GROUP_BY } from './schemas.js';
import { ALERT_INCLUDE, serializeAlert, type AlertWithMatch } from './serialize.js';
import { acrossScope, type TeamScope } from '../teams/scope.js';
import { inBatches } from '../shared/batches.js';

// Totals, groups and exports over the same filters as the list. Money is summed in PostgreSQL's
// numeric and per currency only: amounts in different currencies are never added.

type Deps = Pick<AppDeps, 'db'>;
type Status = (typeof ALERT_STATUSES)[number];
// An export is one file; beyond this, narrow it with filters.
export const MAX_EXPORT_ROWS = 100_000;

interface Bucket {
  key: string | null;
  currencyCode: string | null;
  count: number;
  impact: Prisma.Decimal | null;
}

type StatusTotal = { status: Status; currencyCode: string | null; count: number; impact: Prisma.Decimal | null };

// Filters that the kept totals can answer: none but statuses (the triage page's figures).
const TOTALS_FILTER_KEYS: ReadonlySet<string> = new Set(['statuses', 'join_operator', 'mine', 'team_ids']);

// The totals the alert triggers keep per organization, status and currency (migration
// overview_totals, as the overview reads them), less the set-aside alerts: a few rows instead of
// counting every alert of the organization (docs/benchmarks.md).
async function keptStatusTotals(
  deps: Deps,
  organizationId: string,
  statuses: readonly Status[],
): Promise<StatusTotal[]> {
  const rows = await deps.db.$queryRawUnsafe<
    { status: Status; currency_code: string | null; count: number; impact: Prisma.Decimal }[]
  >(
    `WITH set_aside AS (${setAsideAlertsSql()})
     SELECT status::text AS status, nullif(currency_code, '') AS currency_code, sum(n)::int AS count, sum(impact) AS impact
       FROM (SELECT status, currency_code, alert_count AS n, impact FROM organization_alert_totals WHERE organization_id = $1::uuid
             UNION ALL
             SELECT status, coalesce(currency_code, ''), -count(*), -sum(impact_amount) FROM set_aside GROUP BY 1, 2) totals
      WHERE status::text = ANY($2::text[])
      GROUP BY 1, 2
     HAVING sum(n) <> 0`,
    organizationId,
    [...statuses],
  );
  return rows.map((row) => ({
    status: row.status,
    currencyCode: row.currency_code,
    count: row.count,
    impact: row.impact,
  }));
}

// A team scope (mine / team_ids) runs each aggregate over batches of covered alerts; the rows of
// all batches are added up below exactly as the rows of one query would be.
async function statusTotals(
  deps: Deps,
  organizationId: string,
  filter: AlertFilter,
  scope: TeamScope | null,
): Promise<StatusTotal[]> {
  if (!scope && Object.entries(filter).every(([key, value]) => value === undefined || TOTALS_FILTER_KEYS.has(key))) {
    return keptStatusTotals(deps, organizationId, filter.statuses ?? ALERT_STATUSES);
  }
  const rows = await buckets(deps, organizationId, 'status', filter, scope);
  return rows.map((row) => ({
    status: row.key as Status,
    currencyCode: row.currencyCode,
    count: row.count,
    impact: row.impact,
  }));
}

export async function alertMetrics(
  deps: Deps,
  organizationId: string,
  filter: AlertFilter,
  scope: TeamScope | null = null,
) {
  const rows = await statusTotals(deps, organizationId, filter, scope);
  const counts = { total: 0, pending: 0, claimed: 0, credited: 0, dismissed: 0 };
  for (const row of rows) {
    counts[row.status] += row.count;
    counts.total += row.count;
  }
  const currencies = [...new Set(rows.map((r) => r.currencyCode))].sort((a, b) => (a ?? '').localeCompare(b ?? ''));
  const impact = currencies.map((currency) => {
    const ofCurrency = rows.filter((r) => r.currencyCode === currency);
    const byStatus = (status: Status) =>
      formatAmount(sum(ofCurrency.filter((r) => r.status === status).map((r) => r.impact)))!;
    return {
      currency_code: currency,
      total: formatAmount(sum(ofCurrency.map((r) => r.impact)))!,
      pending: byStatus('pending'),
      claimed: byStatus('claimed'),
      credited: byStatus('credited'),
      dismissed: byStatus('dismissed'),
    };
  });
  return { counts, impact };
}

// The key of each group, over alerts `a` (and their invoices `inv` for the supplier): an alert of
// an invoice belongs to the invoice's supplier.
const GROUP_KEY_SQL: Record<(typeof GROUP_BY)[number], string> = {
  agreement: 'a.agreement_id::text',
  topic: 'a.topic_id::text',
  invoice: 'a.invoice_id::text',
  supplier: 'inv.supplier_id::text',
  status: 'a.status::text',
  checker: 'a.checker',
};

// Count and impact per key and currency in one statement over the list's own filter (SQL): the
// organization's alerts read once, the set-aside ones left out by anti-joins on the few ended
// matches and deleted invoices, rather than a match and an invoice probed for every alert.
async function buckets(
  deps: Deps,
  organizationId: string,
  groupBy: (typeof GROUP_BY)[number],
  filter: AlertFilter,
  scope: TeamScope | null,
): Promise<Bucket[]> {
  const key = Prisma.raw(GROUP_KEY_SQL[groupBy]);
  const invoices = groupBy === 'supplier' ? Prisma.sql`JOIN invoices inv ON inv.id = a.invoice_id` : Prisma.empty;
  const rows = await acrossScope(
    deps.db,
    scope,
    'alert',
    (idWhere) =>
      deps.db.$queryRaw<
        { key: string | null; currency_code: string | null; count: number; impact: Prisma.Decimal | null }[]
      >`
      SELECT ${key} AS key, a.currency_code, count(*)::int AS count, sum(a.impact_amount) AS impact
        FROM alerts a ${invoices}
       WHERE ${alertFilterSql(organizationId, filter, { perRow: false })}
         ${idWhere.id ? Prisma.sql`AND a.id = ANY(${idWhere.id.in}::uuid[])` : Prisma.empty}
       GROUP BY 1, 2`,
  );
  return rows.map((row) => ({ key: row.key, currencyCode: row.currency_code, count: row.count, impact: row.impact }));
}

// One group per key: as many keys as invoices (or suppliers, ...) with alerts, in batches.
async function labels(
  deps: Deps,
  organizationId: string,
  groupBy: (typeof GROUP_BY)[number],
  keys: string[],
): Promise<Map<string, string | null>> {
  const where = (ids: string[]) => ({ id: { in: ids }, organizationId });
  const labelled = async <R>(find: (ids: string[]) => Promise<R[]>, label: (row: R) => [string, string | null]) =>
    new Map((await inBatches(keys, find)).map(label));
  switch (groupBy) {
    case 'agreement':
      return labelled(
        (ids) => deps.db.agreement.findMany({ where: where(ids), select: { id: true, title: true } }),
        (a) => [a.id, a.title],
      );
    case 'topic':
      return labelled(
        (ids) => deps.db.alertTopic.findMany({ where: where(ids), select: { id: true, title: true } }),
        (t) => [t.id, t.title],
      );
    case 'invoice':
      return labelled(
        (ids) => deps.db.invoice.findMany({ where: where(ids), select: { id: true, invoiceNumber: true } }),
        (i) => [i.id, i.invoiceNumber],
      );
    case 'supplier':
      return labelled(
        (ids) => deps.db.supplier.findMany({ where: where(ids), select: { id: true, name: true } }),
        (s) => [s.id, s.name],
      );
    case 'status':
    case 'checker':
      return new Map(keys.map((k) => [k, k]));
  }
}

// A group as counted, before its label is read and its amounts are added up: the page is cut from
// these, so only the page's groups are labelled and summed (the topic grouping has thousands).
export interface CountedAlertGroup {
  key: string | null;
  count: number;
  impact: Map<string | null, Prisma.Decimal[]>;
}

// Every group of the filter, in no order: the page ranks them (pageOfRanked).
export async function countedAlertGroups(
  deps: Deps,
  organizationId: string,
  groupBy: (typeof GROUP_BY)[number],
  filter: AlertFilter,
  scope: TeamScope | null = null,
): Promise<CountedAlertGroup[]> {
  const rows = await buckets(deps, organizationId, groupBy, filter, scope);
  const groups = new Map<string | null, CountedAlertGroup>();
  for (const row of rows) {
    const group = groups.get(row.key) ?? { key: row.key, count: 0, impact: new Map<string | null, Prisma.Decimal[]>() };
    group.count += row.count;
    // Pushed, not spread into a new array: with a team scope a group gathers rows from every batch
    // of covered alerts, and copying the list for each row made the grouping quadratic.
    const impacts = group.impact.get(row.currencyCode) ?? [];
    if (row.impact) impacts.push(row.impact);
    group.impact.set(row.currencyCode, impacts);
    groups.set(row.key, group);
  }
  return [...groups.values()];
}

// The groups as the API shows them: labelled (one read of the groups' agreements, topics, ...) and
// their impact summed per currency.
export async function labelledAlertGroups(
  deps: Deps,
  organizationId: string,
  groupBy: (typeof GROUP_BY)[number],
  groups: CountedAlertGroup[],
) {
  const names = await labels(
    deps,
    organizationId,
    groupBy,
    groups.map((g) => g.key).filter((k): k is string => k !== null),
  );
  return groups.map((group) => ({
    key: group.key,
    label: group.key === null ? null : (names.get(group.key) ?? null),
    count: group.count,
    impact: [...group.impact.entries()]
      .sort(([a], [b]) => (a ?? '').localeCompare(b ?? ''))
      .map(([currency, amounts]) => ({ currency_code: currency, amount: formatAmount(sum(amounts))! })),
  }));
}

const EXPORT_COLUMNS = [
  'id',
  'status',
  'invoice_id',
  'invoice_number',
  'agreement_id',
  'agreement_title',
  'supplier_id',
  'title',
  'explanation',
  'impact_amount',
  'currency_code',
  'confidence',
  'invoice_item_id',
  'correction_type',
  'topic_id',
  'claim_id',
  'origin',
  'dismissal_category',
  'dismissal_note',
  'dismissed_at',
  'credited_by',
  'credited_at',
  'created_at',
  'updated_at',
] as const;
type ExportRow = Record<(typeof EXPORT_COLUMNS)[number], string>;

// Batches of a team scope each come sorted; merged, they are sorted again the same way.
function compareBy(field: string, direction: 'asc' | 'desc') {
  const sign = direction === 'asc' ? 1 : -1;
  const valueOf = (record: Record<string, unknown>) => record[field];
  return (a: { id: string }, b: { id: string }) => {
    const x = valueOf(a);
    const y = valueOf(b);
    const byValue =
      x instanceof Date && y instanceof Date
        ? x.getTime() - y.getTime()
        : x instanceof Prisma.Decimal && y instanceof Prisma.Decimal
          ? x.cmp(y)
          : String(x).localeCompare(String(y));
    return sign * (byValue || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  };
}

async function exportRows(
  deps: Deps,
  organizationId: string,
  filter: AlertFilter,
  sort: { field: string; direction: 'asc' | 'desc' },
  scope: TeamScope | null,
): Promise<ExportRow[]> {
  // The rows in order first, then with their relations in batches: Prisma loads an include with
  // one bind parameter per parent row, past PostgreSQL's 65,535 on a large export.
  type OrderedRow = { id: string } & Record<string, unknown>;
  const where = await alertWhereOf(deps.db, organizationId, filter);
  const ordered = await acrossScope(
    deps.db,
    scope,
    'alert',
    (idWhere) =>
      deps.db.alert.findMany({
        where: { AND: [where, idWhere] },
        select: { id: true, [sort.field]: true },
        orderBy: [{ [sort.field]: sort.direction }, { id: sort.direction }],
        take: MAX_EXPORT_ROWS + 1,
      }) as unknown as Promise<OrderedRow[]>,
  );
  if (scope) ordered.sort(compareBy(sort.field, sort.direction));
  if (ordered.length > MAX_EXPORT_ROWS)
    throw errors.validation(`More than ${MAX_EXPORT_ROWS} alerts match; narrow the export with filters.`);
  const loaded = new Map(
    (
      await inBatches(
        ordered.map((a) => a.id),
        (ids) => deps.db.alert.findMany({ where: { id: { in: ids } }, include: ALERT_INCLUDE }),
      )
    ).map((a) => [a.id, a]),
  );
  // An alert deleted between the two reads is left out.
  const alerts = ordered.flatMap((a) => loaded.get(a.id) ?? []) as AlertWithMatch[];
  const [invoices, agreements] = await Promise.all([
    inBatches([...new Set(alerts.map((a) => a.invoiceId))], (ids) =>
      deps.db.invoice.findMany({ where: { id: { in: ids } }, select: { id: true, invoiceNumber: true } }),
    ),
    inBatches([...new Set(alerts.map((a) => a.agreementId))], (ids) =>
      deps.db.agreement.findMany({ where: { id: { in: ids } }, select: { id: true, title: true } }),
    ),
  ]);
  const numbers = new Map(invoices.map((i) => [i.id, i.invoiceNumber]));
  const titles = new Map(agreements.map((a) => [a.id, a.title]));
  return alerts.map(serializeAlert).map((alert) => ({
    id: alert.id,
    status: alert.status,
    invoice_id: alert.invoice_id,
    invoice_number: numbers.get(alert.invoice_id) ?? '',
    agreement_id: alert.agreement_id,
    agreement_title: titles.get(alert.agreement_id) ?? '',
    supplier_id: alert.supplier_id ?? '',
    title: alert.title,
    explanation: alert.explanation,
    impact_amount: alert.impact_amount,
    currency_code: alert.currency_code ?? '',
    confidence: alert.confidence.level,
    invoice_item_id: alert.invoice_item_id ?? '',
    correction_type: alert.correction_type,
    topic_id: alert.topic_id ?? '',
    claim_id: alert.claim_id ?? '',
    origin: alert.provenance.origin,
    dismissal_category: alert.dismissal?.category ?? '',
    dismissal_note: alert.dismissal?.note ?? '',
    dismissed_at: alert.dismissal?.dismissed_at ?? '',
    credited_by: alert.credit?.credited_by ?? '',
    credited_at: alert.credit?.credited_at ?? '',
    created_at: alert.created_at,
    updated_at: alert.updated_at,
  }));
}

async function toXlsx(rows: ExportRow[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Alerts');
  sheet.columns = EXPORT_COLUMNS.map((key) => ({ header: key, key, width: key === 'explanation' ? 60 : 20 }));
  // Amounts are numbers a spreadsheet can add up (the cell keeps the two-decimal format); the
  // decimal string is exact, and spreadsheet numbers hold every realistic amount exactly.
  sheet.getColumn('impact_amount').numFmt = '0.00';
  // Text cells are written as text and neutralised like the CSV's (a copy saved as CSV stays safe).
  for (const row of rows) {
    const text = Object.fromEntries(Object.entries(row).map(([key, value]) => [key, neutraliseText(value)]));
    sheet.addRow({
      ...text,
      impact_amount: row.impact_amount === '' || row.impact_amount === null ? null : Number(row.impact_amount),
    });
  }
  sheet.getRow(1).font = { bold: true };
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export async function exportAlerts(
  deps: Deps,
  organizationId: string,
  filter: AlertFilter,
  options: { format: 'csv' | 'xlsx'; sort: { field: string; direction: 'asc' | 'desc' } },
  scope: TeamScope | null = null,
): Promise<{ body: string | Buffer; contentType: string; fileName: string }> {
  const rows = await exportRows(deps, organizationId, filter, options.sort, scope);
  if (options.format === 'xlsx') {
    return {
      body: await toXlsx(rows),
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      fileName: 'alerts.xlsx',
    };
  }
  return {
    body: toSafeCsv(rows, { columns: EXPORT_COLUMNS, numberColumns: ['impact_amount'] }),
    contentType: 'text/csv; charset=utf-8',
    fileName: 'alerts.csv',
  };
}
