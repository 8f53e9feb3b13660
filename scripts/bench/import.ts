// npm run bench:import — end-to-end import throughput on a real stack (a fresh one, like the test
// suite's): uploads generated Peppol invoices through the Ingestion API, polls each to a terminal
// status, and compares with workflows that do (almost) nothing on the same Temporal server.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { addMember, createApiKey, createIngestionToken, createOrganization } from '../../src/admin/service.js';
import { loadConfig } from '../../src/config.js';
import { createDb } from '../../src/db/client.js';
import { repoRoot } from '../../src/infra/defaults.js';
import { parseInvoiceDocument } from '../../src/invoices/parsing/index.js';
import { createLogger } from '../../src/logger.js';
import { RunTypeRegistry } from '../../src/temporal/run-types.js';
import { startRun } from '../../src/runs/service.js';
import { testRunTypes } from '../../src/runs/test-run-types.js';
import { startTestStack } from '../../test/setup/stack.js';
import { coreCount, cpuDelta, stackCpuSampler } from './process-cpu.js';
import { inParallel, percentile, sleep } from './support.js';

const { values } = parseArgs({
  options: {
    invoices: { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '16' },
    warmup: { type: 'string' },
    rounds: { type: 'string' },
    'poll-ms': { type: 'string' },
  },
});
const COUNT = Number(values.invoices);
const CONCURRENCY = Number(values.concurrency);
const WARMUP = Number(values.warmup ?? CONCURRENCY * 2);
const ROUNDS = Number(values.rounds ?? 3);
const FIXED_POLL_MS = values['poll-ms'] === undefined ? null : Number(values['poll-ms']);
// How long a client waits before its n-th read (n from 0): a fixed --poll-ms, or by default
// 100 ms doubling up to 1 s, as a client that backs off does: a quick import is seen quickly,
// a slow one costs few reads.
const pollDelay = (attempt: number) => FIXED_POLL_MS ?? Math.min(1000, 100 * 2 ** attempt);
const POLLING = FIXED_POLL_MS === null ? 'polled at 100 ms doubling to 1 s' : `polled every ${FIXED_POLL_MS} ms`;
const template = readFileSync(path.resolve(repoRoot, '../shared/samples/peppol-bis3/peppol-base-example.xml'), 'utf8');

function generatedInvoice(index: number): Buffer {
  return Buffer.from(
    template.replace('<cbc:ID>Snippet1</cbc:ID>', `<cbc:ID>BENCH-${index}-${randomUUID().slice(0, 8)}</cbc:ID>`),
  );
}

// `total` split into `parts` near-equal whole numbers.
function splitInto(total: number, parts: number): number[] {
  return Array.from(
    { length: parts },
    (_, index) => Math.floor((total * (index + 1)) / parts) - Math.floor((total * index) / parts),
  );
}

function addInto(sum: Record<string, number>, delta: Record<string, number>): void {
  for (const [name, value] of Object.entries(delta)) sum[name] = (sum[name] ?? 0) + value;
}

function cpuPerUnit(delta: Record<string, number>, count: number): string {
  const parts = Object.entries(delta).map(([name, seconds]) => `${name} ${((seconds * 1000) / count).toFixed(0)}`);
  const total = Object.values(delta).reduce((a, b) => a + b, 0);
  return `${((total * 1000) / count).toFixed(0)} ms (${parts.join(', ')})`;
}

async function main() {
  console.log(`starting a fresh stack...`);
  // Polling every invoice is far above a client's rate budget; the benchmark lifts it.
  const stack = await startTestStack({ RATE_LIMIT_REQUESTS: '100000000' });
  try {
    const env = { ...process.env, ...stack.env };
    const config = loadConfig(env);
    const db = createDb(config.DATABASE_URL, 4);
    const organization = await createOrganization(db, { name: 'Benchmark' });
    const member = await addMember(db, {
      organizationId: organization.id,
      email: `bench-${randomUUID()}@example.test`,
      role: 'admin',
    });
    const { key: apiKey } = await createApiKey(db, {
      organizationId: organization.id,
      userId: member.id,
      level: 'read',
    });
    const token = (
      await createIngestionToken(db, { organizationId: organization.id, scopes: ['invoices:write', 'invoices:read'] })
    ).token;
    const files = Array.from({ length: WARMUP + COUNT }, (_, i) => generatedInvoice(i));

    // Parse time alone, in this process.
    const parseRounds = 200;
    const parseStart = performance.now();
    for (let i = 0; i < parseRounds; i++)
      await parseInvoiceDocument({ bytes: files[i % files.length]!, fileName: 'x.xml' });
    const parseMs = (performance.now() - parseStart) / parseRounds;

    // One upload until its invoice is terminal, as a client does it; its latency in ms.
    let nextFile = 0;
    const uploadTimes: number[] = [];
    const importOne = async (): Promise<number> => {
      const index = nextFile++;
      const started = performance.now();
      const form = new FormData();
      form.append('primary', new Blob([files[index]!], { type: 'application/xml' }), `bench-${index}.xml`);
      const upload = await fetch(`${stack.apiUrl}/v1/invoices/upload`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
        body: form,
      });
      if (upload.status !== 201) throw new Error(`upload ${index}: ${upload.status} ${await upload.text()}`);
      const { invoice_id } = (await upload.json()) as { invoice_id: string };
      uploadTimes.push(performance.now() - started);
      for (let attempt = 0; ; attempt++) {
        // Clients are told Retry-After: 2; reading sooner (pollDelay) keeps latency figures
        // fine-grained. The 201 already said the invoice is pending, so the first read waits too.
        await sleep(pollDelay(attempt));
        const read = await fetch(`${stack.apiUrl}/v1/invoices/${invoice_id}`, {
          headers: { Authorization: `Bearer ${token}` },
        });
        const body = (await read.json()) as { processing: { status: string } };
        if (body.processing.status === 'completed') return performance.now() - started;
        if (body.processing.status === 'failed') throw new Error(`invoice ${invoice_id} failed`);
      }
    };

    const connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS });
    const temporal = new Client({ connection });
    const emptyWorkflow = async () => {
      const handle = await temporal.workflow.start('emptyWorkflow', {
        taskQueue: config.TEMPORAL_TASK_QUEUE,
        workflowId: randomUUID(),
      });
      await handle.result();
    };
    // The stack starts the worker in the background, and it bundles the workflow code before it
    // polls (a few seconds): one empty workflow to its end says the worker is there.
    const workerWaitStart = performance.now();
    await emptyWorkflow();
    const workerWaitSeconds = (performance.now() - workerWaitStart) / 1000;

    // Warm-up, not measured: the first requests of fresh processes are slower (code not yet
    // optimized by V8, connection pools filling); the empty workflows below run warm too.
    const warmupStart = performance.now();
    const warmupLatencies = await inParallel(WARMUP, CONCURRENCY, importOne);
    const warmupSeconds = (performance.now() - warmupStart) / 1000;
    uploadTimes.length = 0;

    // Imports and empty workflows take turns (ROUNDS of each), so a drift of the machine or of
    // the Temporal server during the run reaches both sides of the ratio alike.
    await inParallel(WARMUP, CONCURRENCY, emptyWorkflow);
    const cpuNow = stackCpuSampler(stack.env);
    const importCpu: Record<string, number> = {};
    const emptyCpu: Record<string, number> = {};
    const latencies: number[] = [];
    const roundRatios: number[] = [];
    let importSeconds = 0;
    let emptySeconds = 0;
    for (const count of splitInto(COUNT, ROUNDS)) {
      // End to end: upload, then poll until terminal.
      const importCpuStart = cpuNow();
      const importStart = performance.now();
      latencies.push(...(await inParallel(count, CONCURRENCY, importOne)));
      const roundImportSeconds = (performance.now() - importStart) / 1000;
      // Runs may still be finishing (matching, the run's end) after the invoice reads completed.
      await sleep(2000);
      addInto(importCpu, cpuDelta(importCpuStart, cpuNow()));

      // The baseline on the same Temporal server, started with the same concurrency.
      const emptyCpuStart = cpuNow();
      const emptyStart = performance.now();
      await inParallel(count, CONCURRENCY, emptyWorkflow);
      const roundEmptySeconds = (performance.now() - emptyStart) / 1000;
      addInto(emptyCpu, cpuDelta(emptyCpuStart, cpuNow()));

      importSeconds += roundImportSeconds;
      emptySeconds += roundEmptySeconds;
      roundRatios.push(roundEmptySeconds / roundImportSeconds);
    }
    const importRate = COUNT / importSeconds;
    const emptyRate = COUNT / emptySeconds;

    const runDeps = {
      db,
      temporal,
      config,
      runTypes: new RunTypeRegistry(testRunTypes),
      logger: createLogger('silent', 'bench'),
    };
    const emptyRun = async () => {
      const run = await startRun(runDeps, {
        organizationId: organization.id,
        type: 'test_items',
        input: { items: [] },
      });
      await temporal.workflow.getHandle(run.id).result();
    };
    await inParallel(WARMUP, CONCURRENCY, emptyRun);
    const emptyRunStart = performance.now();
    await inParallel(COUNT, CONCURRENCY, emptyRun);
    const emptyRunRate = COUNT / ((performance.now() - emptyRunStart) / 1000);

    // The same empty run, observed the way a client observes an import: polling the API at the
    // same interval until the run is terminal. Against this, what the import adds is its own work
    // (the file's upload and storage, parsing, the invoice, matching and checks).
    const polledEmptyRun = async () => {
      const run = await startRun(runDeps, {
        organizationId: organization.id,
        type: 'test_items',
        input: { items: [] },
      });
      for (let attempt = 0; ; attempt++) {
        await sleep(pollDelay(attempt));
        const read = await fetch(`${stack.apiUrl}/v1/workflow-runs/${run.id}`, {
          headers: { Authorization: `Bearer ${apiKey}` },
        });
        const body = (await read.json()) as { status: string };
        if (['completed', 'completed_with_errors', 'failed', 'cancelled'].includes(body.status)) return;
      }
    };
    await inParallel(WARMUP, CONCURRENCY, polledEmptyRun);
    const polledEmptyRunStart = performance.now();
    await inParallel(COUNT, CONCURRENCY, polledEmptyRun);
    const polledEmptyRunRate = COUNT / ((performance.now() - polledEmptyRunStart) / 1000);

    const sorted = [...latencies].sort((a, b) => a - b);
    const rows = [
      ['invoices imported', String(COUNT)],
      ['concurrency', String(CONCURRENCY)],
      ['rounds (imports, then empty workflows, in turn)', String(ROUNDS)],
      ['waited for the worker to start polling', `${workerWaitSeconds.toFixed(1)} s`],
      [
        'warm-up before measuring (not counted)',
        WARMUP === 0
          ? 'none'
          : `${WARMUP} invoices in ${warmupSeconds.toFixed(1)} s, latency p50 ${percentile(warmupLatencies, 50).toFixed(0)} ms, max ${Math.max(...warmupLatencies).toFixed(0)} ms`,
      ],
      ['end-to-end throughput', `${importRate.toFixed(1)} invoices/s`],
      ['upload→completed latency p50', `${percentile(sorted, 50).toFixed(0)} ms`],
      ['upload→completed latency p95', `${percentile(sorted, 95).toFixed(0)} ms`],
      [
        'upload request (201) p50 / p95',
        `${percentile(
          [...uploadTimes].sort((a, b) => a - b),
          50,
        ).toFixed(0)} / ${percentile(
          [...uploadTimes].sort((a, b) => a - b),
          95,
        ).toFixed(0)} ms`,
      ],
      ['parse time per invoice', `${parseMs.toFixed(2)} ms`],
      ['empty workflow throughput', `${emptyRate.toFixed(1)} workflows/s`],
      ['empty run throughput (run read model, no items)', `${emptyRunRate.toFixed(1)} runs/s`],
      [`empty run ${POLLING} through the API, like an import`, `${polledEmptyRunRate.toFixed(1)} runs/s`],
      ['CPU per import (incl. 2 s after the last)', cpuPerUnit(importCpu, COUNT)],
      ['CPU per empty workflow', cpuPerUnit(emptyCpu, COUNT)],
      ['load average (1 min) at the end, cores', `${loadavg()[0]!.toFixed(1)}, ${coreCount}`],
      ['ratio import / empty workflow, each round', roundRatios.map((ratio) => ratio.toFixed(2)).join(', ')],
      ['ratio import / empty workflow (all rounds)', (importRate / emptyRate).toFixed(2)],
      ['ratio import / empty run', (importRate / emptyRunRate).toFixed(2)],
      ['ratio import / empty run polled like an import', (importRate / polledEmptyRunRate).toFixed(2)],
    ];
    console.log('\nImport benchmark (target: ratio import / empty workflow >= 0.5)');
    for (const [name, value] of rows) console.log(`  ${name!.padEnd(56)} ${value}`);
    await connection.close();
    await db.$disconnect();
  } finally {
    await stack.stop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
