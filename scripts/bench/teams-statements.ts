// Measures / checks the team-scope SQL on the database seeded by scripts/bench/teams-seed.sql
// Prints result, buffers, execution and planning time of each statement (FULL=1: the whole plan).
// (TEAMS_BENCH_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/teams_totals_bench):
// npx tsx scripts/bench/teams-statements.ts
import pg from 'pg';
import { Prisma } from '../../src/db/client.js';
import { validateTeamFilter } from '../../src/teams/filter/index.js';
import { scopeCondition, scopeSetCondition, type TeamScope } from '../../src/teams/scope.js';
import { invoiceMetricsWhere } from '../../src/invoices/metrics.js';

const ORG = '00000000-0000-4000-8000-000000000001';
const sup = (i: number) => `10000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const agr = (i: number) => `30000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const cond = (field: string, op: string, value: unknown) => ({ field, op, value });
const date = new Date(Date.now() - 200 * 86_400_000).toISOString().slice(0, 10);
const raw = {
  schema_version: 1,
  root: {
    combinator: 'and',
    children: [
      cond('supplier.country', 'is_any_of', ['NO', 'SE', 'DK', 'FI']),
      cond('invoice.amount', 'gte', 1),
      cond('invoice.amount', 'lt', '1000000'),
      cond('invoice.issued_date', 'within', 'last_365_days'),
      cond('invoice.reference', 'not_contains', 'VOID'),
      cond('invoice.currency', 'is_none_of', ['USD']),
      {
        combinator: 'or',
        children: [
          cond(
            'supplier.id',
            'is_any_of',
            Array.from({ length: 100 }, (_, i) => sup(i)),
          ),
          cond('agreement.tag', 'is', '20000000-0000-4000-8000-000000000000'),
          cond('agreement.expiration_date', 'within', 'expiring_90_days'),
          {
            combinator: 'and',
            children: [
              cond('invoice.currency', 'is', 'EUR'),
              cond('invoice.amount', 'gte', 500),
              cond('invoice.issued_date', 'on_or_after', date),
            ],
          },
        ],
      },
      {
        combinator: 'or',
        children: [
          cond('recipient.id', 'is_not', '40000000-0000-4000-8000-000000000000'),
          cond('invoice.delivery_address', 'contains', 'Oslo'),
          cond(
            'agreement.id',
            'is_any_of',
            Array.from({ length: 50 }, (_, i) => agr(i)),
          ),
          {
            combinator: 'and',
            children: [
              cond('invoice.reference', 'is', 'PO-7'),
              cond('supplier.id', 'is_none_of', ['40000000-0000-4000-8000-000000000001']),
              cond('invoice.amount', 'lte', 10),
            ],
          },
        ],
      },
      cond('agreement.expiration_date', 'after', '2020-01-01'),
      cond('invoice.issued_date', 'before', '2100-01-01'),
    ],
  },
};
const v = validateTeamFilter(raw);
if (!v.ok) throw new Error(JSON.stringify(v.errors));
export const scope: TeamScope = { organizationId: ORG, filters: [v.filter] };

const pageIds = Array.from({ length: 102 }, (_, i) => agr(i + 50));
export const statements: Record<string, Prisma.Sql> = {
  invoice_count: Prisma.sql`SELECT count(*) FROM invoices WHERE ${invoiceMetricsWhere(ORG, {}, scope)}`,
  invoice_count_plain: Prisma.sql`SELECT count(*) FROM invoices WHERE ${invoiceMetricsWhere(ORG, {}, null)}`,
  alert_count: Prisma.sql`SELECT count(*) FROM alerts WHERE organization_id = ${ORG}::uuid AND ${scopeCondition(scope, 'alert')}`,
  agreement_count: Prisma.sql`SELECT count(*) FROM agreements WHERE organization_id = ${ORG}::uuid AND ${scopeCondition(scope, 'agreement')}`,
  alert_set: Prisma.sql`SELECT count(*) FROM alerts WHERE organization_id = ${ORG}::uuid AND ${scopeSetCondition(scope, 'alert')}`,
  agreement_set: Prisma.sql`SELECT count(*) FROM agreements WHERE organization_id = ${ORG}::uuid AND ${scopeSetCondition(scope, 'agreement')}`,
  agreement_page_set: Prisma.sql`SELECT count(*) FROM agreements WHERE id = ANY(${pageIds}::uuid[]) AND organization_id = ${ORG}::uuid AND ${scopeSetCondition(scope, 'agreement', 'agreements', { ids: pageIds })}`,
  alert_batch_old: Prisma.sql`SELECT alerts.id FROM alerts WHERE alerts.organization_id = ${ORG}::uuid AND alerts.id > '00000000-0000-0000-0000-000000000000'::uuid AND ${scopeCondition(scope, 'alert')} ORDER BY alerts.id LIMIT 10000`,
  alert_batch_new: Prisma.sql`SELECT alerts.id FROM alerts WHERE alerts.organization_id = ${ORG}::uuid AND alerts.id > '00000000-0000-0000-0000-000000000000'::uuid AND ${scopeSetCondition(scope, 'alert', 'alerts', { after: '00000000-0000-0000-0000-000000000000', limit: 10000 })} ORDER BY alerts.id LIMIT 10000`,
  agreement_page: Prisma.sql`SELECT count(*) FROM agreements WHERE id = ANY(${pageIds}::uuid[]) AND organization_id = ${ORG}::uuid AND ${scopeCondition(scope, 'agreement')}`,
};

const client = new pg.Client({
  connectionString: process.env.TEAMS_BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/teams_totals_bench',
});
await client.connect();
const which = process.argv.slice(2);
for (const [name, s] of Object.entries(statements)) {
  if (which.length && !which.includes(name)) continue;
  const text = s.text;
  const r = await client.query(
    `EXPLAIN (ANALYZE, BUFFERS${process.env.FULL ? '' : ', FORMAT JSON'}) ${text}`,
    s.values,
  );
  if (process.env.FULL) {
    console.log(name);
    console.log(r.rows.map((x) => x['QUERY PLAN']).join('\n'));
    continue;
  }
  const [p] = r.rows[0]['QUERY PLAN'];
  const res = await client.query(text, s.values);
  console.log(
    name.padEnd(22),
    'result',
    res.rows.length > 1 ? res.rows.length : JSON.stringify(res.rows[0]),
    'buffers',
    p.Plan['Shared Hit Blocks'] + p.Plan['Shared Read Blocks'],
    'exec',
    p['Execution Time'].toFixed(1),
    'plan',
    p['Planning Time'].toFixed(1),
  );
}
await client.end();
