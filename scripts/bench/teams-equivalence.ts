// Measures / checks the team-scope SQL on the database seeded by scripts/bench/teams-seed.sql
// Compares the per-row and the covered-set shapes of several filters: "same" for every target.
// (TEAMS_BENCH_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/teams_totals_bench):
// npx tsx scripts/bench/teams-equivalence.ts
import pg from 'pg';
import { Prisma } from '../../src/db/client.js';
import { validateTeamFilter } from '../../src/teams/filter/index.js';
import { scopeCondition, scopeSetCondition, type TeamScope } from '../../src/teams/scope.js';
const ORG = '00000000-0000-4000-8000-000000000001';
const sup = (i: number) => `10000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const agr = (i: number) => `30000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const c = (field: string, op: string, value: unknown) => ({ field, op, value });
const roots = [
  {
    combinator: 'or',
    children: [c('agreement.tag', 'is_not', '20000000-0000-4000-8000-000000000000'), c('invoice.amount', 'lt', 50)],
  },
  {
    combinator: 'and',
    children: [
      c('supplier.id', 'is_none_of', [sup(1), sup(2)]),
      c('agreement.expiration_date', 'within', 'expiring_60_days'),
      c('invoice.currency', 'is_not', 'NOK'),
    ],
  },
  {
    combinator: 'or',
    children: [
      c('agreement.id', 'is', agr(7)),
      {
        combinator: 'and',
        children: [c('invoice.delivery_address', 'not_contains', 'oslo'), c('supplier.country', 'is', 'se')],
      },
    ],
  },
  {
    combinator: 'and',
    children: [
      c('invoice.issued_date', 'within', 'last_30_days'),
      c('agreement.tag', 'is_none_of', ['20000000-0000-4000-8000-000000000001']),
    ],
  },
  { combinator: 'or', children: [c('invoice.amount', 'gt', 1990), c('recipient.id', 'is', sup(3))] },
  {
    combinator: 'and',
    children: [c('supplier.id', 'is_any_of', [sup(4)]), c('invoice.reference', 'contains', 'PO-1')],
  },
];
const client = new pg.Client({
  connectionString: process.env.TEAMS_BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/teams_totals_bench',
});
await client.connect();
const tables = { invoice: 'invoices', alert: 'alerts', agreement: 'agreements', claim: 'claims' } as const;
const page = Array.from({ length: 102 }, (_, i) => agr(i + 60));
for (const root of roots) {
  const v = validateTeamFilter({ schema_version: 1, root });
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  const scope: TeamScope = { organizationId: ORG, filters: [v.filter, v.filter] };
  for (const [target, table] of Object.entries(tables) as [keyof typeof tables, string][]) {
    const run = async (s: Prisma.Sql) =>
      (await client.query(s.text, s.values)).rows
        .map((r) => r.id)
        .sort()
        .join(',');
    const a = await run(
      Prisma.sql`SELECT id FROM ${Prisma.raw(table)} WHERE organization_id = ${ORG}::uuid AND ${scopeCondition(scope, target)}`,
    );
    const b = await run(
      Prisma.sql`SELECT id FROM ${Prisma.raw(table)} WHERE organization_id = ${ORG}::uuid AND ${scopeSetCondition(scope, target)}`,
    );
    let pageSame = true;
    if (target === 'agreement') {
      const pa = await run(
        Prisma.sql`SELECT id FROM agreements WHERE id = ANY(${page}::uuid[]) AND ${scopeCondition(scope, target)}`,
      );
      const pb = await run(
        Prisma.sql`SELECT id FROM agreements WHERE id = ANY(${page}::uuid[]) AND ${scopeSetCondition(scope, target, 'agreements', { ids: page })}`,
      );
      pageSame = pa === pb;
    }
    console.log(target, a === b && pageSame ? 'same' : 'DIFFERENT', a.split(',').filter(Boolean).length);
  }
}
await client.end();
