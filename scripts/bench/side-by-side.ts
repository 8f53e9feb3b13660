// npm run bench:side-by-side -- --base <checkout> [--path /v1/agreements] — two versions of the
// API measured against each other on one stack: this checkout and another (a `git worktree` of
// the commit to compare with, its node_modules linked to this one's, its Prisma client generated).
// Both API processes serve the same seeded database (20,000 invoices, 500 agreements, 10,000
// alerts); requests alternate between them in rounds, so a drift of the machine, which moves the
// figures of separate runs by a lot here (docs/benchmarks.md), reaches both alike. Prints p50/p90 and the CPU each
// request costs the API process and PostgreSQL (from /proc: far steadier than latency).
//
//   git worktree add /tmp/base <commit> && ln -s "$PWD/node_modules" /tmp/base/node_modules
//   cp -r src/generated /tmp/base/src/ && npm run bench:side-by-side -- --base /tmp/base
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { repoRoot } from '../../src/infra/defaults.js';
import { freePort, spawnTypeScript, waitFor, type ManagedProcess } from '../../src/infra/process.js';
import { seedInvoiceVolume } from './invoice-volume.js';
import { percentile, printTable, withBenchStack } from './support.js';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    path: { type: 'string', default: '/v1/agreements' },
    rounds: { type: 'string', default: '30' },
    requests: { type: 'string', default: '100' },
    invoices: { type: 'string', default: '20000' },
  },
});
if (!values.base) throw new Error('--base <checkout>: the other version of the repository');
const ROUNDS = Number(values.rounds);
const PER_ROUND = Number(values.requests);

// CPU time of processes so far, in ms (utime + stime, at 100 ticks a second).
function cpuOf(pid: string | number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function postgresCpu(): number {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') total += cpuOf(pid);
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

const agent = new http.Agent({ keepAlive: true });
function get(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

interface Version {
  name: string;
  url: string;
  api: ManagedProcess;
  times: number[];
  apiCpuMs: number;
  postgresCpuMs: number;
}

await withBenchStack('side by side', async ({ stack, tenant }) => {
  const client = new pg.Client({ connectionString: stack.env.DATABASE_URL });
  await client.connect();
  await seedInvoiceVolume(client, tenant.organizationId, {
    invoices: Number(values.invoices),
    suppliers: 2000,
    agreements: 500,
    alerts: 10_000,
  });
  await client.end();
  const versions: Version[] = [];
  for (const [name, checkout] of [
    ['base', path.resolve(values.base!)],
    ['this', repoRoot],
  ] as const) {
    const port = await freePort();
    const api = spawnTypeScript(name, 'src/api.ts', {
      cwd: checkout,
      env: { ...stack.env, PORT: String(port), HOST: '127.0.0.1' },
    });
    const url = `http://127.0.0.1:${port}`;
    await waitFor(`${name} API`, async () => (await fetch(`${url}/healthz`)).ok, 60_000, api);
    versions.push({ name, url, api, times: [], apiCpuMs: 0, postgresCpuMs: 0 });
  }
  try {
    const target = (version: Version) => `${version.url}${values.path}`;
    for (const version of versions) for (let i = 0; i < 300; i++) await get(target(version), tenant.headers);
    for (let round = 0; round < ROUNDS; round++) {
      for (const version of round % 2 ? [...versions].reverse() : versions) {
        const apiBefore = cpuOf(version.api.child.pid!);
        const postgresBefore = postgresCpu();
        for (let i = 0; i < PER_ROUND; i++) {
          const startedAt = performance.now();
          const status = await get(target(version), tenant.headers);
          if (status !== 200) throw new Error(`${version.name}: ${values.path} answered ${status}`);
          version.times.push(performance.now() - startedAt);
        }
        version.apiCpuMs += cpuOf(version.api.child.pid!) - apiBefore;
        version.postgresCpuMs += postgresCpu() - postgresBefore;
      }
    }
    printTable(
      `${values.path}, ${ROUNDS * PER_ROUND} requests each, alternating in rounds of ${PER_ROUND}`,
      versions.map((version) => [
        `${version.name} (${version.name === 'base' ? values.base : 'this checkout'})`,
        `p50 ${percentile(version.times, 50).toFixed(2)} ms, p90 ${percentile(version.times, 90).toFixed(2)} ms; CPU a request: API ${(version.apiCpuMs / version.times.length).toFixed(2)} ms, PostgreSQL ${(version.postgresCpuMs / version.times.length).toFixed(2)} ms`,
      ]),
    );
  } finally {
    for (const version of versions) await version.api.stop();
  }
});
