// npm run bench:rate-limit: what the shared (PostgreSQL) rate-limit store costs per request,
// against the in-process store, on a fresh stack's database. Prints per-call latency (sequential)
// and throughput (50 at a time), and the ratio postgres / memory. No target: the figure tells
// whether the shared store's round trip matters next to a request's own queries.
import pg from 'pg';
import { loadConfig } from '../../src/config.js';
import { RequestRateLimiter, type RateLimitStore } from '../../src/http/rate-limit.js';
import { startTestStack } from '../../test/setup/stack.js';

const SEQUENTIAL = 2000;
const CONCURRENT_BATCHES = 100;
const CONCURRENCY = 50;

async function measure(store: RateLimitStore, pool: pg.Pool) {
  const limiter = new RequestRateLimiter({
    store,
    pool,
    requests: { points: 1e9, windowSeconds: 60 },
    authFailures: { points: 1e9, windowSeconds: 60 },
  });
  for (let i = 0; i < 200; i += 1) await limiter.consume(`warm:${i % 10}`);
  let started = performance.now();
  for (let i = 0; i < SEQUENTIAL; i += 1) await limiter.consume(`key:${i % 100}`);
  const perCallMs = (performance.now() - started) / SEQUENTIAL;
  started = performance.now();
  for (let batch = 0; batch < CONCURRENT_BATCHES; batch += 1) {
    await Promise.all(
      Array.from({ length: CONCURRENCY }, (_, i) => limiter.consume(`key:${(batch * CONCURRENCY + i) % 500}`)),
    );
  }
  const perSecond = (CONCURRENT_BATCHES * CONCURRENCY) / ((performance.now() - started) / 1000);
  return { perCallMs, perSecond };
}

async function main() {
  console.log('starting a fresh stack...');
  const stack = await startTestStack();
  const pool = new pg.Pool({ connectionString: loadConfig({ ...process.env, ...stack.env }).DATABASE_URL, max: 10 });
  try {
    const memory = await measure('memory', pool);
    const postgres = await measure('postgres', pool);
    const line = (name: string, r: { perCallMs: number; perSecond: number }) =>
      console.log(
        `${name.padEnd(9)} ${r.perCallMs.toFixed(3)} ms per consume (sequential, ${SEQUENTIAL})   ${Math.round(r.perSecond)} consumes/s (${CONCURRENCY} at a time)`,
      );
    line('memory', memory);
    line('postgres', postgres);
    console.log(
      `ratio postgres/memory: ${(postgres.perCallMs / memory.perCallMs).toFixed(1)}x latency, ${(memory.perSecond / postgres.perSecond).toFixed(1)}x throughput`,
    );
  } finally {
    await pool.end();
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
