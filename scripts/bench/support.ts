// Shared by the matching and price-import benchmarks: a fresh stack, an organization with an admin
// API key, a plain HTTP client, and polling a workflow run to its end.
import { randomUUID } from 'node:crypto';
import { addMember, createApiKey, createOrganization } from '../../src/admin/service.js';
import { loadConfig } from '../../src/config.js';
import { createDb, type Db } from '../../src/db/client.js';
import { startTestStack, type TestStack } from '../../test/setup/stack.js';

export interface BenchTenant {
  organizationId: string;
  // The admin API key's headers, for a benchmark that times its own requests.
  headers: Record<string, string>;
  call<T = any>(path: string, options?: { method?: string; body?: unknown }): Promise<{ status: number; body: T }>;
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
    const user = await addMember(db, { organizationId: organization.id, email: `bench-${randomUUID()}@example.test`, role: 'admin' });
    const { key } = await createApiKey(db, { organizationId: organization.id, userId: user.id, level: 'admin' });
    const keyHeaders = { Authorization: `Bearer ${key}`, 'X-Organization-Id': organization.id };
    const call: BenchTenant['call'] = async (path, options = {}) => {
      const headers: Record<string, string> = { ...keyHeaders };
      if (options.body !== undefined) headers['Content-Type'] = 'application/json';
      const response = await fetch(`${stack.apiUrl}${path}`, { method: options.method ?? 'GET', headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    };
    await body({ stack, db, tenant: { organizationId: organization.id, headers: keyHeaders, call } });
  } finally {
    await db.$disconnect();
    await stack.stop();
  }
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

// A small deterministic generator, so every run benchmarks the same data.
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Runs `task` for indexes 0..count-1 with at most `concurrency` in flight; results in index order.
export async function inParallel<T>(count: number, concurrency: number, task: (index: number) => Promise<T>): Promise<T[]> {
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
