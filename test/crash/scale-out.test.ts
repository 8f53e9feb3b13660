import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { Client as MinioClient } from 'minio';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../src/infra/defaults.js';
import { scheduleIdOf } from '../../src/integrations/schedules.js';
import { freePort, spawnTypeScript, waitFor, type ManagedProcess } from '../../src/infra/process.js';
import { call, eventually, expectError, type ApiResponse, type CallOptions } from '../support/api.js';
import { peppolInvoice } from '../support/checks.js';
import { holdCrashStackForThisFile } from '../support/crash-stack.js';
import { dispatchesFinished, testTemporal } from '../support/runs.js';
import { createTenant, keyFor, testDb, type Tenant } from '../support/tenants.js';

// Scale-out: two API processes and two workers on one PostgreSQL, Temporal and storage, as users
// run them when one machine is not enough. A mixed load goes through both APIs (Ingestion uploads,
// Organization API writes under Idempotency-Keys, check runs, an integration sync); half-way, one
// worker and one API are killed with SIGKILL and are not started again. The clients behave as real
// ones do: a request whose connection fails is sent again to the other API (with the same
// Idempotency-Key, or the same file), a request whose key is still in flight elsewhere is sent
// again a moment later. Then: no invoice lost or duplicated, one effect per key, one budget per
// key, one sync per integration, the Schedules still fire, and every run completes.
//
// The stack's own worker (supervised) and in-process API stay; the test adds a second worker and
// two API processes, kills the second worker and one of its APIs, and sends its load through its
// APIs only.

const env = inject('stackEnv');

interface ApiProcess {
  name: string;
  url: string;
  process: ManagedProcess;
}

async function startApi(name: string): Promise<ApiProcess> {
  const port = await freePort();
  const managed = spawnTypeScript(name, 'src/api.ts', {
    cwd: repoRoot,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn' },
    logFile: path.join(env.TEST_WORK_DIR!, `${name}.log`),
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(name, async () => (await fetch(`${url}/readyz`)).ok, 90_000, managed);
  return { name, url, process: managed };
}

// Temporal names a worker's pollers `<pid>@<host>` (the SDK's default identity).
async function pollerIdentities(): Promise<string[]> {
  const temporal = await testTemporal();
  const { pollers } = await temporal.workflowService.describeTaskQueue({
    namespace: 'default',
    taskQueue: { name: env.TEMPORAL_TASK_QUEUE! },
    taskQueueType: 1, // workflow tasks
  });
  return (pollers ?? []).map((poller) => poller.identity ?? '');
}

async function startWorker(name: string): Promise<ManagedProcess> {
  const managed = spawnTypeScript(name, 'src/worker.ts', {
    cwd: repoRoot,
    env: { ...env, LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn' },
    logFile: path.join(env.TEST_WORK_DIR!, `${name}.log`),
  });
  const identity = `${managed.child.pid}@${os.hostname()}`;
  await waitFor(name, async () => (await pollerIdentities()).includes(identity), 120_000, managed);
  return managed;
}

function sigkill(managed: ManagedProcess): Promise<void> {
  const exited = new Promise<void>((resolve) => managed.child.once('exit', () => resolve()));
  managed.child.kill('SIGKILL');
  return exited;
}

const isNetworkFailure = (error: unknown) => error instanceof TypeError; // fetch: refused, reset, closed
// Refused: the API was already gone. Anything else: it died with the request on the wire.
const wasRefused = (error: unknown) => (error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED';

// A client of the replicas, as behind a load balancer that drops a dead backend: it starts with
// the API it is given and moves on to the next one when a connection fails.
class Replicas {
  constructor(readonly apis: ApiProcess[]) {}

  // What the clients met, to show where the kill landed.
  refused = 0;
  lostOnTheWire = 0;
  inProgressRetries = 0;

  private failedOver(error: unknown): void {
    if (wasRefused(error)) this.refused++;
    else this.lostOnTheWire++;
  }

  async send<T = any>(
    first: number,
    path: string,
    options: CallOptions,
    deadlineMs = 100_000,
  ): Promise<ApiResponse<T> & { attempts: number }> {
    const deadline = Date.now() + deadlineMs;
    let index = first;
    for (let attempts = 1; ; attempts++) {
      const api = this.apis[index % this.apis.length]!;
      try {
        const response = await call<T>(path, { ...options, baseUrl: api.url });
        // The same key is being served by another API (or was, by one that died): a moment later
        // it is answered from the stored response, or taken over once the record is stale.
        if (
          response.status === 409 &&
          (response.body as any)?.error?.code === 'idempotency_request_in_progress' &&
          Date.now() < deadline
        ) {
          this.inProgressRetries++;
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          continue;
        }
        return { ...response, attempts };
      } catch (error) {
        if (!isNetworkFailure(error) || Date.now() > deadline) throw error;
        this.failedOver(error);
        index++;
      }
    }
  }

  // The Ingestion upload (multipart); a failed connection sends the same file to the next API.
  async upload(
    first: number,
    token: string,
    fileName: string,
    bytes: Buffer,
  ): Promise<ApiResponse & { attempts: number }> {
    let index = first;
    for (let attempts = 1; attempts <= 6; attempts++) {
      const api = this.apis[index % this.apis.length]!;
      const form = new FormData();
      form.append('primary', new Blob([bytes], { type: 'application/xml' }), fileName);
      try {
        const response = await fetch(`${api.url}/v1/invoices/upload`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}` },
          body: form,
        });
        return { status: response.status, headers: response.headers, body: await response.json(), attempts };
      } catch (error) {
        if (!isNetworkFailure(error)) throw error;
        this.failedOver(error);
        index++;
      }
    }
    throw new Error(`upload of ${fileName} failed on every API`);
  }
}

const UPLOADS = 12;
const DATA_INVOICES = 4;
const INBOX_FILES = 4;
const CONSULTING_2017 = {
  title: 'Consulting 2017',
  status: 'active',
  effective_date: '2017-01-01',
  expiration_date: '2017-12-31',
};

function invoiceAsData(number: string, supplierName: string) {
  return {
    invoice_number: number,
    issue_date: '2017-11-20',
    currency_code: 'EUR',
    supplier: { name: supplierName },
    line_items: [
      {
        description: 'item name',
        seller_item_id: 'SKU-1',
        quantity: '2',
        unit_code: 'DAY',
        unit_price: '400.00',
        net_amount: '800.00',
        vat_rate: '0.25',
      },
    ],
    amounts: { excluding_vat: '800.00', vat: '200.00', including_vat: '1000.00', payable: '1000.00' },
  };
}

// The same request with the same key through both APIs at once: one effect, both told of it.
async function bothApis(replicas: Replicas, path: string, options: CallOptions) {
  return Promise.all([replicas.send(0, path, options), replicas.send(1, path, options)]);
}

describe('scale-out: two APIs and two workers on one stack', () => {
  let replicas: Replicas;
  let secondWorker: ManagedProcess;
  let tenant: Tenant;

  holdCrashStackForThisFile();

  beforeAll(async () => {
    const [apiA, apiB, worker] = await Promise.all([startApi('api-a'), startApi('api-b'), startWorker('worker-2')]);
    replicas = new Replicas([apiA, apiB]);
    secondWorker = worker;
    tenant = await createTenant();
  }, 180_000);

  afterAll(async () => {
    await Promise.all([...(replicas?.apis ?? []).map((api) => api.process.stop()), secondWorker?.stop()]);
  });

  it('has two workers polling the task queue', async () => {
    const stackWorkerPid = readFileSync(env.WORKER_PID_FILE!, 'utf8').trim();
    const identities = await pollerIdentities();
    expect(identities).toEqual(
      expect.arrayContaining([`${stackWorkerPid}@${os.hostname()}`, `${secondWorker.child.pid}@${os.hostname()}`]),
    );
  });

  it('draws one request budget per key from both APIs', async () => {
    // The stack allows 300 requests a minute per key (RATE_LIMIT_REQUESTS); a fresh key spends
    // them half on each API, and then neither API lets another through.
    const key = await keyFor(tenant, 'read');
    const budget = Number(env.RATE_LIMIT_REQUESTS);
    const statuses: number[] = [];
    for (let sent = 0; sent < budget; sent += 20) {
      const batch = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call('/v1/organization', {
            token: key,
            organizationId: tenant.organizationId,
            baseUrl: replicas.apis[(sent + i) % 2]!.url,
          }),
        ),
      );
      statuses.push(...batch.map((response) => response.status));
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(budget);
    for (const api of replicas.apis) {
      const refused = await call('/v1/organization', {
        token: key,
        organizationId: tenant.organizationId,
        baseUrl: api.url,
      });
      expectError(refused, 429, 'rate_limit_exceeded');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('loses, duplicates and repeats nothing when a worker and an API are killed under a mixed load', async () => {
    const db = testDb();
    const temporal = await testTemporal();
    const organizationId = tenant.organizationId;
    const options = (extra: CallOptions = {}): CallOptions => ({ token: tenant.apiKey, organizationId, ...extra });

    // Before the load, through both APIs: a first invoice (its supplier is the agreement's), an
    // agreement created with one key sent to both, its price, the matches, an inbox integration.
    const seed = await replicas.upload(
      0,
      tenant.ingestionToken,
      'seed.xml',
      peppolInvoice(`SEED-${randomUUID().slice(0, 6)}`),
    );
    expect(seed.status).toBe(201);
    const seedInvoice = (
      await eventually(
        () => replicas.send(1, `/v1/invoices/${seed.body.invoice_id}`, options()),
        (r) => r.body.processing?.status === 'completed',
        60_000,
      )
    ).body;
    const supplierId: string = seedInvoice.supplier.id;
    const supplierName: string = seedInvoice.supplier.name;

    const agreementKey = { 'Idempotency-Key': `agreement-${randomUUID()}` };
    const agreements = await bothApis(
      replicas,
      '/v1/agreements',
      options({ method: 'POST', body: { ...CONSULTING_2017, supplier_ids: [supplierId] }, headers: agreementKey }),
    );
    expect(agreements.map((r) => r.status)).toEqual([201, 201]);
    expect(agreements[0].body.id).toBe(agreements[1].body.id);
    expect(agreements.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(1);
    const agreementId: string = agreements[0].body.id;
    const priceBody = {
      entries: [
        {
          description: 'item name',
          seller_item_id: 'SKU-1',
          unit: 'DAY',
          currency_code: 'EUR',
          price: { type: 'amount', amount: '350.00' },
        },
      ],
    };
    const prices = await bothApis(
      replicas,
      `/v1/agreements/${agreementId}/price-items`,
      options({ method: 'POST', body: priceBody, headers: { 'Idempotency-Key': `prices-${randomUUID()}` } }),
    );
    expect(prices.map((r) => r.status)).toEqual([201, 201]);
    expect(await db.agreement.count({ where: { organizationId } })).toBe(1);
    expect(await db.priceItem.count({ where: { agreementId } })).toBe(1);
    const refresh = await replicas.send(
      1,
      `/v1/agreements/${agreementId}/invoices/refresh`,
      options({ method: 'POST' }),
    );
    expect(refresh.status).toBe(202);
    await eventually(
      () => replicas.send(0, `/v1/workflow-runs/${refresh.body.workflow_run_id}`, options()),
      (r) => r.body.status === 'completed',
      60_000,
    );

    const endpoint = new URL(env.S3_ENDPOINT!);
    const minio = new MinioClient({
      endPoint: endpoint.hostname,
      port: Number(endpoint.port),
      useSSL: false,
      accessKey: env.S3_ACCESS_KEY!,
      secretKey: env.S3_SECRET_KEY!,
      pathStyle: true,
    });
    const bucket = `scale-${randomUUID().slice(0, 8)}`;
    await minio.makeBucket(bucket, 'us-east-1');
    const inboxNumbers = Array.from({ length: INBOX_FILES }, (_, i) => `INBOX-${i}-${randomUUID().slice(0, 6)}`);
    for (const [i, number] of inboxNumbers.entries())
      await minio.putObject(bucket, `drop/${i}.xml`, peppolInvoice(number));
    const integration = await replicas.send(
      0,
      '/v1/integrations',
      options({
        method: 'POST',
        body: {
          provider: 's3_inbox',
          name: 'Inbox',
          credentials: {
            endpoint: env.S3_ENDPOINT,
            bucket,
            prefix: 'drop/',
            access_key: env.S3_ACCESS_KEY,
            secret_key: env.S3_SECRET_KEY,
          },
        },
      }),
    );
    expect(integration.status).toBe(201);
    const integrationId: string = integration.body.id;
    expect(
      (await replicas.send(1, `/v1/integrations/${integrationId}/test`, options({ method: 'POST' }))).body.result,
    ).toBe('passed');
    // The nightly Schedule turned on through one API, read back through the other.
    expect(
      (
        await replicas.send(
          1,
          `/v1/integrations/${integrationId}`,
          options({ method: 'PATCH', body: { auto_sync: true } }),
        )
      ).body.schedule,
    ).toMatchObject({ paused: false });
    expect((await replicas.send(0, `/v1/integrations/${integrationId}`, options())).body).toMatchObject({
      auto_sync: true,
      schedule: { paused: false },
    });

    // The load. Uploads run on through the kill; the other parts send their first half before it and
    // the rest after it.
    let kill!: () => void;
    const killed = new Promise<void>((resolve) => (kill = resolve));
    const uploadNumbers = Array.from({ length: UPLOADS }, (_, i) => `UP-${i}-${randomUUID().slice(0, 6)}`);
    const uploaded = new Map<string, { invoiceId: string; status: number; attempts: number }>();
    const uploadOne = async (i: number) => {
      const response = await replicas.upload(
        i,
        tenant.ingestionToken,
        `${uploadNumbers[i]}.xml`,
        peppolInvoice(uploadNumbers[i]),
      );
      // 201, or, when an earlier attempt's answer was lost with its connection, 409 naming the
      // invoice that attempt created: either way the file is one invoice.
      const invoiceId = response.status === 201 ? response.body.invoice_id : response.body?.existing_invoice_id;
      expect(
        response.status === 201 || (response.status === 409 && response.attempts > 1),
        JSON.stringify(response.body),
      ).toBe(true);
      uploaded.set(uploadNumbers[i]!, { invoiceId, status: response.status, attempts: response.attempts });
    };
    // Uploads go on without a pause, three at a time, so the kill meets some on the wire.
    let nextUpload = 0;
    const uploads = Promise.all(
      Array.from({ length: 3 }, async () => {
        while (nextUpload < UPLOADS) await uploadOne(nextUpload++);
      }),
    );

    const dataNumbers = Array.from({ length: DATA_INVOICES }, (_, i) => `DATA-${i}-${randomUUID().slice(0, 6)}`);
    const dataResults = new Map<string, ApiResponse[]>();
    const createAsData = async (number: string) => {
      const responses = await bothApis(
        replicas,
        '/v1/invoices',
        options({
          method: 'POST',
          body: invoiceAsData(number, supplierName),
          headers: { 'Idempotency-Key': `data-${number}` },
        }),
      );
      dataResults.set(number, responses);
    };
    const dataWrites = (async () => {
      for (const number of dataNumbers.slice(0, DATA_INVOICES / 2)) await createAsData(number);
      await killed;
      for (const number of dataNumbers.slice(DATA_INVOICES / 2)) await createAsData(number);
    })();

    const checkRuns: string[][] = [];
    const checkStarts = (async () => {
      const agreementCheck = await bothApis(
        replicas,
        `/v1/agreements/${agreementId}/check`,
        options({
          method: 'POST',
          body: { include_checked: true },
          headers: { 'Idempotency-Key': `check-${randomUUID()}` },
        }),
      );
      checkRuns.push(agreementCheck.map((r) => r.body.workflow_run_id));
      expect(agreementCheck.map((r) => r.status)).toEqual([202, 202]);
      await killed;
      const invoiceCheck = await bothApis(
        replicas,
        `/v1/invoices/${seedInvoice.id}/check`,
        options({ method: 'POST', headers: { 'Idempotency-Key': `check-${randomUUID()}` } }),
      );
      checkRuns.push(invoiceCheck.map((r) => r.body.workflow_run_id));
      expect(invoiceCheck.map((r) => r.status)).toEqual([202, 202]);
    })();

    // Two sync starts of one integration at once, one through each API: one sync, one 409 naming it.
    const today = new Date().toISOString().slice(0, 10);
    const syncStarts = await Promise.all(
      replicas.apis.map((_, i) =>
        replicas.send(
          i,
          `/v1/integrations/${integrationId}/syncs`,
          options({ method: 'POST', body: { date_from: today } }),
        ),
      ),
    );
    const started = syncStarts.find((r) => r.status === 202)!;
    const refused = syncStarts.find((r) => r.status !== 202)!;
    expect(started, JSON.stringify(syncStarts.map((r) => r.body))).toBeDefined();
    expectError(refused, 409, 'sync_already_running');
    expect(refused.body.running_sync_id).toBe(started.body.id);

    // Mid-way: the first uploads are in, their imports and checks are under way.
    await eventually(
      async () => uploaded.size,
      (count) => count >= UPLOADS / 2,
      60_000,
    );
    const unfinished = await db.workflowRun.count({ where: { organizationId, status: { in: ['queued', 'running'] } } });
    expect(unfinished).toBeGreaterThan(0);
    const killedAt = new Date();
    await Promise.all([sigkill(secondWorker), sigkill(replicas.apis[1]!.process)]);
    kill();
    await Promise.all([uploads, dataWrites, checkStarts]);

    // Every run ends, and ends completed. Reading the unfinished ones through the API reconciles
    // them with Temporal (a run whose workflow the dead API never started is started then).
    await eventually(
      () => replicas.send(0, '/v1/workflow-runs?statuses=queued,running&limit=100', options()),
      (r) => r.status === 200 && r.body.data.length === 0,
      150_000,
    );
    const settledAfterKillMs = Date.now() - killedAt.getTime();
    const runs = await db.workflowRun.findMany({
      where: { organizationId },
      select: { id: true, type: true, status: true, failure: true, workflowId: true },
    });
    expect(
      runs.filter((run) => run.status !== 'completed'),
      JSON.stringify(runs.filter((run) => run.status !== 'completed')),
    ).toEqual([]);

    // The killed worker had work: its runs' histories name it, and what it held was taken over.
    const killedIdentity = `${secondWorker.child.pid}@${os.hostname()}`;
    let touchedByKilledWorker = 0;
    let takenOver = 0;
    for (const run of runs) {
      const history = await temporal.workflow.getHandle(run.workflowId ?? run.id).fetchHistory();
      const events = history.events ?? [];
      const identities = events.map(
        (event) =>
          event.workflowTaskStartedEventAttributes?.identity ?? event.activityTaskStartedEventAttributes?.identity,
      );
      if (identities.includes(killedIdentity)) touchedByKilledWorker++;
      takenOver += events.filter(
        (event) => event.workflowTaskTimedOutEventAttributes || event.activityTaskTimedOutEventAttributes,
      ).length;
    }
    expect(touchedByKilledWorker).toBeGreaterThan(0);

    // Every file and every data invoice is exactly one invoice, settled.
    const invoices = await db.invoice.findMany({
      where: { organizationId },
      select: { id: true, invoiceNumber: true, source: true, processingStatus: true, deletedAt: true },
    });
    const numbers = invoices.map((invoice) => invoice.invoiceNumber);
    for (const number of [seedInvoice.invoice_number, ...uploadNumbers, ...dataNumbers, ...inboxNumbers]) {
      expect(
        numbers.filter((n) => n === number),
        number,
      ).toHaveLength(1);
    }
    expect(invoices).toHaveLength(1 + UPLOADS + DATA_INVOICES + INBOX_FILES);
    expect(invoices.filter((invoice) => invoice.processingStatus !== 'completed' || invoice.deletedAt)).toEqual([]);
    for (const number of uploadNumbers) {
      expect(invoices.find((invoice) => invoice.invoiceNumber === number)!.id, number).toBe(
        uploaded.get(number)!.invoiceId,
      );
    }
    const imports = await db.invoiceImport.findMany({ where: { organizationId }, select: { outcome: true } });
    expect(imports).toHaveLength(1 + UPLOADS + INBOX_FILES);
    expect(imports.every((i) => i.outcome === 'imported')).toBe(true);

    // One effect per Idempotency-Key: both APIs' answers name the same invoice or run.
    for (const [number, responses] of dataResults) {
      const invoiceId = invoices.find((invoice) => invoice.invoiceNumber === number)!.id;
      for (const response of responses) {
        // 201 (the first, or its replay); 409 only when the first attempt died with the killed API
        // and the key was taken over after it went stale: the invoice it made is named.
        const named = response.status === 201 ? response.body.id : response.body?.existing_invoice_id;
        expect([201, 409], JSON.stringify(response.body)).toContain(response.status);
        expect(named, number).toBe(invoiceId);
      }
    }
    for (const [first, second] of checkRuns) {
      expect(first).toBeTruthy();
      expect(second).toBe(first);
    }
    const checkRunIds = runs.filter((run) => run.type === 'check').map((run) => run.id);
    for (const [runId] of checkRuns) expect(checkRunIds.filter((id) => id === runId)).toHaveLength(1);

    // One sync from the two starts, completed, every inbox file one invoice.
    const syncs = (await replicas.send(0, `/v1/integrations/${integrationId}/syncs`, options())).body.data;
    expect(syncs).toEqual([expect.objectContaining({ id: started.body.id, status: 'completed', trigger: 'manual' })]);
    expect(syncs[0].progress).toMatchObject({ found: INBOX_FILES, imported: INBOX_FILES, failed: 0 });

    // The Schedules go on with one worker: the integration's nightly sync fires (triggered now) and
    // completes; the notification dispatch (every 20 s on the crash stack) has fired since the kill.
    const schedule = temporal.schedule.getHandle(scheduleIdOf(integrationId));
    expect((await schedule.describe()).state.paused).toBe(false);
    await schedule.trigger();
    const nightly = await eventually(
      () => replicas.send(0, `/v1/integrations/${integrationId}/syncs`, options()),
      (r) =>
        r.body.data.some(
          (s: { trigger: string; status: string }) =>
            s.trigger === 'schedule' && !['queued', 'running'].includes(s.status),
        ),
      90_000,
    );
    expect(nightly.body.data.find((s: { trigger: string }) => s.trigger === 'schedule')).toMatchObject({
      status: 'completed',
      progress: expect.objectContaining({ found: INBOX_FILES, duplicate: INBOX_FILES }),
    });
    await dispatchesFinished(1, killedAt);

    // The kill met the load: requests failed over from the dead API.
    expect(replicas.refused + replicas.lostOnTheWire).toBeGreaterThan(0);
    console.log(
      `scale-out: ${runs.length} runs, ${touchedByKilledWorker} of them worked on by the killed worker, ${takenOver} tasks timed out and taken over; ` +
        `all settled ${(settledAfterKillMs / 1000).toFixed(1)} s after the kill; requests failed over: ${replicas.lostOnTheWire} lost on the wire, ` +
        `${replicas.refused} refused; ${replicas.inProgressRetries} retries of a key in flight elsewhere`,
    );
  }, 420_000);
});
