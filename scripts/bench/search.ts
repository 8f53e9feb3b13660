// npm run bench:search — GET /v1/search over HTTP on a fresh stack whose organization holds
// 100,000 invoices, 50,000 alerts, 200 agreements and 500 claims (scripts/bench/volume-seed.ts),
// next to a second organization of the same size. Queries of every kind: two-character prefixes
// that match tens of thousands of records, exact numbers, substrings in the middle of numbers,
// supplier names, words of long texts, and queries that match nothing. Prints p50 / p99 per kind
// and over all requests, against the 100 ms p99 target.
import { parseArgs } from 'node:util';
import { createOrganization } from '../../src/admin/service.js';
import { percentile, printTable, withBenchStack } from './support.js';
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
  console.log(`seeded two organizations in ${((performance.now() - startedAt) / 1000).toFixed(1)} s; measured one: ${JSON.stringify(seeded)}`);

  const url = ([, query, types]: (typeof QUERIES)[number]) => `/v1/search?${new URLSearchParams({ query, ...(types ? { types } : {}) })}`;
  for (const entry of QUERIES) {
    const response = await tenant.call(url(entry));
    if (response.status !== 200) throw new Error(`${entry[1]}: HTTP ${response.status} ${JSON.stringify(response.body)}`);
    const top = response.body.data[0];
    console.log(`  ${entry[1].padEnd(24)} ${String(response.body.data.length).padStart(3)} results; best: ${top ? `${top.type} "${top.matched_text.slice(0, 40)}" (${top.match}, ${top.score})` : '-'}`);
  }
  const byKind = new Map<string, number[]>();
  const all: number[] = [];
  for (let round = 0; round < ROUNDS + 2; round++) {
    for (const entry of QUERIES) {
      const t0 = performance.now();
      const response = await tenant.call(url(entry));
      const ms = performance.now() - t0;
      if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
      if (round < 2) continue; // warm-up
      all.push(ms);
      byKind.set(entry[0], [...(byKind.get(entry[0]) ?? []), ms]);
    }
  }
  const rows: [string, string][] = [...byKind].map(([kind, times]) => [kind, `p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms`]);
  const p99 = percentile(all, 99);
  rows.push(['all requests', `p50 ${percentile(all, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${Math.max(...all).toFixed(1)} ms (${all.length} requests)`]);
  rows.push(['p99 / target (100 ms)', (p99 / TARGET_P99_MS).toFixed(2)]);
  printTable(`GET /v1/search, ${seeded.invoices} invoices, ${seeded.alerts} alerts`, rows);
});
