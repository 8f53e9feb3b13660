// npm run bench:search — GET /v1/search over HTTP on a fresh stack whose organization holds
// 100,000 invoices, 50,000 alerts, 200 agreements and 500 claims (scripts/bench/volume-seed.ts),
// next to a second organization of the same size. Queries of every kind: two-character prefixes
// that match tens of thousands of records, exact numbers, substrings in the middle of numbers,
// supplier names, words of long texts, and queries that match nothing. Prints p50 / p99 per kind
// and over all requests, against the 100 ms p99 target.
import { parseArgs } from 'node:util';
import { createOrganization } from '../../src/admin/service.js';
import {
  againstBaseline,
  loadAverage,
  percentile,
  printTable,
  timedAgainstBaseline,
  withBenchStack,
  type Timings,
} from './support.js';
import { countsOf, seedVolume } from './volume-seed.js';

const { values } = parseArgs({
  options: {
    invoices: { type: 'string', default: '100000' },
    alerts: { type: 'string', default: '50000' },
    rounds: { type: 'string', default: '20' },
  },
});
const OPTIONS = { invoices: Number(values.invoices), alerts: Number(values.alerts), agreements: 200, claims: 500 };
const ROUNDS = Number(values.rounds);
const TARGET_P99_MS = 100;

const QUERIES: [kind: string, query: string, types?: string][] = [
  ['2-character prefix, all types', 'IN'],
  ['2-character prefix, all types', 'No'],
  ['2-character prefix, invoices', 'in', 'invoice'],
  ['exact invoice number', 'INV-0042137'],
  ['number prefix', 'INV-00421'],
  ['number substring (middle)', '42137'],
  ['substring matching ~all numbers', 'nv-0'],
  ['supplier name', 'Nordic Paper'],
  ['name substring', 'ogistic'],
  ['alert title words', 'freight charged'],
  ['long-text words', 'agreement allows item'],
  ['claim reference', 'CLM-2026-0042'],
  ['no match', 'zzqqxx'],
  ['no match, 2 characters', 'qz'],
];

await withBenchStack('Search bench', async ({ db, tenant }) => {
  const startedAt = performance.now();
  const neighbour = await createOrganization(db, { name: 'Neighbour' });
  await seedVolume(db, neighbour.id, OPTIONS);
  await seedVolume(db, tenant.organizationId, OPTIONS);
  const seeded = await countsOf(db, tenant.organizationId);
  console.log(
    `seeded two organizations in ${((performance.now() - startedAt) / 1000).toFixed(1)} s; measured one: ${JSON.stringify(seeded)}`,
  );

  const url = ([, query, types]: (typeof QUERIES)[number]) =>
    `/v1/search?${new URLSearchParams({ query, ...(types ? { types } : {}) }).toString()}`;
  for (const entry of QUERIES) {
    const response = await tenant.call(url(entry));
    if (response.status !== 200)
      throw new Error(`${entry[1]}: HTTP ${response.status} ${JSON.stringify(response.body)}`);
    const top = response.body.data[0];
    console.log(
      `  ${entry[1].padEnd(24)} ${String(response.body.data.length).padStart(3)} results; best: ${top ? `${top.type} "${top.matched_text.slice(0, 40)}" (${top.match}, ${top.score})` : '-'}`,
    );
  }
  const loadBefore = loadAverage();
  // Rounds over every query kind (each request followed by one to the baseline route).
  const byKind = new Map<string, Timings>();
  const all: Timings = { route: [], baseline: [] };
  for (let round = 0; round < ROUNDS + 2; round++) {
    for (const entry of QUERIES) {
      const warmup = round < 2; // the first two rounds are not counted
      const timings = await timedAgainstBaseline(tenant, () => url(entry), warmup ? 0 : 1, warmup ? 1 : 0);
      const kind = byKind.get(entry[0]) ?? byKind.set(entry[0], { route: [], baseline: [] }).get(entry[0])!;
      for (const into of [kind, all]) {
        into.route.push(...timings.route);
        into.baseline.push(...timings.baseline);
      }
    }
  }
  const rows: [string, string][] = [...byKind].map(([kind, timings]) => [kind, againstBaseline(timings)]);
  const p99 = percentile(all.route, 99);
  rows.push([
    'all requests',
    `${againstBaseline(all)}, max ${Math.max(...all.route).toFixed(1)} ms (${all.route.length} requests)`,
  ]);
  rows.push(['p99 / target (100 ms)', (p99 / TARGET_P99_MS).toFixed(2)]);
  rows.push(['load average before / after (1 / 5 / 15 min)', `${loadBefore}; ${loadAverage()}`]);
  printTable(`GET /v1/search, ${seeded.invoices} invoices, ${seeded.alerts} alerts`, rows);
});
