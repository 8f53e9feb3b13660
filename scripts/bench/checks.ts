// npm run bench:checks — compliance checks on a fresh stack: an active agreement with 5,000 price
// items and 200 generated Peppol invoices of 50 lines (5 of them overcharged) from its supplier.
// Measured: upload → settled (the import matches and checks the invoice by itself) through the
// Ingestion API, concurrently and then sequentially; checks/s of POST /v1/agreements/{id}/check
// with include_checked over all of them, first with nothing changed (every alert found again as
// it is), then after the overcharged items' agreed prices were raised (every alert found again
// with a new impact, so rewritten); and one check in this process, split into loading
// (loadCheck), the pure checkers (runCheckers) and storing (the rest of performCheck), and the
// same checks as one batch of a check run (what the batch's checks share read once).
// BENCH_PG_STATEMENTS=1 also prints each check run's PostgreSQL statements (pg-statements.ts).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Decimal } from 'decimal.js';
import { createIngestionToken } from '../../src/admin/service.js';
import { duplicateChargeChecker, runCheckers } from '../../src/checks/checkers/index.js';
import { loadCheck } from '../../src/checks/input.js';
import { performCheck, performChecks } from '../../src/checks/perform.js';
import type { Db } from '../../src/db/client.js';
import { repoRoot } from '../../src/infra/defaults.js';
import { totalsXml } from '../../test/support/large-invoice.js';
import { printPgStatements, preloadPgStatements, resetPgStatements } from './pg-statements.js';
import { cpuDelta, pidFrom, stackCpuSampler } from './process-cpu.js';
import {
  inParallel,
  percentile,
  printTable,
  seconds,
  sleep,
  withBenchStack,
  type BenchContext,
  type BenchTenant,
} from './support.js';

const { values } = parseArgs({
  options: {
    invoices: { type: 'string', default: '200' },
    lines: { type: 'string', default: '50' },
    items: { type: 'string', default: '5000' },
    concurrency: { type: 'string', default: '8' },
    sequential: { type: 'string', default: '10' },
    direct: { type: 'string', default: '50' },
  },
});
const INVOICES = Number(values.invoices);
const LINES = Number(values.lines);
const PRICE_ITEMS = Number(values.items);
const CONCURRENCY = Number(values.concurrency);
const SEQUENTIAL = Math.min(Number(values.sequential), INVOICES);
const DIRECT = Number(values.direct);
const PRICE_ITEM_CHUNK = 1000;
// Every tenth line is billed above its agreed price, by this much per unit.
const OVERCHARGE_EVERY = 10;
const OVERCHARGE = new Decimal('1.50');
// The second check run follows a raise of the overcharged items' agreed prices by this much.
const PRICE_RAISE = new Decimal('0.50');
const POLL_MS = 200;

// SAMPLES_DIR as in the tests (a git worktree has no ../shared beside it).
const template = readFileSync(
  path.resolve(
    process.env.SAMPLES_DIR ?? path.resolve(repoRoot, '../shared/samples'),
    'peppol-bis3/peppol-base-example.xml',
  ),
  'utf8',
);

// ---- the agreement's price list and the invoices billed against it ----

const articleOf = (item: number) => `ART-${String(item + 1).padStart(5, '0')}`;
// A deterministic price with two decimals, 10.00–999.99 EUR.
const agreedPrice = (item: number) => new Decimal(1000 + ((item * 7919) % 99_000)).div(100);
// The billed items are spread over the whole list, so the matcher cannot get lucky at the start.
const billedItem = (line: number) => Math.floor((line * PRICE_ITEMS) / LINES);
const isOvercharged = (line: number) => line % OVERCHARGE_EVERY === 0;

function priceItemEntries(from: number, to: number) {
  return Array.from({ length: to - from }, (_, offset) => {
    const item = from + offset;
    return {
      description: `Article ${item + 1}`,
      seller_item_id: articleOf(item),
      unit: 'stk',
      currency_code: 'EUR',
      price: { type: 'amount', amount: agreedPrice(item).toFixed(2) },
    };
  });
}

interface GeneratedLine {
  article: string;
  quantity: number;
  price: Decimal;
  net: Decimal;
  expectedImpact: Decimal | null;
}

// Quantities differ between any two invoices issued within 20 days of each other, so no line
// repeats an earlier one (the duplicate-charge checker stays quiet and the alerts are exactly the
// overcharges); invoices are issued a day apart from 2026-01-05, inside the agreement's year.
function invoiceLines(invoice: number): GeneratedLine[] {
  return Array.from({ length: LINES }, (_, line) => {
    const item = billedItem(line);
    const quantity = 1 + ((invoice + line) % 20);
    const agreed = agreedPrice(item);
    const price = isOvercharged(line) ? agreed.plus(OVERCHARGE) : agreed;
    return {
      article: articleOf(item),
      quantity,
      price,
      net: price.times(quantity),
      expectedImpact: isOvercharged(line) ? OVERCHARGE.times(quantity) : null,
    };
  });
}

const issueDateOf = (invoice: number) => new Date(Date.UTC(2026, 0, 5 + invoice)).toISOString().slice(0, 10);
const amount = (value: Decimal) => value.toFixed(2);

function lineXml(line: GeneratedLine, index: number): string {
  return `
  <cac:InvoiceLine>
    <cbc:ID>${index + 1}</cbc:ID>
    <cbc:InvoicedQuantity unitCode="C62">${line.quantity}</cbc:InvoicedQuantity>
    <cbc:LineExtensionAmount currencyID="EUR">${amount(line.net)}</cbc:LineExtensionAmount>
    <cac:Item>
      <cbc:Name>Article ${Number(line.article.slice(4))}</cbc:Name>
      <cac:SellersItemIdentification><cbc:ID>${line.article}</cbc:ID></cac:SellersItemIdentification>
      <cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>25</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory>
    </cac:Item>
    <cac:Price><cbc:PriceAmount currencyID="EUR">${amount(line.price)}</cbc:PriceAmount></cac:Price>
  </cac:InvoiceLine>`;
}

// The base example's header and parties, with our number and dates; everything from its document
// charge onwards (totals and lines) is replaced by totals that add up over the generated lines.
function invoiceXml(invoice: number, lines: GeneratedLine[], number: string): Buffer {
  const issueDate = issueDateOf(invoice);
  const lineTotal = lines.reduce((sum, line) => sum.plus(line.net), new Decimal(0));
  const vat = lineTotal.times('0.25').toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  const header = template
    .slice(0, template.indexOf('<cac:AllowanceCharge>'))
    .replace('<cbc:ID>Snippet1</cbc:ID>', `<cbc:ID>${number}</cbc:ID>`)
    .replace('<cbc:PaymentID>Snippet1</cbc:PaymentID>', `<cbc:PaymentID>${number}</cbc:PaymentID>`)
    .replace('<cbc:IssueDate>2017-11-13</cbc:IssueDate>', `<cbc:IssueDate>${issueDate}</cbc:IssueDate>`)
    .replace('<cbc:DueDate>2017-12-01</cbc:DueDate>', `<cbc:DueDate>${issueDate}</cbc:DueDate>`)
    .replace(
      '<cbc:ActualDeliveryDate>2017-11-01</cbc:ActualDeliveryDate>',
      `<cbc:ActualDeliveryDate>${issueDate}</cbc:ActualDeliveryDate>`,
    );
  const totals = totalsXml(lineTotal, vat);
  return Buffer.from(`${header}${totals}${lines.map(lineXml).join('')}\n</Invoice>\n`);
}

// ---- the Ingestion API client ----

interface Ingestion {
  upload(bytes: Buffer, fileName: string): Promise<string>;
  read(invoiceId: string): Promise<any>;
}

function ingestionClient(apiUrl: string, token: string): Ingestion {
  const headers = { Authorization: `Bearer ${token}` };
  return {
    async upload(bytes, fileName) {
      const form = new FormData();
      form.append('primary', new Blob([bytes], { type: 'application/xml' }), fileName);
      const response = await fetch(`${apiUrl}/v1/invoices/upload`, { method: 'POST', headers, body: form });
      if (response.status !== 201) throw new Error(`upload ${fileName}: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { invoice_id: string }).invoice_id;
    },
    async read(invoiceId) {
      const response = await fetch(`${apiUrl}/v1/invoices/${invoiceId}`, { headers });
      if (response.status !== 200) throw new Error(`read ${invoiceId}: ${response.status} ${await response.text()}`);
      return response.json();
    },
  };
}

const UNSETTLED = ['pending', 'processing'];

// As the spec tells clients: poll while either the import or its alert check is pending or processing.
async function settledInvoice(ingestion: Ingestion, invoiceId: string): Promise<any> {
  for (;;) {
    await sleep(POLL_MS);
    const invoice = await ingestion.read(invoiceId);
    if (invoice.processing.status === 'failed')
      throw new Error(`invoice ${invoiceId} failed: ${JSON.stringify(invoice.processing)}`);
    if (![invoice.processing.status, invoice.alerts.processing.status].some((status) => UNSETTLED.includes(status)))
      return invoice;
  }
}

async function uploadedAndSettled(
  ingestion: Ingestion,
  bytes: Buffer,
  fileName: string,
): Promise<{ invoiceId: string; ms: number; invoice: any }> {
  const started = performance.now();
  const invoiceId = await ingestion.upload(bytes, fileName);
  const invoice = await settledInvoice(ingestion, invoiceId);
  return { invoiceId, ms: performance.now() - started, invoice };
}

const latencyText = (ms: number[]) =>
  `${(percentile(ms, 50) / 1000).toFixed(2)} s / ${(percentile(ms, 95) / 1000).toFixed(2)} s`;

// ---- setup: supplier from a first upload, the agreement and its price items ----

async function setUp(tenant: BenchTenant, ingestion: Ingestion) {
  const first = await uploadedAndSettled(
    ingestion,
    Buffer.from(template.replace('<cbc:ID>Snippet1</cbc:ID>', `<cbc:ID>FIRST-${randomUUID().slice(0, 8)}</cbc:ID>`)),
    'first.xml',
  );
  const supplierId = (await tenant.call(`/v1/invoices/${first.invoiceId}`)).body.supplier?.id;
  if (!supplierId) throw new Error('the first invoice did not create a supplier');
  const agreement = await tenant.call('/v1/agreements', {
    method: 'POST',
    body: {
      title: 'Office supplies 2026',
      status: 'active',
      supplier_ids: [supplierId],
      effective_date: '2026-01-01',
      expiration_date: '2026-12-31',
    },
  });
  if (agreement.status !== 201) throw new Error(`agreement: ${agreement.status} ${JSON.stringify(agreement.body)}`);
  const started = performance.now();
  for (let from = 0; from < PRICE_ITEMS; from += PRICE_ITEM_CHUNK) {
    const created = await tenant.call(`/v1/agreements/${agreement.body.id}/price-items`, {
      method: 'POST',
      body: { entries: priceItemEntries(from, Math.min(PRICE_ITEMS, from + PRICE_ITEM_CHUNK)) },
    });
    if (created.status !== 201) throw new Error(`price items: ${created.status} ${JSON.stringify(created.body)}`);
  }
  return { agreementId: agreement.body.id as string, priceItemSeconds: seconds(started) };
}

// ---- the measurements ----

// BENCH_PROFILE_WORKER=dir: the worker is restarted just before the check run with a profiler
// preloaded, and writes its main thread's profile of the run into dir when the run has finished.
async function restartWorkerForProfile(env: Record<string, string>): Promise<number | null> {
  const dir = process.env.BENCH_PROFILE_WORKER;
  if (!dir) return null;
  process.env.NODE_OPTIONS =
    `${process.env.NODE_OPTIONS ?? ''} --require ${path.resolve(repoRoot, 'scripts/bench/cpu-profile-preload.cjs')}`.trim();
  process.env.BENCH_PROFILE_DIR = path.resolve(dir);
  const old = pidFrom(env.WORKER_PID_FILE);
  if (old) process.kill(old, 'SIGTERM');
  while (pidFrom(env.WORKER_PID_FILE) === old) await sleep(100);
  const pid = pidFrom(env.WORKER_PID_FILE);
  delete process.env.NODE_OPTIONS;
  // The new worker connects and polls before the run starts.
  await sleep(8000);
  return pid;
}

async function writeWorkerProfile(pid: number | null): Promise<void> {
  if (pid === null) return;
  process.kill(pid, 'SIGUSR2');
  await sleep(3000);
  console.log(`worker profile of the check run written to ${process.env.BENCH_PROFILE_DIR}`);
}

async function agreementCheckRun(tenant: BenchTenant, agreementId: string) {
  const started = performance.now();
  const response = await tenant.call(`/v1/agreements/${agreementId}/check`, {
    method: 'POST',
    body: { include_checked: true },
  });
  if (response.status !== 202) throw new Error(`agreement check: ${response.status} ${JSON.stringify(response.body)}`);
  for (;;) {
    const run = (await tenant.call(`/v1/workflow-runs/${response.body.workflow_run_id}`)).body;
    if (!['queued', 'running'].includes(run.status)) {
      if (run.status !== 'completed') throw new Error(`check run ended ${run.status}: ${JSON.stringify(run)}`);
      // The run's own start and finish, without the polling interval and the request.
      const runSeconds = (Date.parse(run.finished_at) - Date.parse(run.started_at ?? run.created_at)) / 1000;
      return {
        seconds: seconds(started),
        runSeconds,
        checks: run.progress.total as number,
        completed: run.progress.completed as number,
        requested: response.body.checks as number,
      };
    }
    await sleep(POLL_MS);
  }
}

// A check run measured: its time, and the CPU each process of the stack spent on it per check.
async function measuredCheckRun(
  db: Db,
  tenant: BenchTenant,
  agreementId: string,
  cpu: ReturnType<typeof stackCpuSampler>,
  title: string,
) {
  await resetPgStatements(db);
  const cpuBefore = cpu();
  const run = await agreementCheckRun(tenant, agreementId);
  const runCpu = cpuDelta(cpuBefore, cpu());
  console.log(`${title}: ${run.checks} checks in ${run.seconds.toFixed(1)} s`);
  await printPgStatements(db, title);
  const cpuPerCheck = ['worker', 'postgres', 'temporal', 'api + client']
    .map((name) => `${((runCpu[name]! * 1000) / run.checks).toFixed(1)} ms`)
    .join(' / ');
  return { ...run, cpuPerCheck };
}

// Raises the agreed price of every overcharged item: each invoice's alerts are found again with a
// smaller impact (and the invoices' checks become outdated).
async function raiseOverchargedPrices(db: Db, tenant: BenchTenant, agreementId: string) {
  const overcharged = Array.from({ length: LINES }, (_, line) => line)
    .filter(isOvercharged)
    .map(billedItem);
  const items = await db.priceItem.findMany({
    where: { agreementId, sellerItemId: { in: overcharged.map(articleOf) } },
    select: { id: true, sellerItemId: true },
  });
  const itemOf = new Map(overcharged.map((item) => [articleOf(item), item]));
  const entries = items.map((item) => ({
    id: item.id,
    price: { type: 'amount', amount: agreedPrice(itemOf.get(item.sellerItemId!)!).plus(PRICE_RAISE).toFixed(2) },
  }));
  const patched = await tenant.call(`/v1/agreements/${agreementId}/price-items`, {
    method: 'PATCH',
    body: { entries },
  });
  if (patched.status !== 200 || entries.length !== overcharged.length)
    throw new Error(`price change: ${patched.status} ${JSON.stringify(patched.body)}`);
}

interface DirectTimes {
  // A check run's batch (performChecks): what the pairs share read once, stored together.
  batchedMs: number;
  loadMs: number;
  checkersMs: number;
  duplicatesMs: number;
  performMs: number;
  priorCharges: number;
  findings: number;
}

// One check in this process against the same database, pair by pair: loadCheck and runCheckers
// on their own, then performCheck as a worker runs it (under a new run id, so it does the whole
// check: load, checkers, store). Storing is what performCheck takes beyond the other two.
async function directChecks(
  db: Db,
  organizationId: string,
  agreementId: string,
  invoiceIds: string[],
): Promise<DirectTimes> {
  const times: DirectTimes = {
    batchedMs: 0,
    loadMs: 0,
    checkersMs: 0,
    duplicatesMs: 0,
    performMs: 0,
    priorCharges: 0,
    findings: 0,
  };
  const runId = randomUUID();
  // Warm up (query compilation, JIT) on one pair, not counted.
  runCheckers((await loadCheck(db, organizationId, invoiceIds[0]!, agreementId))!.input);
  await performCheck(db, organizationId, randomUUID(), invoiceIds[0]!, agreementId);
  for (const invoiceId of invoiceIds) {
    let started = performance.now();
    const loaded = (await loadCheck(db, organizationId, invoiceId, agreementId))!;
    times.loadMs += performance.now() - started;
    started = performance.now();
    times.findings += runCheckers(loaded.input).length;
    times.checkersMs += performance.now() - started;
    // The one checker that compares every line with every earlier charge of the supplier.
    started = performance.now();
    duplicateChargeChecker.run(loaded.input);
    times.duplicatesMs += performance.now() - started;
    times.priorCharges += loaded.input.priorCharges.length;
    started = performance.now();
    await performCheck(db, organizationId, runId, invoiceId, agreementId);
    times.performMs += performance.now() - started;
  }
  // The same pairs as one batch of a check run (performCheckBatch without its two run-item statements).
  const batchRunId = randomUUID();
  const batchStarted = performance.now();
  const batched = await performChecks(
    db,
    organizationId,
    batchRunId,
    invoiceIds.map((invoiceId) => ({ invoiceId, agreementId })),
  );
  times.batchedMs = performance.now() - batchStarted;
  if (batched.errors.length > 0) throw batched.errors[0];
  const perCheck = (total: number) => total / invoiceIds.length;
  return {
    batchedMs: perCheck(times.batchedMs),
    loadMs: perCheck(times.loadMs),
    checkersMs: perCheck(times.checkersMs),
    duplicatesMs: perCheck(times.duplicatesMs),
    performMs: perCheck(times.performMs),
    priorCharges: perCheck(times.priorCharges),
    findings: times.findings,
  };
}

// The alerts on one invoice: exactly its overcharged lines, each priced (invoiced - agreed) x quantity,
// with the agreed prices raised by `raised`.
async function correctnessSample(tenant: BenchTenant, invoiceId: string, lines: GeneratedLine[], raised: Decimal) {
  const invoice = (await tenant.call(`/v1/invoices/${invoiceId}`)).body;
  const alerts = (await tenant.call(`/v1/alerts?invoice_ids=${invoiceId}&limit=100`)).body.data as any[];
  const articleOfLine = new Map<string, string>(invoice.line_items.map((line: any) => [line.id, line.seller_item_id]));
  const expected = new Map(
    lines
      .filter((line) => line.expectedImpact)
      .map((line) => [line.article, amount(OVERCHARGE.minus(raised).times(line.quantity))]),
  );
  const priceAlerts = alerts.filter((alert) => alert.provenance?.checker === 'unit_price_above_agreed');
  const right = priceAlerts.filter(
    (alert) => expected.get(articleOfLine.get(alert.invoice_item_id) ?? '') === alert.impact_amount,
  );
  const others = alerts
    .filter((alert) => alert.provenance?.checker !== 'unit_price_above_agreed')
    .map((alert) => alert.provenance?.checker);
  return {
    alerts: alerts.length,
    expected: expected.size,
    right: right.length,
    priceAlerts: priceAlerts.length,
    others,
    example: priceAlerts[0],
  };
}

async function benchmark({ stack, db, tenant }: BenchContext) {
  const { token } = await createIngestionToken(db, {
    organizationId: tenant.organizationId,
    scopes: ['invoices:write', 'invoices:read'],
  });
  const ingestion = ingestionClient(stack.apiUrl, token);
  const setupStart = performance.now();
  const { agreementId, priceItemSeconds } = await setUp(tenant, ingestion);
  console.log(
    `supplier, agreement and ${PRICE_ITEMS} price items (POST price-items, ${PRICE_ITEM_CHUNK} a request: ${priceItemSeconds.toFixed(1)} s) in ${seconds(setupStart).toFixed(1)} s`,
  );

  const generated = Array.from({ length: INVOICES }, (_, i) => {
    const lines = invoiceLines(i);
    return { lines, bytes: invoiceXml(i, lines, `CHK-${i + 1}-${randomUUID().slice(0, 8)}`) };
  });

  // (a) upload -> settled: concurrently, then the last few one at a time (with the most earlier
  // invoices of the supplier to compare against).
  const concurrent = INVOICES - SEQUENTIAL;
  const concurrentStart = performance.now();
  const concurrentRuns = await inParallel(concurrent, CONCURRENCY, (i) =>
    uploadedAndSettled(ingestion, generated[i]!.bytes, `invoice-${i + 1}.xml`),
  );
  const concurrentSeconds = seconds(concurrentStart);
  console.log(`${concurrent} invoices settled with ${CONCURRENCY} clients in ${concurrentSeconds.toFixed(1)} s`);
  const sequentialRuns = [];
  for (let i = concurrent; i < INVOICES; i++)
    sequentialRuns.push(await uploadedAndSettled(ingestion, generated[i]!.bytes, `invoice-${i + 1}.xml`));
  const settled = [...concurrentRuns, ...sequentialRuns];
  const notCompleted = settled.filter((run) => run.invoice.alerts.processing.status !== 'completed');
  if (notCompleted.length > 0)
    throw new Error(
      `${notCompleted.length} invoices were not checked: ${JSON.stringify(notCompleted[0]!.invoice.alerts)}`,
    );

  // (b) the agreement's check run over all of them, nothing changed; then again after a price change.
  const profiled = await restartWorkerForProfile(stack.env);
  const cpu = stackCpuSampler(stack.env);
  const run = await measuredCheckRun(db, tenant, agreementId, cpu, 'agreement check run');
  await writeWorkerProfile(profiled);
  await raiseOverchargedPrices(db, tenant, agreementId);
  const changed = await measuredCheckRun(db, tenant, agreementId, cpu, 'agreement check run after a price change');

  // (c) one check in this process.
  const invoiceIds = settled.map((s) => s.invoiceId);
  const directIds = invoiceIds.slice(-Math.min(DIRECT, invoiceIds.length));
  const direct = await directChecks(db, tenant.organizationId, agreementId, directIds);

  const sampleIndex = INVOICES - 1;
  const sample = await correctnessSample(tenant, invoiceIds[sampleIndex]!, generated[sampleIndex]!.lines, PRICE_RAISE);
  const storeMs = direct.performMs - direct.loadMs - direct.checkersMs;
  printTable(`Compliance check benchmark (${INVOICES} invoices × ${LINES} lines, ${PRICE_ITEMS} price items)`, [
    ['upload → settled, concurrent: invoices, clients', `${concurrent}, ${CONCURRENCY}`],
    ['upload → settled, concurrent: p50 / p95', latencyText(concurrentRuns.map((r) => r.ms))],
    ['upload → settled, concurrent: throughput', `${(concurrent / concurrentSeconds).toFixed(2)} invoices/s`],
    [`upload → settled, sequential (${SEQUENTIAL}): p50 / p95`, latencyText(sequentialRuns.map((r) => r.ms))],
    ['upload → settled, all: p50 / p95', latencyText(settled.map((r) => r.ms))],
    [
      'agreement check run (include_checked): checks',
      `${run.checks} (requested ${run.requested}, completed ${run.completed})`,
    ],
    [
      'agreement check run: POST → polled completed',
      `${run.seconds.toFixed(1)} s, ${(run.checks / run.seconds).toFixed(1)} checks/s`,
    ],
    [
      'agreement check run: run started → finished',
      `${run.runSeconds.toFixed(1)} s, ${(run.checks / run.runSeconds).toFixed(1)} checks/s`,
    ],
    ['agreement check run: CPU per check, worker / postgres / temporal / api + client', run.cpuPerCheck],
    ['after a price change (every alert rewritten): checks', `${changed.checks} (completed ${changed.completed})`],
    [
      'after a price change: run started → finished',
      `${changed.runSeconds.toFixed(1)} s, ${(changed.checks / changed.runSeconds).toFixed(1)} checks/s`,
    ],
    ['after a price change: CPU per check, worker / postgres / temporal / api + client', changed.cpuPerCheck],
    [`in process, ${directIds.length} checks as one batch: performChecks`, `${direct.batchedMs.toFixed(1)} ms/check`],
    [`in process, ${directIds.length} checks one by one: performCheck`, `${direct.performMs.toFixed(1)} ms/check`],
    [
      '  of which loadCheck',
      `${direct.loadMs.toFixed(1)} ms (${direct.priorCharges.toFixed(0)} prior charge lines loaded)`,
    ],
    [
      '  of which runCheckers (pure)',
      `${direct.checkersMs.toFixed(1)} ms (${(direct.findings / directIds.length).toFixed(1)} findings)`,
    ],
    ['    of which duplicate_charge (measured alone)', `${direct.duplicatesMs.toFixed(1)} ms`],
    ['  of which storing (check, findings, alerts, status)', `${storeMs.toFixed(1)} ms`],
    [
      'sample invoice: alerts (ingestion alerts.count)',
      `${sample.alerts} (${settled[sampleIndex]!.invoice.alerts.count ?? '?'})`,
    ],
    [
      'sample invoice: overcharge alerts right / expected',
      `${sample.right} / ${sample.expected} (other alerts: ${sample.others.join(', ') || 'none'})`,
    ],
    [
      'sample overcharge alert',
      sample.example
        ? `${sample.example.impact_amount} ${sample.example.currency_code}, ${sample.example.confidence?.level}`
        : '-',
    ],
    ['load average (1 min) at the end', loadavg()[0]!.toFixed(1)],
  ]);
  if (
    run.checks !== INVOICES ||
    run.completed !== INVOICES ||
    changed.checks !== INVOICES ||
    changed.completed !== INVOICES ||
    sample.right !== sample.expected ||
    sample.alerts !== sample.expected
  )
    throw new Error('the checks did not produce the expected alerts');
}

preloadPgStatements();
await withBenchStack('Compliance check benchmark', benchmark).then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
