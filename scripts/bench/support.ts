// Shared by the matching and price-import benchmarks: a fresh stack, an organization with an admin
// API key, a plain HTTP client, and polling a workflow run to its end.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { loadavg } from 'node:os';
import { addMember, createApiKey, createOrganization } from '../../src/admin/service.js';
import { loadConfig } from '../../src/config.js';
import { createDb, type Db } from '../../src/db/client.js';
import { startTestStack, type TestStack } from '../../test/setup/stack.js';

export interface BenchTenant {
  organizationId: string;
  // The admin API key's headers, for a benchmark that times its own requests.
  headers: Record<string, string>;
  call<T = any>(path: string, options?: { method?: string; body?: unknown }): Promise<{ status: number; body: T }>;
  // A GET whose response is read to its last byte but not parsed: the API's latency as a remote
  // client sees it. The client shares this process with the API, and parsing a list page's JSON
  // is the client's work, not the API's.
  timedGet(path: string): Promise<number>;
}

export interface BenchContext {
  stack: TestStack;
  db: Db;
  tenant: BenchTenant;
}

export async function withBenchStack(name: string, body: (context: BenchContext) => Promise<void>): Promise<void> {
  console.log('starting a fresh stack...');
  // Polling is far above a client's rate budget; the benchmarks lift it.
  const stack = await startTestStack({ RATE_LIMIT_REQUESTS: '100000000' });
  const db = createDb(loadConfig({ ...process.env, ...stack.env }).DATABASE_URL, 4);
  try {
    const organization = await createOrganization(db, { name });
    const user = await addMember(db, {
      organizationId: organization.id,
      email: `bench-${randomUUID()}@example.test`,
      role: 'admin',
    });
    const { key } = await createApiKey(db, { organizationId: organization.id, userId: user.id, level: 'admin' });
    const keyHeaders = { Authorization: `Bearer ${key}`, 'X-Organization-Id': organization.id };
    const call: BenchTenant['call'] = async (path, options = {}) => {
      const headers: Record<string, string> = { ...keyHeaders };
      if (options.body !== undefined) headers['Content-Type'] = 'application/json';
      const response = await request(
        `${stack.apiUrl}${path}`,
        options.method ?? 'GET',
        headers,
        options.body === undefined ? undefined : JSON.stringify(options.body),
      );
      return { status: response.status, body: response.text ? JSON.parse(response.text) : undefined };
    };
    const timedGet: BenchTenant['timedGet'] = async (path) => {
      const response = await request(`${stack.apiUrl}${path}`, 'GET', keyHeaders, undefined);
      if (response.status !== 200) throw new Error(`${path}: HTTP ${response.status} ${response.text}`);
      return response.status;
    };
    await body({ stack, db, tenant: { organizationId: organization.id, headers: keyHeaders, call, timedGet } });
    if (process.env.BENCH_KEEP_STACK) await holdForDiagnosis(stack.apiUrl, stack.env, keyHeaders);
  } finally {
    await db.$disconnect();
    await stack.stop();
  }
}

// Node's http with kept-alive connections, not fetch: fetch (undici) costs the client a measurable
// share of CPU per request on this machine (docs/benchmarks.md), which the API and the client share, and which a figure of
// the API's own latency should not carry.
const agent = new http.Agent({ keepAlive: true });

function request(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const sent = http.request(url, { method, headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

// BENCH_KEEP_STACK=1: the seeded stack stays up after the figures until Ctrl-C, to look at plans
// (psql on its DATABASE_URL) or call the API with the printed headers.
async function holdForDiagnosis(
  apiUrl: string,
  env: Record<string, string>,
  headers: Record<string, string>,
): Promise<void> {
  console.log('BENCH_KEEP_STACK: the stack stays up until Ctrl-C');
  console.log(`  API ${apiUrl}  DATABASE_URL=${env.DATABASE_URL}`);
  console.log(`  headers ${JSON.stringify(headers)}`);
  await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
}

export async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

const FINISHED = ['completed', 'completed_with_errors', 'failed', 'cancelled'];

// Polls often enough that the measured time is not dominated by the polling interval.
export async function settledRun(tenant: BenchTenant, runId: string, intervalMs = 200): Promise<any> {
  for (;;) {
    const run = await tenant.call(`/v1/workflow-runs/${runId}`);
    if (run.status !== 200) throw new Error(`run ${runId}: ${run.status} ${JSON.stringify(run.body)}`);
    if (FINISHED.includes(run.body.status)) return run.body;
    await sleep(intervalMs);
  }
}

export function seconds(startedAt: number): number {
  return (performance.now() - startedAt) / 1000;
}

export function printTable(title: string, rows: [string, string][]): void {
  console.log(`\n${title}`);
  for (const [name, value] of rows) console.log(`  ${name.padEnd(56)} ${value}`);
}

export { seededRandom } from './seeded-random.js';

// Runs `task` for indexes 0..count-1 with at most `concurrency` in flight; results in index order.
export async function inParallel<T>(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await task(index);
      }
    }),
  );
  return results;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

// The load average (1, 5, 15 minutes): benchmarks on a shared machine print it with every figure.
export function loadAverage(): string {
  return loadavg()
    .map((n) => n.toFixed(1))
    .join(' / ');
}

// What every authenticated request costs whatever it does (HTTP, authentication, the rate-limit
// budget, one row read by key): GET /v1/organization, the lightest authenticated route.
export const BASELINE_PATH = '/v1/organization';

export interface Timings {
  route: number[];
  baseline: number[];
}

// Requests to `path` taking turns with the baseline route, so both meet the same machine load;
// the first `warmup` of each are not counted.
export async function timedAgainstBaseline(
  tenant: BenchTenant,
  path: () => string,
  requests: number,
  warmup = 10,
): Promise<Timings> {
  const timings: Timings = { route: [], baseline: [] };
  for (let i = 0; i < requests + warmup; i++) {
    for (const [url, into] of [
      [path(), timings.route],
      [BASELINE_PATH, timings.baseline],
    ] as const) {
      const startedAt = performance.now();
      const response = await tenant.call(url);
      const ms = performance.now() - startedAt;
      if (response.status !== 200) throw new Error(`${url}: HTTP ${response.status} ${JSON.stringify(response.body)}`);
      if (i >= warmup) into.push(ms);
    }
  }
  return timings;
}

// p50 / p99 of a route beside the baseline's, and their ratios.
export function againstBaseline(timings: Timings): string {
  const [p50, p99, b50, b99] = [
    percentile(timings.route, 50),
    percentile(timings.route, 99),
    percentile(timings.baseline, 50),
    percentile(timings.baseline, 99),
  ];
  return `p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (baseline ${b50.toFixed(1)} / ${b99.toFixed(1)} ms; ratio ${(p50 / b50).toFixed(1)} / ${(p99 / b99).toFixed(1)})`;
}

// Statements sent by this process through `pg` (Prisma's adapter included): a counter that the
// benchmarks read before and after a step. Installed once, on first use.
let statementCount = 0;
let counting = false;
export async function statementCounter(): Promise<() => number> {
  if (!counting) {
    const pg = (await import('pg')).default;
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the client as `this`
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
      statementCount += 1;
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    counting = true;
  }
  return () => statementCount;
}
