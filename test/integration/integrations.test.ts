import { randomUUID } from 'node:crypto';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { ScheduleNotFoundError } from '@temporalio/client';
import { Client as MinioClient } from 'minio';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { parseKeyring } from '../../src/integrations/crypto.js';
import { rotateIntegrationKeys } from '../../src/integrations/key-rotation.js';
import { reconcileSchedules, scheduleIdOf } from '../../src/integrations/schedules.js';
import { createLogger } from '../../src/logger.js';
import { eventually, expectError } from '../support/api.js';
import { startOwnApi } from '../support/own-api.js';
import { ingestionUpload, sample, settledIngestionInvoice } from '../support/invoices.js';
import { testTemporal } from '../support/runs.js';
import { createTenant, keyFor, testDb, type Tenant } from '../support/tenants.js';
import { TripletexStandin } from '../support/tripletex-standin.js';

// Integrations over HTTP against the real stack: providers, setup, encryption, levels, syncs from
// both providers (Tripletex through a local stand-in of its documented API, an inbox bucket in
// the stack's MinIO), one sync at a time, resume after a failure, and the nightly Schedule.

const PERIOD = { date_from: '2026-01-01', date_through: '2026-01-31' };

function peppolWithNumber(invoiceNumber: string): Buffer {
  return Buffer.from(
    sample('peppol-bis3/peppol-base-example.xml')
      .toString('utf8')
      .replace('<cbc:ID>Snippet1</cbc:ID>', `<cbc:ID>${invoiceNumber}</cbc:ID>`),
  );
}

async function settledRun(tenant: Tenant, runId: string, timeoutMs = 60_000) {
  return (
    await eventually(
      () => tenant.call(`/v1/workflow-runs/${runId}`),
      (r) => !['queued', 'running'].includes(r.body?.status),
      timeoutMs,
    )
  ).body;
}

async function settledSync(tenant: Tenant, integrationId: string, syncId: string, timeoutMs = 60_000) {
  return (
    await eventually(
      () => tenant.call(`/v1/integrations/${integrationId}/syncs/${syncId}`),
      (r) => !['queued', 'running'].includes(r.body?.status),
      timeoutMs,
    )
  ).body;
}

// Everything Temporal keeps of the workflows with this id (every run of it), payloads as text.
async function historyText(workflowId: string): Promise<string> {
  const temporal = await testTemporal();
  let text = '';
  for await (const execution of temporal.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
    const history = await temporal.workflow.getHandle(workflowId, execution.runId).fetchHistory();
    text += JSON.stringify(history, (_key, value) =>
      value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : value,
    );
  }
  return text;
}

describe('integrations', () => {
  const standin = new TripletexStandin();
  let admin: Tenant;

  beforeAll(async () => {
    await standin.start();
    admin = await createTenant();
    standin.suppliers.push(
      { id: 501, name: 'Lieferant GmbH', organizationNumber: '999999001' },
      { id: 502, name: 'LE FOURNISSEUR', organizationNumber: '999999002' },
      { id: 503, name: 'Rohstoff AG', organizationNumber: '999999003' },
    );
    standin.invoices.push(
      {
        id: 1001,
        invoiceNumber: '471102',
        invoiceDate: '2026-01-05',
        supplierId: 501,
        pdf: sample('pdf-facturx/corpus-EN16931_Einfach.pdf'),
      },
      {
        id: 1002,
        invoiceNumber: 'F20260023',
        invoiceDate: '2026-01-10',
        supplierId: 502,
        pdf: sample('pdf-facturx/akretion-invoice_EN16931.pdf'),
      },
      {
        id: 1003,
        invoiceNumber: '47110815',
        invoiceDate: '2026-01-20',
        supplierId: 503,
        pdf: sample('pdf-facturx/mustang-EXTENDED_Fremdwaehrung_wdis_fx-pdfa4.pdf'),
      },
      // Entered twice in the accounting system: the same file as 1001.
      {
        id: 1004,
        invoiceNumber: '471102',
        invoiceDate: '2026-01-25',
        supplierId: 501,
        pdf: sample('pdf-facturx/corpus-EN16931_Einfach.pdf'),
      },
      // Outside the period.
      {
        id: 1005,
        invoiceNumber: 'OLD-1',
        invoiceDate: '2025-12-31',
        supplierId: 501,
        pdf: sample('pdf-facturx/corpus-EN16931_Rabatte.pdf'),
      },
    );
    standin.maxPageSize = 2;
  });

  afterAll(async () => {
    await standin.stop();
  });

  function tripletexCredentials(overrides: Record<string, string> = {}) {
    return {
      consumer_token: standin.consumerToken,
      employee_token: standin.employeeToken,
      base_url: standin.baseUrl,
      ...overrides,
    };
  }

  it('refuses provider addresses in loopback, private or metadata ranges, as webhooks do (SSRF), and changes nothing', async () => {
    for (const base_url of [
      'http://169.254.169.254/latest/meta-data',
      'http://localhost:8080',
      'http://10.1.2.3',
      'http://[::1]:9000',
    ]) {
      const refused = await admin.call('/v1/integrations', {
        method: 'POST',
        body: { provider: 'tripletex', name: 'Metadata', credentials: tripletexCredentials({ base_url }) },
      });
      expectError(refused, 400, 'validation_error');
      expect(refused.body.error.details, base_url).toEqual([
        expect.objectContaining({ field: 'credentials.base_url' }),
      ]);
    }
    const inbox = await admin.call('/v1/integrations', {
      method: 'POST',
      body: {
        provider: 's3_inbox',
        name: 'Inbox',
        credentials: { endpoint: 'http://192.168.0.10:9000', bucket: 'some-bucket', access_key: 'a', secret_key: 's' },
      },
    });
    expectError(inbox, 400, 'validation_error');
    expect(inbox.body.error.details).toEqual([expect.objectContaining({ field: 'credentials.endpoint' })]);
    // The stand-in on 127.0.0.1 is allowed by name in the test stack (INTEGRATION_ALLOWED_HOSTS).
    const created = await admin.call('/v1/integrations', {
      method: 'POST',
      body: { provider: 'tripletex', name: 'Allowed', credentials: tripletexCredentials() },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const moved = await admin.call(`/v1/integrations/${created.body.id}`, {
      method: 'PATCH',
      body: { credentials: { base_url: 'http://169.254.169.254' } },
    });
    expectError(moved, 400, 'validation_error');
    expect((await admin.call(`/v1/integrations/${created.body.id}`)).body.updated_at).toBe(created.body.updated_at);
  });

  it('sends saved secrets only to the address they were saved for: a new base_url or endpoint needs them sent again', async () => {
    // A host of the Admin's own, logging what reaches it (Tripletex takes the tokens in the query).
    const elsewhere = await new TripletexStandin().start();
    try {
      const created = await admin.call('/v1/integrations', {
        method: 'POST',
        body: { provider: 'tripletex', name: 'Moved', credentials: tripletexCredentials() },
      });
      expect(created.status).toBe(201);
      const id = created.body.id;
      const moved = await admin.call(`/v1/integrations/${id}`, {
        method: 'PATCH',
        body: { credentials: { base_url: elsewhere.baseUrl } },
      });
      expectError(moved, 400, 'validation_error');
      expect(moved.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
        'credentials.consumer_token',
        'credentials.employee_token',
      ]);
      expect(moved.body.error.message).toContain('base_url');
      expect((await admin.call(`/v1/integrations/${id}`)).body.updated_at).toBe(created.body.updated_at);
      // The test still goes to the saved address, and the other host heard nothing.
      expect((await admin.call(`/v1/integrations/${id}/test`, { method: 'POST' })).body.result).toBe('passed');
      expect(elsewhere.requests).toEqual([]);
      // One secret is not enough; the same address sent back needs none.
      const half = await admin.call(`/v1/integrations/${id}`, {
        method: 'PATCH',
        body: { credentials: { base_url: elsewhere.baseUrl, employee_token: 'mine' } },
      });
      expectError(half, 400, 'validation_error');
      expect(half.body.error.details.map((d: { field: string }) => d.field)).toEqual(['credentials.consumer_token']);
      expect(
        (
          await admin.call(`/v1/integrations/${id}`, {
            method: 'PATCH',
            body: { credentials: { base_url: standin.baseUrl } },
          })
        ).status,
      ).toBe(200);
      // With new secrets the address changes, and only they go there.
      const withSecrets = await admin.call(`/v1/integrations/${id}`, {
        method: 'PATCH',
        body: {
          credentials: {
            base_url: elsewhere.baseUrl,
            consumer_token: 'their-consumer',
            employee_token: 'their-employee',
          },
        },
      });
      expect(withSecrets.status).toBe(200);
      expect((await admin.call(`/v1/integrations/${id}/test`, { method: 'POST' })).body.result).toBe('failed');
      const sent = JSON.stringify(elsewhere.requests);
      expect(sent).toContain('their-employee');
      expect(sent).not.toContain(standin.employeeToken);
      expect(sent).not.toContain(standin.consumerToken);

      // An inbox's endpoint likewise; its bucket is no address.
      const inbox = await admin.call('/v1/integrations', {
        method: 'POST',
        body: {
          provider: 's3_inbox',
          name: 'Inbox',
          credentials: { endpoint: 'http://127.0.0.1:9', bucket: 'some-bucket', access_key: 'a', secret_key: 's' },
        },
      });
      expect(inbox.status).toBe(201);
      const endpoint = await admin.call(`/v1/integrations/${inbox.body.id}`, {
        method: 'PATCH',
        body: { credentials: { endpoint: 'http://127.0.0.1:10' } },
      });
      expectError(endpoint, 400, 'validation_error');
      expect(endpoint.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
        'credentials.access_key',
        'credentials.secret_key',
      ]);
      expect(
        (
          await admin.call(`/v1/integrations/${inbox.body.id}`, {
            method: 'PATCH',
            body: { credentials: { bucket: 'other-bucket' } },
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await admin.call(`/v1/integrations/${inbox.body.id}`, {
            method: 'PATCH',
            body: { credentials: { endpoint: 'http://127.0.0.1:10', access_key: 'b', secret_key: 't' } },
          })
        ).status,
      ).toBe(200);
    } finally {
      await elsewhere.stop();
    }
  });

  it('ends a call to an inbox that never answers at the request timeout (INTEGRATION_REQUEST_TIMEOUT_SECONDS)', async () => {
    // A storage endpoint that accepts the connection, reads what comes, and says nothing.
    const sockets = new Set<Socket>();
    const silent = createNetServer((socket) => {
      socket.resume();
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const api = await startOwnApi({ INTEGRATION_REQUEST_TIMEOUT_SECONDS: '1' });
    try {
      const endpoint = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const created = await admin.call('/v1/integrations', {
        method: 'POST',
        body: {
          provider: 's3_inbox',
          name: 'Silent',
          credentials: { endpoint, bucket: 'silent-inbox', access_key: 'a', secret_key: 's' },
        },
      });
      expect(created.status).toBe(201);
      const started = Date.now();
      const response = await fetch(`${api.url}/v1/integrations/${created.body.id}/test`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${admin.apiKey}`, 'X-Organization-Id': admin.organizationId },
      });
      expect(response.status).toBe(200);
      const tested = (await response.json()) as { steps: { name: string; status: string; message: string }[] };
      expect(tested.steps[0]).toMatchObject({
        name: 'sign_in',
        status: 'failed',
        message: 'The storage did not answer in time.',
      });
      // One second's timeout, not the minutes a hung connection would hold the request.
      expect(Date.now() - started).toBeLessThan(15_000);
      // The connection was closed by the service.
      await eventually(
        async () => sockets.size,
        (open) => open === 0,
        10_000,
      );
    } finally {
      await api.stop();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('lists both providers with a JSON schema of their credentials', async () => {
    const reader = await keyFor(admin, 'read');
    const response = await admin.call('/v1/integration-providers', { token: reader });
    expect(response.status).toBe(200);
    const byId = Object.fromEntries(response.body.data.map((p: { id: string }) => [p.id, p]));
    expect(Object.keys(byId).sort()).toEqual(['s3_inbox', 'tripletex']);
    expect(byId.tripletex.connect).toBe('api');
    expect(byId.tripletex.credentials_schema.required).toEqual(
      expect.arrayContaining(['consumer_token', 'employee_token']),
    );
    expect(byId.tripletex.credentials_schema.properties.base_url.default).toBe('https://tripletex.no');
    expect(byId.s3_inbox.credentials_schema.required).toEqual(
      expect.arrayContaining(['endpoint', 'bucket', 'access_key', 'secret_key']),
    );
    expect(typeof byId.s3_inbox.scope).toBe('string');
  });

  it('sets up, tests, patches and deletes an integration; secrets are encrypted and never returned; levels hold', async () => {
    const writer = await keyFor(admin, 'write');
    const reader = await keyFor(admin, 'read');
    const body = { provider: 'tripletex', name: 'Tripletex', credentials: tripletexCredentials() };
    expectError(
      await admin.call('/v1/integrations', { method: 'POST', body, token: writer }),
      403,
      'insufficient_level',
    );
    expectError(
      await admin.call('/v1/integrations', { method: 'POST', body: { ...body, provider: 'fortnox' } }),
      400,
      'validation_error',
    );
    const missing = await admin.call('/v1/integrations', {
      method: 'POST',
      body: { ...body, credentials: { consumer_token: 'x' } },
    });
    expectError(missing, 400, 'validation_error');
    expect(missing.body.error.details.map((d: { field: string }) => d.field)).toContain('credentials.employee_token');

    const created = await admin.call('/v1/integrations', { method: 'POST', body });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(created.body).toMatchObject({
      provider: 'tripletex',
      name: 'Tripletex',
      test_status: 'untested',
      auto_sync: false,
      scope: null,
    });
    expect(created.body.credentials_set).toEqual(['base_url', 'company_id', 'consumer_token', 'employee_token']);
    expect(JSON.stringify(created.body)).not.toContain(standin.employeeToken);
    const row = await testDb().integration.findUniqueOrThrow({ where: { id } });
    expect(row.credentialsKeyId).toBe('test2');
    expect(row.credentialsCiphertext).not.toContain(standin.employeeToken);
    expect(Buffer.from(row.credentialsCiphertext.split('.')[3]!, 'base64').toString('latin1')).not.toContain(
      standin.employeeToken,
    );

    const read = await admin.call(`/v1/integrations/${id}`, { token: reader });
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).not.toContain(standin.consumerToken);
    expectError(
      await admin.call(`/v1/integrations/${id}`, {
        method: 'PATCH',
        body: { name: 'x' },
        headers: { 'If-Match': '"stale"' },
      }),
      412,
      'precondition_failed',
    );
    expectError(
      await admin.call(`/v1/integrations/${id}`, { method: 'PATCH', body: { name: 'x' }, token: writer }),
      403,
      'insufficient_level',
    );
    const renamed = await admin.call(`/v1/integrations/${id}`, {
      method: 'PATCH',
      body: { name: 'Tripletex AS' },
      headers: { 'If-Match': read.headers.get('etag')! },
    });
    expect(renamed.body.name).toBe('Tripletex AS');

    // A sync before a passed test, and a test with refused tokens.
    expectError(
      await admin.call(`/v1/integrations/${id}/syncs`, { method: 'POST', body: PERIOD }),
      409,
      'integration_not_tested',
    );
    await admin.call(`/v1/integrations/${id}`, {
      method: 'PATCH',
      body: { credentials: { employee_token: 'wrong-token' } },
    });
    expectError(
      await admin.call(`/v1/integrations/${id}/test`, { method: 'POST', token: writer }),
      403,
      'insufficient_level',
    );
    const failed = await admin.call(`/v1/integrations/${id}/test`, { method: 'POST' });
    expect(failed.status).toBe(200);
    expect(failed.body.result).toBe('failed');
    expect(failed.body.steps[0]).toMatchObject({ name: 'sign_in', status: 'failed' });
    expect((await admin.call(`/v1/integrations/${id}`)).body.test_status).toBe('failed');

    // New credentials (only the changed field sent) reset the test; the right ones pass it.
    const fixed = await admin.call(`/v1/integrations/${id}`, {
      method: 'PATCH',
      body: { credentials: { employee_token: standin.employeeToken } },
    });
    expect(fixed.body.test_status).toBe('untested');
    const passed = await admin.call(`/v1/integrations/${id}/test`, { method: 'POST' });
    expect(passed.body.result).toBe('passed');
    expect(passed.body.steps.map((s: { name: string; status: string }) => `${s.name}:${s.status}`)).toEqual([
      'sign_in:passed',
      'read_invoices:passed',
      'download_invoice:passed',
    ]);

    const deleted = await admin.call(`/v1/integrations/${id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expectError(await admin.call(`/v1/integrations/${id}`), 404, 'not_found');
    const stranger = await createTenant();
    expectError(await stranger.call(`/v1/integrations/${created.body.id}`), 404, 'not_found');
  });

  it('syncs Tripletex page by page through rate limits, one sync at a time, scoped for Write, duplicates skipped; a failed sync resumes under its id', async () => {
    const tenant = await createTenant();
    const writer = await keyFor(tenant, 'write');
    const created = await tenant.call('/v1/integrations', {
      method: 'POST',
      body: { provider: 'tripletex', name: 'Tripletex', credentials: tripletexCredentials() },
    });
    const id = created.body.id;
    expect((await tenant.call(`/v1/integrations/${id}/test`, { method: 'POST' })).body.result).toBe('passed');

    const refresh = await tenant.call(`/v1/integrations/${id}/suppliers/refresh`, { method: 'POST' });
    expect(refresh.status).toBe(202);
    expect((await settledRun(tenant, refresh.body.workflow_run_id)).status).toBe('completed');
    const suppliers = (await tenant.call(`/v1/integrations/${id}/suppliers`)).body.data;
    expect(suppliers.map((s: { name: string }) => s.name)).toEqual(['LE FOURNISSEUR', 'Lieferant GmbH', 'Rohstoff AG']);
    const lieferant = suppliers.find((s: { external_id: string }) => s.external_id === '501').id;

    // Write may sync only named suppliers.
    expectError(
      await tenant.call(`/v1/integrations/${id}/syncs`, { method: 'POST', body: PERIOD, token: writer }),
      403,
      'insufficient_level',
    );
    standin.delayMs = 700;
    const scoped = await tenant.call(`/v1/integrations/${id}/syncs`, {
      method: 'POST',
      body: { ...PERIOD, scope: { supplier_ids: [lieferant] } },
      token: writer,
    });
    expect(scoped.status).toBe(202);
    expect(scoped.body.id).toBe(scoped.body.workflow_run_id);
    expect(scoped.headers.get('location')).toBe(`/v1/workflow-runs/${scoped.body.id}`);
    // One sync per integration: the database and Temporal (workflow id sync-<integration id>) both refuse a second.
    const second = await tenant.call(`/v1/integrations/${id}/syncs`, { method: 'POST', body: PERIOD });
    expectError(second, 409, 'sync_already_running');
    expect(second.body.running_sync_id).toBe(scoped.body.id);
    const description = await (await testTemporal()).workflow.getHandle(`sync-${id}`).describe();
    expect(description.memo).toMatchObject({ runId: scoped.body.id });
    standin.delayMs = 0;
    const scopedDone = await settledSync(tenant, id, scoped.body.id);
    expect(scopedDone).toMatchObject({ status: 'completed', trigger: 'manual', scope: { supplier_ids: [lieferant] } });
    // 1001 imported; 1004 is the same file: a duplicate.
    expect(scopedDone.progress).toMatchObject({ found: 2, imported: 1, duplicate: 1, failed: 0, complete: true });

    // Every supplier, through a 429 every third request and pages of two.
    standin.rateLimitEvery = 3;
    const full = await tenant.call(`/v1/integrations/${id}/syncs`, { method: 'POST', body: PERIOD });
    expect(full.status).toBe(202);
    const fullDone = await settledSync(tenant, id, full.body.id, 90_000);
    standin.rateLimitEvery = 0;
    expect(fullDone.status).toBe('completed');
    expect(fullDone.progress).toMatchObject({ found: 4, imported: 2, duplicate: 2, failed: 0 });
    expect(fullDone.pages_done).toBe(2);
    expect(standin.requests.some((r) => r.path === '/v2/supplierInvoice' && r.query.from === '2')).toBe(true);
    const invoices = await testDb().invoice.findMany({
      where: { organizationId: tenant.organizationId },
      select: { source: true, invoiceNumber: true },
    });
    expect(invoices.map((i) => i.invoiceNumber).sort()).toEqual(['471102', '47110815', 'F20260023']);
    const integration = (await tenant.call(`/v1/integrations/${id}`)).body;
    expect(integration.last_synced_through).toBe('2026-01-31');
    expect(integration.last_successful_sync_at).not.toBeNull();

    // The connection drops on the second page: after its retries the sync fails, keeping page one.
    standin.dropConnectionWhen = (r) => r.path === '/v2/supplierInvoice' && r.query.from === '2';
    const broken = await tenant.call(`/v1/integrations/${id}/syncs`, { method: 'POST', body: PERIOD });
    const failedSync = await settledSync(tenant, id, broken.body.id, 90_000);
    expect(failedSync.status).toBe('failed');
    expect(failedSync.failure.message).toBe('Tripletex could not be reached.');
    expect(failedSync.pages_done).toBe(1);
    expect(failedSync.progress).toMatchObject({ found: 2, duplicate: 2 });
    standin.dropConnectionWhen = null;
    // Resuming needs the level starting needs: this sync covers every supplier, so Write may not
    // resume it (nothing changes); a scoped one passes the level check (and is not failed: 409).
    expectError(
      await tenant.call(`/v1/workflow-runs/${broken.body.id}/retry`, { method: 'POST', token: writer }),
      403,
      'insufficient_level',
    );
    expect((await tenant.call(`/v1/workflow-runs/${broken.body.id}`)).body).toMatchObject({ status: 'failed' });
    expectError(
      await tenant.call(`/v1/workflow-runs/${scoped.body.id}/retry`, { method: 'POST', token: writer }),
      409,
      'run_not_retryable',
    );
    const resumedAt = Date.now();
    const retry = await tenant.call(`/v1/workflow-runs/${broken.body.id}/retry`, { method: 'POST' });
    expect(retry.status).toBe(202);
    expect(retry.body.id).toBe(broken.body.id);
    const resumed = await settledSync(tenant, id, broken.body.id, 90_000);
    expect(resumed).toMatchObject({ status: 'completed', attempt: 2, pages_done: 2 });
    expect(resumed.progress).toMatchObject({ found: 4, imported: 0, duplicate: 4, failed: 0 });
    // Resumed from its checkpoint: page one was not read again.
    const afterResume = standin.requests.filter((r) => r.at >= resumedAt && r.path === '/v2/supplierInvoice');
    expect(afterResume.map((r) => r.query.from)).toEqual(['2']);
    expect((await tenant.call(`/v1/integrations/${id}/syncs`)).body.data.map((s: { id: string }) => s.id)).toEqual([
      broken.body.id,
      full.body.id,
      scoped.body.id,
    ]);

    // No secret in any workflow history of the integration's syncs.
    const history = await historyText(`sync-${id}`);
    expect(history.length).toBeGreaterThan(1000);
    expect(history).toContain(id);
    expect(history).not.toContain(standin.employeeToken);
    expect(history).not.toContain(standin.consumerToken);
  });

  it('syncs an inbox bucket: XML invoices with their PDF, an uploaded file as a duplicate; the nightly Schedule follows auto_sync', async () => {
    const tenant = await createTenant();
    const env = inject('stackEnv');
    const endpoint = new URL(env.S3_ENDPOINT!);
    const minio = new MinioClient({
      endPoint: endpoint.hostname,
      port: Number(endpoint.port),
      useSSL: false,
      accessKey: env.S3_ACCESS_KEY!,
      secretKey: env.S3_SECRET_KEY!,
      pathStyle: true,
    });
    const bucket = `inbox-${randomUUID().slice(0, 8)}`;
    await minio.makeBucket(bucket, 'us-east-1');
    const uploaded = peppolWithNumber(`INBOX-UP-${randomUUID().slice(0, 6)}`);
    const upload = await ingestionUpload(tenant.ingestionToken, 'uploaded.xml', uploaded);
    expect(upload.status).toBe(201);
    await settledIngestionInvoice(tenant.ingestionToken, upload.body.invoice_id);
    await minio.putObject(bucket, 'drop/a.xml', peppolWithNumber('INBOX-A'));
    await minio.putObject(bucket, 'drop/a.pdf', sample('pdf-plain/mustang-RE-20170509_505blanko.pdf'));
    await minio.putObject(bucket, 'drop/b.xml', peppolWithNumber('INBOX-B'));
    await minio.putObject(bucket, 'drop/again.xml', uploaded);
    await minio.putObject(bucket, 'drop/notes.txt', Buffer.from('not an invoice file'));
    await minio.putObject(bucket, 'elsewhere/c.xml', peppolWithNumber('INBOX-C'));

    const secret = env.S3_SECRET_KEY!;
    const created = await tenant.call('/v1/integrations', {
      method: 'POST',
      body: {
        provider: 's3_inbox',
        name: 'Inbox',
        credentials: {
          endpoint: env.S3_ENDPOINT,
          bucket,
          prefix: 'drop/',
          access_key: env.S3_ACCESS_KEY,
          secret_key: secret,
        },
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(JSON.stringify(created.body)).not.toContain(secret);
    const tested = await tenant.call(`/v1/integrations/${id}/test`, { method: 'POST' });
    expect(tested.body.result).toBe('passed');

    const today = new Date().toISOString().slice(0, 10);
    const sync = await tenant.call(`/v1/integrations/${id}/syncs`, { method: 'POST', body: { date_from: today } });
    expect(sync.status).toBe(202);
    const done = await settledSync(tenant, id, sync.body.id);
    expect(done).toMatchObject({ status: 'completed', date_from: today, date_through: today });
    expect(done.progress).toMatchObject({ found: 3, imported: 2, duplicate: 1, failed: 0 });
    const imports = await testDb().invoiceImport.findMany({
      where: { organizationId: tenant.organizationId, source: 'sync' },
    });
    expect(imports).toHaveLength(2);
    expect(imports.map((i) => i.attachmentDocumentIds.length).sort()).toEqual([0, 1]);

    // The nightly Schedule: paused until auto_sync is on, then triggered once, paused again, removed.
    const temporal = await testTemporal();
    const schedule = temporal.schedule.getHandle(`sync-schedule-${id}`);
    expect((await schedule.describe()).state.paused).toBe(true);
    const on = await tenant.call(`/v1/integrations/${id}`, { method: 'PATCH', body: { auto_sync: true } });
    expect(on.body).toMatchObject({ auto_sync: true, schedule: { schedule_id: `sync-schedule-${id}`, paused: false } });
    // A Schedule takes a pause or unpause as a signal: its description follows a moment later.
    const pausedState = async (paused: boolean) =>
      eventually(
        () => schedule.describe(),
        (d) => d.state.paused === paused,
        10_000,
      );
    const described = await pausedState(false);
    expect(described.policies.overlap).toBe('SKIP');
    expect(described.typedSearchAttributes.getAll().map((pair) => `${pair.key.name}=${String(pair.value)}`)).toEqual(
      expect.arrayContaining([`OrganizationId=${tenant.organizationId}`, `IntegrationId=${id}`]),
    );
    await minio.putObject(bucket, 'drop/d.xml', peppolWithNumber('INBOX-D'));
    await schedule.trigger();
    const scheduled = await eventually(
      () => tenant.call(`/v1/integrations/${id}/syncs`),
      (r) =>
        r.body.data.some(
          (s: { trigger: string; status: string }) => s.trigger === 'schedule' && s.status === 'completed',
        ),
      60_000,
    );
    const nightly = scheduled.body.data.find((s: { trigger: string }) => s.trigger === 'schedule');
    // Since the last successful sync (its last day) through today.
    expect(nightly).toMatchObject({ date_from: today, date_through: today });
    expect(nightly.progress).toMatchObject({ found: 4, imported: 1, duplicate: 3 });
    expect(await historyText(`sync-${id}`)).not.toContain(secret);

    expect(
      (await tenant.call(`/v1/integrations/${id}`, { method: 'PATCH', body: { auto_sync: false } })).body.auto_sync,
    ).toBe(false);
    await pausedState(true);
    expect((await tenant.call(`/v1/integrations/${id}`, { method: 'DELETE' })).status).toBe(204);
    await expect(schedule.describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
    // Imported invoices stay.
    expect(await testDb().invoice.count({ where: { organizationId: tenant.organizationId, deletedAt: null } })).toBe(4);
  });

  it('reconciles Schedules with the database (as the worker does at start): a lost one comes back, an orphan goes', async () => {
    const tenant = await createTenant();
    const created = await tenant.call('/v1/integrations', {
      method: 'POST',
      body: {
        provider: 's3_inbox',
        name: 'Inbox',
        auto_sync: true,
        credentials: { endpoint: 'http://127.0.0.1:9', bucket: 'some-bucket', access_key: 'a', secret_key: 'b' },
      },
    });
    expect(created.status).toBe(201);
    const temporal = await testTemporal();
    const config = loadConfig({ ...process.env, ...inject('stackEnv') });
    // Deleted in Temporal UI while the integration stays; and a Schedule whose integration is gone.
    await temporal.schedule.getHandle(scheduleIdOf(created.body.id)).delete();
    const orphanId = randomUUID();
    await temporal.schedule.create({
      scheduleId: scheduleIdOf(orphanId),
      spec: { calendars: [{ hour: 2, minute: 0 }] },
      action: {
        type: 'startWorkflow',
        workflowType: 'scheduledSyncWorkflow',
        taskQueue: config.TEMPORAL_TASK_QUEUE,
        args: [{ organizationId: tenant.organizationId, integrationId: orphanId }],
      },
      state: { paused: true },
    });
    const counts = await reconcileSchedules(testDb(), temporal, config, createLogger('silent', 'test'));
    expect(counts.removed).toBeGreaterThanOrEqual(1);
    const restored = await temporal.schedule.getHandle(scheduleIdOf(created.body.id)).describe();
    expect(restored.state.paused).toBe(false);
    expect(restored.policies.overlap).toBe('SKIP');
    await expect(temporal.schedule.getHandle(scheduleIdOf(orphanId)).describe()).rejects.toBeInstanceOf(
      ScheduleNotFoundError,
    );
    await tenant.call(`/v1/integrations/${created.body.id}`, { method: 'DELETE' });
  });

  it('continues a long sync as new executions under the same workflow id, one page at a time', async () => {
    const tenant = await createTenant();
    const pdf = sample('pdf-facturx/corpus-EN16931_Rabatte.pdf');
    for (let n = 0; n < 21; n++)
      standin.invoices.push({
        id: 2000 + n,
        invoiceNumber: `FEB-${n}`,
        invoiceDate: '2026-02-10',
        supplierId: 501,
        pdf,
      });
    standin.maxPageSize = 1;
    try {
      const id = (
        await tenant.call('/v1/integrations', {
          method: 'POST',
          body: { provider: 'tripletex', name: 'Tripletex', credentials: tripletexCredentials() },
        })
      ).body.id;
      expect((await tenant.call(`/v1/integrations/${id}/test`, { method: 'POST' })).body.result).toBe('passed');
      const sync = await tenant.call(`/v1/integrations/${id}/syncs`, {
        method: 'POST',
        body: { date_from: '2026-02-01', date_through: '2026-02-28' },
      });
      const done = await settledSync(tenant, id, sync.body.id, 120_000);
      expect(done).toMatchObject({ status: 'completed', pages_done: 21 });
      expect(done.progress).toMatchObject({ found: 21, imported: 1, duplicate: 20, failed: 0, complete: true });
      const temporal = await testTemporal();
      const executions = async () => {
        const statuses: string[] = [];
        for await (const execution of temporal.workflow.list({ query: `WorkflowId = 'sync-${id}'` }))
          statuses.push(execution.status.name);
        return statuses.sort();
      };
      // 20 pages in the first execution, then continue-as-new for the last one. The workflow closes
      // a moment after its run is final (it records the successful sync), and visibility follows.
      await eventually(executions, (statuses) => statuses.join() === 'COMPLETED,CONTINUED_AS_NEW', 15_000);
    } finally {
      standin.maxPageSize = 2;
      standin.invoices.splice(standin.invoices.findIndex((invoice) => invoice.id === 2000));
    }
  });

  it('rotates the credentials of integrations to the first key, and they still work', async () => {
    const tenant = await createTenant();
    const id = (
      await tenant.call('/v1/integrations', {
        method: 'POST',
        body: { provider: 'tripletex', name: 'Tripletex', credentials: tripletexCredentials() },
      })
    ).body.id;
    const before = await testDb().integration.findUniqueOrThrow({ where: { id } });
    expect(before.credentialsKeyId).toBe('test2');
    // The stack's keys with test1 first: as after putting a new key first.
    const [newer, older] = inject('stackEnv').INTEGRATION_KEYS!.split(',');
    const result = await rotateIntegrationKeys(testDb(), parseKeyring(`${older},${newer}`));
    expect(result.reencrypted).toBeGreaterThanOrEqual(1);
    const after = await testDb().integration.findUniqueOrThrow({ where: { id } });
    expect(after.credentialsKeyId).toBe('test1');
    expect(after.credentialsCiphertext).not.toBe(before.credentialsCiphertext);
    expect((await rotateIntegrationKeys(testDb(), parseKeyring(`${older},${newer}`))).reencrypted).toBe(0);
    // The API (which holds both keys) still reads them: the test signs in.
    expect((await tenant.call(`/v1/integrations/${id}/test`, { method: 'POST' })).body.result).toBe('passed');
  });
});
