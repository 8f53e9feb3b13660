// npm run bench:overview — GET /v1/overview over HTTP on a fresh stack whose organization holds
// 100,000 invoices and 50,000 alerts (scripts/bench/volume-seed.ts), plus a second organization
// of the same size so every figure is read next to another tenant's rows. Prints p50 / p99 / max
// of sequential requests against the 100 ms p99 target, beside the lightest authenticated route
// (GET /v1/organization) taking turns with it, and the load average.
import { parseArgs } from 'node:util';
import { createOrganization } from '../../src/admin/service.js';
import { Prisma, type Db } from '../../src/db/client.js';
import { overview } from '../../src/overview/service.js';
import {
  againstBaseline,
  BASELINE_PATH,
  loadAverage,
  percentile,
  printTable,
  timedAgainstBaseline,
  withBenchStack,
} from './support.js';
import { countsOf, seedVolume } from './volume-seed.js';

const { values } = parseArgs({
  options: {
    invoices: { type: 'string', default: '100000' },
    alerts: { type: 'string', default: '50000' },
    requests: { type: 'string', default: '300' },
    // Prints each statement's plan and execution time (EXPLAIN ANALYZE) once, then measures.
    explain: { type: 'boolean', default: false },
  },
});
const OPTIONS = { invoices: Number(values.invoices), alerts: Number(values.alerts), agreements: 200, claims: 500 };
const REQUESTS = Number(values.requests);
const TARGET_P99_MS = 100;

await withBenchStack('Overview bench', async ({ db, tenant }) => {
  const startedAt = performance.now();
  const neighbour = await createOrganization(db, { name: 'Neighbour' });
  await seedVolume(db, neighbour.id, OPTIONS);
  await seedVolume(db, tenant.organizationId, OPTIONS);
  const seeded = await countsOf(db, tenant.organizationId);
  console.log(
    `seeded two organizations in ${((performance.now() - startedAt) / 1000).toFixed(1)} s; measured one: ${JSON.stringify(seeded)}`,
  );

  if (values.explain) await explainStatements(db, tenant.organizationId);
  const first = await tenant.call('/v1/overview');
  if (first.status !== 200) throw new Error(`overview: HTTP ${first.status} ${JSON.stringify(first.body)}`);
  console.log(
    JSON.stringify({
      invoices: first.body.invoices,
      alerts: first.body.alerts,
      claims: first.body.claims,
      next_steps: first.body.next_steps.length,
    }),
  );
  const loadBefore = loadAverage();
  const timings = await timedAgainstBaseline(tenant, () => '/v1/overview', REQUESTS, 20);
  const p99 = percentile(timings.route, 99);
  printTable(
    `GET /v1/overview, ${seeded.invoices} invoices and ${seeded.alerts} alerts, ${REQUESTS} sequential requests`,
    [
      ['GET /v1/overview', againstBaseline(timings)],
      [
        `baseline: ${BASELINE_PATH}`,
        `p50 ${percentile(timings.baseline, 50).toFixed(1)} ms, p99 ${percentile(timings.baseline, 99).toFixed(1)} ms`,
      ],
      ['max', `${Math.max(...timings.route).toFixed(1)} ms`],
      ['p99 / target (100 ms)', `${(p99 / TARGET_P99_MS).toFixed(2)}`],
      ['load average before / after (1 / 5 / 15 min)', `${loadBefore}; ${loadAverage()}`],
    ],
  );
});

// Runs the overview in this process with every statement explained, then timed alone (median
// of 20 runs, one statement at a time), so a slow part shows itself.
async function explainStatements(db: Db, organizationId: string) {
  const statements: { sql: string; params: unknown[] }[] = [];
  const recording = {
    $transaction: (steps: Promise<unknown>[]) => Promise.all(steps),
    $executeRawUnsafe: async () => 0,
    $queryRawUnsafe: async (sql: string, ...params: unknown[]) => {
      statements.push({ sql, params });
      return db.$queryRawUnsafe(sql, ...params);
    },
    // Statements composed with Prisma.sql: recorded as text with $n placeholders and their values.
    $queryRaw: async (query: Prisma.Sql) => {
      statements.push({ sql: query.text, params: query.values });
      return db.$queryRaw(query);
    },
  } as unknown as Db;
  await overview({ db: recording }, organizationId);
  const rows: [string, string][] = [];
  for (const { sql, params } of statements) {
    const plan = await db.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, ...params);
    const name = sql.trim().replace(/\s+/g, ' ').slice(0, 60);
    console.log(`\n${name}\n${plan.map((row) => row['QUERY PLAN']).join('\n')}`);
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const startedAt = performance.now();
      await db.$transaction([
        db.$executeRawUnsafe('SET LOCAL max_parallel_workers_per_gather = 0'),
        db.$queryRawUnsafe(sql, ...params),
      ]);
      times.push(performance.now() - startedAt);
    }
    rows.push([name, `${percentile(times, 50).toFixed(1)} ms`]);
  }
  printTable('each statement alone (median of 20)', rows);
}
