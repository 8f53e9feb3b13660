// npm run bench:teams — mine=true on the invoice and alert lists of an organization with 100,000
// invoices (200 suppliers, one agreement each, every invoice matched, 20,000 alerts), the caller in
// one team whose filter has 20 conditions over 3 levels (every condition kind, positive and
// negative, agreement conditions reached through the invoices' matches). Prints p50 and p99 of
// the first page (50 records) with and without mine=true, and their ratio, then the team-scoped
// totals (invoice and alert metrics) and the agreement list. Target: p99 under 100 ms for the
// invoice and alert lists. Timings move with the machine's load; the buffers PostgreSQL touches
// per statement (EXPLAIN ANALYZE, BUFFERS) do not, so they are printed too.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { Prisma, type Db } from '../../src/db/client.js';
import { invoiceMetricsWhere } from '../../src/invoices/metrics.js';
import { coveredIdsStatement, scopeOfMember, type TeamScope } from '../../src/teams/scope.js';
import { percentile, printTable, seededRandom, withBenchStack, type BenchContext } from './support.js';

const { values } = parseArgs({
  options: {
    invoices: { type: 'string', default: '100000' },
    requests: { type: 'string', default: '200' },
    'total-requests': { type: 'string', default: '20' },
  },
});
const INVOICES = Number(values.invoices);
const REQUESTS = Number(values.requests);
const TOTAL_REQUESTS = Number(values['total-requests']);
const SUPPLIERS = 200;
const COUNTRIES = ['NO', 'SE', 'DK', 'FI', 'DE'];
const DAY = 86_400_000;

async function seed({ db, tenant }: BenchContext) {
  const organizationId = tenant.organizationId;
  const random = seededRandom(13);
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  const suppliers = Array.from({ length: SUPPLIERS }, (_, i) => ({
    id: randomUUID(),
    organizationId,
    name: `Supplier ${i}`,
    orgNumber: String(900_000_000 + i),
    countryCode: COUNTRIES[i % COUNTRIES.length]!,
  }));
  await db.supplier.createMany({ data: suppliers });
  const tags = [randomUUID(), randomUUID()];
  await db.tag.createMany({ data: tags.map((id, i) => ({ id, organizationId, name: `Tag ${i}` })) });
  const agreements = suppliers.map((supplier, i) => ({
    id: randomUUID(),
    supplierId: supplier.id,
    tagId: tags[i % 2]!,
    expiration: new Date(today + ((i % 400) - 100) * DAY),
  }));
  for (const agreement of agreements) {
    await db.agreement.create({
      data: {
        id: agreement.id,
        organizationId,
        title: `Agreement ${agreement.id.slice(0, 6)}`,
        status: 'active',
        expirationDate: agreement.expiration,
        suppliers: { create: [{ supplierId: agreement.supplierId }] },
        tags: { create: [{ tagId: agreement.tagId }] },
      },
    });
  }
  const invoices = Array.from({ length: INVOICES }, (_, i) => {
    const s = i % SUPPLIERS;
    return {
      id: randomUUID(),
      organizationId,
      source: 'api',
      processingStatus: 'completed' as const,
      documentType: 'invoice' as const,
      invoiceNumber: `T-${String(i + 1).padStart(7, '0')}`,
      issueDate: new Date(today - Math.floor(random() * 300) * DAY),
      currencyCode: i % 3 === 0 ? 'NOK' : 'EUR',
      taxInclusiveAmount: new Prisma.Decimal((random() * 2000).toFixed(2)),
      orderReference: i % 7 === 0 ? `PO-${i}` : null,
      deliveryAddress:
        i % 5 === 0 ? { lines: [`Street ${i}`], city: 'Oslo', postalCode: '0150', countryCode: 'NO' } : Prisma.DbNull,
      supplierId: suppliers[s]!.id,
    };
  });
  for (let i = 0; i < invoices.length; i += 5000) await db.invoice.createMany({ data: invoices.slice(i, i + 5000) });
  const matches = invoices.map((invoice, i) => ({
    invoiceId: invoice.id,
    agreementId: agreements[i % SUPPLIERS]!.id,
    organizationId,
    reasons: ['bench'],
  }));
  for (let i = 0; i < matches.length; i += 5000)
    await db.invoiceAgreementMatch.createMany({ data: matches.slice(i, i + 5000) });
  const alerts = matches
    .filter((_, i) => i % 5 === 0)
    .map((match, i) => ({
      id: randomUUID(),
      organizationId,
      invoiceId: match.invoiceId,
      agreementId: match.agreementId,
      title: `Overcharge ${i}`,
      explanation: 'Unit price above the agreed price [1].',
      impactAmount: new Prisma.Decimal('12.50'),
      currencyCode: 'EUR',
      confidenceLevel: 'certain',
      citations: [],
      origin: 'user',
    }));
  for (let i = 0; i < alerts.length; i += 5000) await db.alert.createMany({ data: alerts.slice(i, i + 5000) });
  // A steady state, as autovacuum keeps a live database: statistics and the visibility map (with
  // ANALYZE alone, autovacuum ran over the 100,000 new invoices during the first measurements).
  await db.$executeRawUnsafe('VACUUM ANALYZE');
  return { suppliers, agreements, tags, alertCount: alerts.length };
}

const cond = (field: string, op: string, value: unknown) => ({ field, op, value });

// 20 conditions over 3 levels.
function benchFilter(seeded: Awaited<ReturnType<typeof seed>>) {
  const date = new Date(Date.now() - 200 * DAY).toISOString().slice(0, 10);
  return {
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
              seeded.suppliers.slice(0, 100).map((s) => s.id),
            ),
            cond('agreement.tag', 'is', seeded.tags[0]),
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
            cond('recipient.id', 'is_not', randomUUID()),
            cond('invoice.delivery_address', 'contains', 'Oslo'),
            cond(
              'agreement.id',
              'is_any_of',
              seeded.agreements.slice(0, 50).map((a) => a.id),
            ),
            {
              combinator: 'and',
              children: [
                cond('invoice.reference', 'is', 'PO-7'),
                cond('supplier.id', 'is_none_of', [randomUUID()]),
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
}

async function measure(
  context: BenchContext,
  path: string,
  requests = REQUESTS,
): Promise<{ p50: number; p99: number; count: number }> {
  const times: number[] = [];
  let count = 0;
  for (let i = 0; i < requests + 5; i++) {
    const startedAt = performance.now();
    const response = await context.tenant.call(path);
    const elapsed = performance.now() - startedAt;
    if (response.status !== 200) throw new Error(`${path}: HTTP ${response.status} ${JSON.stringify(response.body)}`);
    count = response.body.data?.length ?? response.body.counts?.total ?? 0;
    // The first few warm the connection pool and the plan cache.
    if (i >= 5) times.push(elapsed);
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99), count };
}

interface StatementFigures {
  buffers: number;
  executionMs: number;
  planningMs: number;
}

// Shared buffers (hit + read) a statement touches: the same on a busy machine as on an idle one.
async function explained(db: Db, statement: Prisma.Sql): Promise<StatementFigures> {
  const rows = await db.$queryRaw<
    { 'QUERY PLAN': [{ Plan: Record<string, number>; 'Execution Time': number; 'Planning Time': number }] }[]
  >`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${statement}`;
  const [plan] = rows[0]!['QUERY PLAN'];
  return {
    buffers: plan.Plan['Shared Hit Blocks']! + plan.Plan['Shared Read Blocks']!,
    executionMs: plan['Execution Time'],
    planningMs: plan['Planning Time'],
  };
}

const figures = (f: StatementFigures) =>
  `${f.buffers} buffers, ${f.executionMs.toFixed(1)} ms (+ ${f.planningMs.toFixed(1)} ms planning)`;

// The statements behind mine=true, EXPLAINed: the coverage check of a first page's candidates
// (102 ids for limit 50) and the invoice metrics' count over the whole organization.
async function statementRows(db: Db, scope: TeamScope): Promise<[string, string][]> {
  const organizationId = scope.organizationId;
  const firstIds = async (table: 'invoice' | 'alert') =>
    (
      await (db[table] as any).findMany({
        where: { organizationId },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: 102,
        select: { id: true },
      })
    ).map((r: { id: string }) => r.id) as string[];
  const rows: [string, string][] = [];
  for (const target of ['invoice', 'alert'] as const) {
    rows.push([
      `coverage of a first page of ${target}s (102 candidates)`,
      figures(await explained(db, coveredIdsStatement(scope, target, await firstIds(target)))),
    ]);
  }
  const where = invoiceMetricsWhere(organizationId, {}, scope);
  rows.push([
    'invoice metrics count, mine=true',
    figures(await explained(db, Prisma.sql`SELECT count(*) FROM invoices WHERE ${where}`)),
  ]);
  rows.push([
    'invoice metrics count, no scope',
    figures(
      await explained(
        db,
        Prisma.sql`SELECT count(*) FROM invoices WHERE ${invoiceMetricsWhere(organizationId, {}, null)}`,
      ),
    ),
  ]);
  return rows;
}

await withBenchStack('Teams bench', async (context) => {
  const startedAt = performance.now();
  const seeded = await seed(context);
  console.log(
    `seeded ${INVOICES} invoices, ${seeded.alertCount} alerts in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`,
  );
  const membership = await context.db.membership.findFirstOrThrow({
    where: { organizationId: context.tenant.organizationId },
  });
  const team = await context.tenant.call('/v1/teams', {
    method: 'POST',
    body: { name: 'Bench buyers', user_ids: [membership.userId], filter: benchFilter(seeded) },
  });
  if (team.status !== 201) throw new Error(`team: ${team.status} ${JSON.stringify(team.body)}`);
  const covered = await context.tenant.call('/v1/invoices/metrics?mine=true');
  const rows: [string, string][] = [
    [`invoices covered by the team (of ${INVOICES})`, String(covered.body.counts.total)],
  ];
  const compare = async (path: string, label: string, requests: number, target?: boolean) => {
    const plain = await measure(context, path, requests);
    const mine = await measure(context, `${path}${path.includes('?') ? '&' : '?'}mine=true`, requests);
    rows.push([
      `GET ${path} (${label}: ${plain.count}) p50 / p99`,
      `${plain.p50.toFixed(1)} / ${plain.p99.toFixed(1)} ms`,
    ]);
    rows.push([
      `  with mine=true (${label}: ${mine.count}) p50 / p99`,
      `${mine.p50.toFixed(1)} / ${mine.p99.toFixed(1)} ms`,
    ]);
    rows.push([
      `  mine=true / plain (p50, p99)`,
      `${(mine.p50 / plain.p50).toFixed(2)}x, ${(mine.p99 / plain.p99).toFixed(2)}x`,
    ]);
    if (target) rows.push([`  target p99 < 100 ms`, mine.p99 < 100 ? 'met' : 'NOT met']);
  };
  await compare('/v1/invoices?limit=50', 'rows', REQUESTS, true);
  await compare('/v1/alerts?limit=50', 'rows', REQUESTS, true);
  await compare('/v1/agreements?limit=50', 'rows', TOTAL_REQUESTS);
  await compare('/v1/invoices/metrics', 'total', TOTAL_REQUESTS);
  await compare('/v1/alerts/metrics', 'total', TOTAL_REQUESTS);
  rows.push(
    ...(await statementRows(
      context.db,
      await scopeOfMember(context.db, context.tenant.organizationId, membership.userId),
    )),
  );
  rows.push([
    'load average (1, 5, 15 min) at the end',
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', '),
  ]);
  printTable(`bench:teams (${REQUESTS} requests per list, ${TOTAL_REQUESTS} per total)`, rows);
});
