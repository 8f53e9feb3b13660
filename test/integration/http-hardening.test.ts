import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createStorage } from '../../src/bootstrap.js';
import { loadConfig } from '../../src/config.js';
import { MAX_INVOICE_FILE_BYTES } from '../../src/invoices/imports.js';
import { invoiceOf, matchedAgreement, newSupplier, postAlert } from '../support/alerts.js';
import { eventually, expectError, type ApiResponse } from '../support/api.js';
import { importDocument, mimeTypeOf, sample, settledImport, uploadDocument } from '../support/invoices.js';
import { startOwnApi, type OwnApi } from '../support/own-api.js';
import { createTenant, testDb, type Tenant } from '../support/tenants.js';

// What an attacker cannot do over HTTP (docs/security.md), each tried against an API instance of
// the test's own on the real stack: a temporary folder to watch, small budgets, a closed port.

interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string | number>;
  // Sent in full; `partial` sends only its first bytes and keeps the request open.
  body?: Buffer;
  partial?: boolean;
  // The client's own address: any 127.x.y.z reaches the API on 127.0.0.1 from a distinct address.
  localAddress?: string;
}

// node:http rather than fetch: it can send a body only in part and choose the local address.
function raw(baseUrl: string, request: RawRequest): Promise<ApiResponse> {
  const url = new URL(request.path, baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: request.method ?? 'GET',
        headers: request.headers,
        localAddress: request.localAddress,
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers))
            if (typeof value === 'string') headers.set(name, value);
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON
          }
          resolve({ status: response.statusCode ?? 0, headers, body });
          outgoing.destroy();
        });
      },
    );
    outgoing.on('error', reject);
    if (request.body && request.partial) outgoing.write(request.body.subarray(0, 64 * 1024));
    else if (request.body) outgoing.end(request.body);
    else outgoing.end();
  });
}

function multipartBody(parts: { name: string; fileName: string; type: string; bytes: Buffer }[]): {
  body: Buffer;
  contentType: string;
} {
  const boundary = `----ics${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.fileName}"\r\nContent-Type: ${part.type}\r\n\r\n`,
      ),
    );
    chunks.push(part.bytes, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

const randomLoopback = () => `127.${randomInt(1, 250)}.${randomInt(1, 250)}.${randomInt(2, 250)}`;
const badApiKey = () => `icsk_${randomBytes(32).toString('base64url')}`;
const withTimeout = <T>(promise: Promise<T>, ms: number, what: string) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)),
  ]);

describe('multipart bodies', () => {
  let api: OwnApi;
  let tempRoot: string;
  let tenant: Tenant;
  const fiveMiB = multipartBody([
    { name: 'primary', fileName: 'big.pdf', type: 'application/pdf', bytes: randomBytes(5 * 1024 * 1024) },
  ]);
  const tempFiles = () => readdirSync(tempRoot, { recursive: true });

  beforeAll(async () => {
    tempRoot = mkdtempSync(path.join(os.tmpdir(), 'ics-hardening-'));
    api = await startOwnApi({ UPLOAD_TEMP_DIR: tempRoot });
    tenant = await createTenant();
  });
  afterAll(async () => {
    await api?.stop();
    rmSync(tempRoot, { recursive: true, force: true });
  });

  it('are not read on other paths or without a valid token: the answer comes before the body is sent', async () => {
    const headers = { 'Content-Type': fiveMiB.contentType, 'Content-Length': fiveMiB.body.length };
    // Only the first 64 KiB are sent and the request stays open: a server reading the body would never answer.
    const unknownPath = await withTimeout(
      raw(api.url, { method: 'POST', path: '/v1/no-such-path', headers, body: fiveMiB.body, partial: true }),
      10_000,
      'unknown path',
    );
    expectError(unknownPath, 404, 'not_found');
    const anonymous = await withTimeout(
      raw(api.url, { method: 'POST', path: '/v1/invoices/upload', headers, body: fiveMiB.body, partial: true }),
      10_000,
      'anonymous upload',
    );
    expectError(anonymous, 401, 'invalid_token');
    const badToken = await withTimeout(
      raw(api.url, {
        method: 'POST',
        path: '/v1/invoices/upload',
        headers: { ...headers, Authorization: `Bearer ${badApiKey()}` },
        body: fiveMiB.body,
        partial: true,
      }),
      10_000,
      'upload with a bad token',
    );
    expectError(badToken, 401, 'invalid_token');
    // A JSON route does not read multipart either: the body is simply not what it takes.
    const jsonRoute = await withTimeout(
      raw(api.url, {
        method: 'POST',
        path: '/v1/alerts',
        headers: { ...headers, Authorization: `Bearer ${tenant.apiKey}`, 'X-Organization-Id': tenant.organizationId },
        body: fiveMiB.body,
        partial: true,
      }),
      10_000,
      'multipart to a JSON route',
    );
    expectError(jsonRoute, 400, 'validation_error');
    // Sent in full, three times, they leave nothing behind either.
    for (let i = 0; i < 3; i += 1)
      expectError(
        await raw(api.url, { method: 'POST', path: '/v1/no-such-path', headers, body: fiveMiB.body }),
        404,
        'not_found',
      );
    expectError(
      await raw(api.url, { method: 'POST', path: '/v1/invoices/upload', headers, body: fiveMiB.body }),
      401,
      'invalid_token',
    );
    expect(tempFiles()).toEqual([]);
  });

  it('refuses an oversized upload with 413, changes nothing and leaves no temporary file', async () => {
    const headers = (body: { body: Buffer; contentType: string }) => ({
      'Content-Type': body.contentType,
      'Content-Length': body.body.length,
      Authorization: `Bearer ${tenant.ingestionToken}`,
    });
    // One file over the invoice limit (MAX_INVOICE_FILE_BYTES): read, then refused.
    const tooBig = multipartBody([
      {
        name: 'primary',
        fileName: 'huge.pdf',
        type: 'application/pdf',
        bytes: Buffer.alloc(MAX_INVOICE_FILE_BYTES + 1024 * 1024, 0x41),
      },
    ]);
    expectError(
      await raw(api.url, { method: 'POST', path: '/v1/invoices/upload', headers: headers(tooBig), body: tooBig.body }),
      413,
      'payload_too_large',
    );
    // A declared length over the whole upload limit: refused before a byte is read.
    const declared = await withTimeout(
      raw(api.url, {
        method: 'POST',
        path: '/v1/invoices/upload',
        headers: { ...headers(fiveMiB), 'Content-Length': 300 * 1024 * 1024 },
        body: fiveMiB.body,
        partial: true,
      }),
      10_000,
      'declared oversized upload',
    );
    expectError(declared, 413, 'payload_too_large');
    expect(await testDb().invoice.count({ where: { organizationId: tenant.organizationId } })).toBe(0);
    expect(await testDb().document.count({ where: { organizationId: tenant.organizationId } })).toBe(0);
    expect(tempFiles()).toEqual([]);
  });

  it('refuses a part whose headers are huge before the parser reads them (400), leaving nothing', async () => {
    // formidable would keep such a header in memory and run a quadratic regular expression over it.
    const boundary = '----icshuge';
    const crafted = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="primary"; ${'filename="x;\t'.repeat(70_000)}\r\n\r\n`,
      ),
      Buffer.from('data'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const started = Date.now();
    const response = await raw(api.url, {
      method: 'POST',
      path: '/v1/invoices/upload',
      headers: {
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Content-Length': crafted.length,
        Authorization: `Bearer ${tenant.ingestionToken}`,
      },
      body: crafted,
    });
    expectError(response, 400, 'validation_error');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await testDb().invoice.count({ where: { organizationId: tenant.organizationId } })).toBe(0);
    expect(tempFiles()).toEqual([]);
  });

  it('still takes a proper upload, streamed to storage, and removes its temporary files', async () => {
    const invoice = multipartBody([
      {
        name: 'primary',
        fileName: 'base.xml',
        type: mimeTypeOf('base.xml'),
        bytes: sample('peppol-bis3/peppol-base-example.xml'),
      },
    ]);
    const response = await raw(api.url, {
      method: 'POST',
      path: '/v1/invoices/upload',
      headers: {
        'Content-Type': invoice.contentType,
        'Content-Length': invoice.body.length,
        Authorization: `Bearer ${tenant.ingestionToken}`,
      },
      body: invoice.body,
    });
    expect(response.status).toBe(201);
    const document = await testDb().document.findFirstOrThrow({ where: { organizationId: tenant.organizationId } });
    expect(document.fileSize).toBe(sample('peppol-bis3/peppol-base-example.xml').length);
    expect(document.md5).toMatch(/^[0-9a-f]{32}$/);
    // The temporary folder goes when the request is done.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(tempFiles()).toEqual([]);
  });
});

describe('uploads read at once', () => {
  it('are bounded per API process: one more is 503 with Retry-After, and the slot comes back when an upload ends', async () => {
    const tempRoot = mkdtempSync(path.join(os.tmpdir(), 'ics-hardening-slots-'));
    const api = await startOwnApi({ UPLOAD_TEMP_DIR: tempRoot, UPLOAD_MAX_CONCURRENT: '1' });
    try {
      const tenant = await createTenant();
      const invoice = multipartBody([
        {
          name: 'primary',
          fileName: 'base.xml',
          type: mimeTypeOf('base.xml'),
          bytes: sample('peppol-bis3/peppol-base-example.xml'),
        },
      ]);
      const headers = {
        'Content-Type': invoice.contentType,
        'Content-Length': invoice.body.length,
        Authorization: `Bearer ${tenant.ingestionToken}`,
      };
      // The first upload sends half its body and waits: it holds the only slot.
      const url = new URL('/v1/invoices/upload', api.url);
      const slow = http.request({
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers,
        agent: false,
      });
      slow.on('error', () => undefined);
      slow.write(invoice.body.subarray(0, Math.floor(invoice.body.length / 2)));
      await eventually(
        async () => readdirSync(tempRoot).length,
        (folders) => folders > 0,
        10_000,
      );
      const refused = await raw(api.url, { method: 'POST', path: '/v1/invoices/upload', headers, body: invoice.body });
      expectError(refused, 503, 'service_unavailable');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      // The first client gives up: its slot and its folder are freed.
      slow.destroy();
      await eventually(
        async () => readdirSync(tempRoot).length,
        (folders) => folders === 0,
        10_000,
      );
      const accepted = await raw(api.url, { method: 'POST', path: '/v1/invoices/upload', headers, body: invoice.body });
      expect(accepted.status).toBe(201);
    } finally {
      await api.stop();
      rmSync(tempRoot, { recursive: true, force: true });
    }
  });
});

describe('idle keep-alive connections', () => {
  // A server that closes an idle connection before the client does races the client's next
  // request on it, which then fails with ECONNRESET (seen on a large upload). The shared test
  // stack's API is checked because it is built as production's is (listenApi).
  it("stay open past Node's 5 s default, so the client closes first", async () => {
    const url = new URL(inject('apiUrl'));
    const socket = net.createConnection({ host: url.hostname, port: Number(url.port) });
    const closedEarly = new Promise<string>((resolve) => socket.once('close', () => resolve('closed')));
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    const answered = (count: number) =>
      eventually(
        async () => received.split('HTTP/1.1 200').length - 1,
        (answers) => answers >= count,
        10_000,
      );
    const request = 'GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n';
    try {
      socket.write(request);
      await answered(1);
      expect(received).toMatch(/keep-alive: timeout=65/i);
      expect(
        await Promise.race([closedEarly, new Promise((resolve) => setTimeout(() => resolve('open'), 6_000))]),
      ).toBe('open');
      socket.write(request);
      await answered(2);
    } finally {
      socket.destroy();
    }
  }, 20_000);
});

describe('query parameters', () => {
  it('refuses parameters a route does not know, naming the valid ones, for every credential', async () => {
    const tenant = await createTenant();
    for (const query of ['mine_only=true', 'teams=00000000-0000-4000-8000-000000000000', 'statuses=pending']) {
      const response = await tenant.call(`/v1/invoices?${query}`);
      expectError(response, 400, 'validation_error');
      expect(response.body.error.details.fields[0].field).toBe(`query.${query.split('=')[0]}`);
      expect(response.body.error.details.valid_parameters).toEqual(
        expect.arrayContaining(['limit', 'cursor', 'processing_statuses']),
      );
    }
    const ingestion = await tenant.call('/v1/invoices?mine=true', {
      token: tenant.ingestionToken,
      organizationId: null,
    });
    expectError(ingestion, 400, 'validation_error');
    // A route without query parameters takes none.
    expectError(await tenant.call('/v1/me?debug=1'), 400, 'validation_error');
    // Known ones still work.
    expect((await tenant.call('/v1/invoices?limit=5&processing_statuses=completed')).status).toBe(200);
  });
});

describe('request budget', () => {
  let api: OwnApi;
  beforeAll(async () => {
    api = await startOwnApi({ RATE_LIMIT_REQUESTS: '3', RATE_LIMIT_STORE: 'postgres' });
  });
  afterAll(async () => {
    await api?.stop();
  });

  const send = (tenant: Tenant, method: string, path: string, body?: unknown) =>
    raw(api.url, {
      method,
      path,
      headers: {
        Authorization: `Bearer ${tenant.apiKey}`,
        'X-Organization-Id': tenant.organizationId,
        ...(body ? { 'Content-Type': 'application/json' } : {}),
      },
      body: body ? Buffer.from(JSON.stringify(body)) : undefined,
    });
  // Connections the API takes from its pool while `work` runs: every statement takes one.
  const statementsDuring = async (work: () => Promise<unknown>) => {
    let taken = 0;
    const count = () => (taken += 1);
    api.deps.pool.on('acquire', count);
    try {
      await work();
    } finally {
      api.deps.pool.off('acquire', count);
    }
    return taken;
  };

  it('refuses a write past the budget before its handler runs', async () => {
    const tenant = await createTenant();
    for (let i = 0; i < 3; i += 1) expect((await send(tenant, 'GET', '/v1/teams')).status).toBe(200);
    const name = `Past budget ${randomInt(1e9)}`;
    expectError(await send(tenant, 'POST', '/v1/teams', { name }), 429, 'rate_limit_exceeded');
    expect(await testDb().team.count({ where: { organizationId: tenant.organizationId, name } })).toBe(0);
  });

  it('answers a read past the budget 429 (it ran beside the budget check), then refuses the next before any statement', async () => {
    const tenant = await createTenant();
    for (let i = 0; i < 3; i += 1) expect((await send(tenant, 'GET', '/v1/invoices')).status).toBe(200);
    const past = await send(tenant, 'GET', '/v1/invoices');
    expectError(past, 429, 'rate_limit_exceeded');
    expect(Number(past.headers.get('retry-after'))).toBeGreaterThan(0);
    // This process now knows the budget is spent: no statement until the window ends.
    let next: ApiResponse | undefined;
    expect(await statementsDuring(async () => (next = await send(tenant, 'GET', '/v1/invoices')))).toBe(0);
    expectError(next!, 429, 'rate_limit_exceeded');
    // Another credential is unaffected.
    expect((await send(await createTenant(), 'GET', '/v1/invoices')).status).toBe(200);
  });
});

describe('failed authentication', () => {
  let replicaA: OwnApi;
  let replicaB: OwnApi;
  let behindProxy: OwnApi;
  beforeAll(async () => {
    // Two replicas sharing the PostgreSQL store, and one behind a trusted proxy.
    [replicaA, replicaB, behindProxy] = await Promise.all([
      startOwnApi({ RATE_LIMIT_AUTH_FAILURES: '5', RATE_LIMIT_STORE: 'postgres' }),
      startOwnApi({ RATE_LIMIT_AUTH_FAILURES: '5', RATE_LIMIT_STORE: 'postgres' }),
      startOwnApi({ RATE_LIMIT_AUTH_FAILURES: '3', TRUST_PROXY: 'true' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([replicaA?.stop(), replicaB?.stop(), behindProxy?.stop()]);
  });

  it('is limited per client address, across replicas, with Retry-After; X-Forwarded-For is not trusted by default', async () => {
    const tenant = await createTenant();
    const address = randomLoopback();
    const me = (api: OwnApi, token: string, from: string, headers: Record<string, string> = {}) =>
      raw(api.url, {
        path: '/v1/me',
        headers: { Authorization: `Bearer ${token}`, 'X-Organization-Id': tenant.organizationId, ...headers },
        localAddress: from,
      });
    for (let i = 0; i < 5; i += 1)
      expectError(
        await me(i % 2 ? replicaA : replicaB, i === 4 ? 'not-a-token' : badApiKey(), address),
        401,
        'invalid_token',
      );
    // The other replica counts the same failures: the budget lives in PostgreSQL.
    const limited = await me(replicaB, badApiKey(), address);
    expectError(limited, 429, 'rate_limit_exceeded');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Once out of failures, a bad token from the address is refused on either replica, and a forged
    // X-Forwarded-For does not change who it is; a valid key from the same address still passes
    // (test/integration/account-security.test.ts).
    expectError(await me(replicaA, badApiKey(), address), 429, 'rate_limit_exceeded');
    expectError(
      await me(replicaA, badApiKey(), address, { 'X-Forwarded-For': '198.51.100.1' }),
      429,
      'rate_limit_exceeded',
    );
    expect((await me(replicaA, tenant.apiKey, address)).status).toBe(200);
    // Another address is unaffected.
    expectError(await me(replicaA, badApiKey(), randomLoopback()), 401, 'invalid_token');
    expect(await testDb().rateLimit.count({ where: { key: `auth_failures:${address}` } })).toBe(1);
  });

  it('behind a trusted proxy, counts the address the proxy saw, not what the client claims', async () => {
    const tenant = await createTenant();
    const proxy = randomLoopback();
    const client = `203.0.113.${randomInt(1, 250)}`;
    const me = (token: string, forwardedFor: string) =>
      raw(behindProxy.url, {
        path: '/v1/me',
        headers: {
          Authorization: `Bearer ${token}`,
          'X-Organization-Id': tenant.organizationId,
          'X-Forwarded-For': forwardedFor,
        },
        localAddress: proxy,
      });
    // The client puts a different first entry each time; the proxy appends the real address.
    for (let i = 0; i < 3; i += 1) expectError(await me(badApiKey(), `10.0.0.${i}, ${client}`), 401, 'invalid_token');
    expectError(await me(badApiKey(), `10.9.9.9, ${client}`), 429, 'rate_limit_exceeded');
    expectError(await me(badApiKey(), `${client}, 198.51.100.${randomInt(1, 250)}`), 401, 'invalid_token');
  });
});

describe('outages', () => {
  it('answers 503 service_unavailable with Retry-After when the database cannot be reached', async () => {
    const tenant = await createTenant();
    const api = await startOwnApi({}, 'database');
    try {
      for (const token of [tenant.apiKey, tenant.ingestionToken]) {
        const response = await raw(api.url, { path: '/v1/invoices', headers: { Authorization: `Bearer ${token}` } });
        expectError(response, 503, 'service_unavailable');
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(JSON.stringify(response.body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|prisma/i);
      }
    } finally {
      await api.stop();
    }
  });

  it('answers 503 service_unavailable with Retry-After when storage cannot be reached, and 200 again once it can', async () => {
    const tenant = await createTenant();
    const registration = await tenant.call('/v1/documents/upload', {
      method: 'POST',
      body: { file_name: 'a.pdf', mime_type: 'application/pdf', file_size: 10 },
    });
    expect(registration.status).toBe(201);
    const api = await startOwnApi({}, 'storage');
    try {
      const response = await raw(api.url, {
        path: `/v1/documents/${registration.body.document_id}`,
        headers: { Authorization: `Bearer ${tenant.apiKey}`, 'X-Organization-Id': tenant.organizationId },
      });
      expectError(response, 503, 'service_unavailable');
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(JSON.stringify(response.body)).not.toContain('organizations/');
    } finally {
      await api.stop();
    }
    expect((await tenant.call(`/v1/documents/${registration.body.document_id}`)).status).toBe(200);
  });
});

describe('presigned uploads', () => {
  const storage = () => createStorage(loadConfig({ ...process.env, ...inject('stackEnv') }));

  it('refuse an upload larger than its registration, with upload_size_mismatch, and start nothing', async () => {
    const tenant = await createTenant();
    const bytes = sample('peppol-bis3/peppol-base-example.xml');
    const registration = await tenant.call('/v1/documents/upload', {
      method: 'POST',
      body: { file_name: 'a.xml', mime_type: 'application/xml', file_size: bytes.length },
    });
    const put = await fetch(registration.body.upload_url, {
      method: 'PUT',
      headers: registration.body.headers,
      body: Buffer.concat([bytes, Buffer.alloc(4096, 0x20)]),
    });
    expect(put.status).toBe(200);
    const refused = await importDocument(tenant, registration.body.document_id);
    expectError(refused, 400, 'upload_size_mismatch');
    expect(refused.body.error.details[0].field).toBe('primary_document_id');
    expect(await testDb().invoiceImport.count({ where: { organizationId: tenant.organizationId } })).toBe(0);
  });

  it('are sealed once when imported concurrently', async () => {
    const tenant = await createTenant();
    const documentId = await uploadDocument(tenant, 'a.xml', sample('peppol-bis3/peppol-vat-category-E.xml'));
    const started = await Promise.all(Array.from({ length: 6 }, () => importDocument(tenant, documentId)));
    expect(started.map((r) => r.status)).toEqual([202, 202, 202, 202, 202, 202]);
    const document = await testDb().document.findUniqueOrThrow({ where: { id: documentId } });
    expect(document.storageKey.startsWith(`organizations/${tenant.organizationId}/documents/${documentId}/`)).toBe(
      true,
    );
    expect(await storage().stat(`uploads/${tenant.organizationId}/${documentId}/a.xml`)).toBeNull();
  });

  it('keep what was parsed as the evidence: bytes PUT again after the import change nothing read later', async () => {
    const tenant = await createTenant();
    const original = sample('peppol-bis3/peppol-base-example.xml');
    const registration = await tenant.call('/v1/documents/upload', {
      method: 'POST',
      body: { file_name: 'a.xml', mime_type: 'application/xml', file_size: original.length },
    });
    expect(
      (await fetch(registration.body.upload_url, { method: 'PUT', headers: registration.body.headers, body: original }))
        .status,
    ).toBe(200);
    const documentId = registration.body.document_id as string;
    const first = await settledImport(tenant, (await importDocument(tenant, documentId)).body.id);
    expect(first, JSON.stringify(first)).toMatchObject({ status: 'completed', outcome: 'imported' });

    // The upload URL is still valid: another invoice's bytes go to it.
    const swapped = sample('peppol-bis3/peppol-vat-category-S.xml');
    expect(
      (await fetch(registration.body.upload_url, { method: 'PUT', headers: registration.body.headers, body: swapped }))
        .status,
    ).toBe(200);
    const document = await testDb().document.findUniqueOrThrow({ where: { id: documentId } });
    expect(document.storageKey.startsWith(`organizations/${tenant.organizationId}/documents/${documentId}/`)).toBe(
      true,
    );
    expect((await storage().read(document.storageKey, 10 * 1024 * 1024)).equals(original)).toBe(true);
    // Importing the document again reads the sealed bytes: the same invoice, a duplicate.
    const again = await settledImport(tenant, (await importDocument(tenant, documentId)).body.id);
    expect(again).toMatchObject({ status: 'completed', outcome: 'duplicate', invoice_id: first.invoice_id });
  });
});

describe('spreadsheet exports', () => {
  const FORMULA = '=HYPERLINK("http://attacker.example","open")';
  const startsLikeFormula = (value: string) => ['=', '+', '-', '@', '\t', '\r'].includes(value[0] ?? '');

  it('alerts CSV and XLSX: text cells cannot run, negative amounts stay numbers', async () => {
    const tenant = await createTenant();
    const invoice = await invoiceOf(tenant, newSupplier('=cmd'));
    const agreementId = await matchedAgreement(tenant, [invoice.supplier.id], '+Supplies');
    await postAlert(tenant, {
      invoice_id: invoice.id,
      agreement_id: agreementId,
      title: FORMULA,
      explanation: '@SUM(A1:A9)',
      impact_amount: '-12.50',
    });

    const csv = await tenant.call(`/v1/alerts/export?format=csv&agreement_ids=${agreementId}`);
    const [row] = parse<Record<string, string>>(String(csv.body), { columns: true });
    expect(row).toMatchObject({
      title: `'${FORMULA}`,
      explanation: "'@SUM(A1:A9)",
      agreement_title: "'+Supplies",
      impact_amount: '-12.50',
    });
    for (const [column, value] of Object.entries(row!))
      if (column !== 'impact_amount') expect(startsLikeFormula(value), `${column}: ${value}`).toBe(false);

    const xlsx = await fetch(`${inject('apiUrl')}/v1/alerts/export?format=xlsx&agreement_ids=${agreementId}`, {
      headers: { Authorization: `Bearer ${tenant.apiKey}`, 'X-Organization-Id': tenant.organizationId },
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await xlsx.arrayBuffer());
    const sheet = workbook.getWorksheet('Alerts')!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
    const cell = (name: string) => sheet.getRow(2).getCell(header.indexOf(name) + 1);
    expect(cell('title').type).toBe(ExcelJS.ValueType.String);
    expect(cell('title').value).toBe(`'${FORMULA}`);
    expect(cell('impact_amount').value).toBe(-12.5);
    sheet.eachRow((r) => r.eachCell((c) => expect(c.type).not.toBe(ExcelJS.ValueType.Formula)));
  });

  it('price items CSV: descriptions cannot run, prices stay numbers', async () => {
    const tenant = await createTenant();
    const agreementId = (await tenant.call('/v1/agreements', { method: 'POST', body: { title: 'Office' } })).body
      .id as string;
    const created = await tenant.call(`/v1/agreements/${agreementId}/price-items`, {
      method: 'POST',
      body: {
        entries: [
          { description: FORMULA, seller_item_id: '-2+3', unit: '@x', price: { type: 'amount', amount: '12.50' } },
        ],
      },
    });
    expect(created.status).toBe(201);
    const csv = await tenant.call(`/v1/agreements/${agreementId}/price-items/export`);
    const [row] = parse<Record<string, string>>(String(csv.body), { columns: true });
    // Prices cannot be negative; negative amounts are covered by the alerts export above.
    expect(row).toMatchObject({ description: `'${FORMULA}`, seller_item_id: "'-2+3", unit: "'@x", amount: '12.5' });
  });

  it('price import rows CSV: cells of the list cannot run', async () => {
    const tenant = await createTenant();
    const agreementId = (await tenant.call('/v1/agreements', { method: 'POST', body: { title: 'Office' } })).body
      .id as string;
    const list = [
      'Artikkelnummer;Beskrivelse;Enhet;Pris',
      `=1+2;${FORMULA.replaceAll(';', ',')};stk;42,50`,
      '@A1;+cmd;stk;abc',
    ].join('\n');
    const documentId = await uploadDocument(tenant, 'prices.csv', Buffer.from(list, 'utf8'), 'text/csv');
    const started = await tenant.call(`/v1/agreements/${agreementId}/price-imports`, {
      method: 'POST',
      body: { entries: [{ document_id: documentId, default_currency: 'NOK' }] },
    });
    expect(started.status).toBe(202);
    const importId = started.body.data[0].id as string;
    await eventually(
      () => tenant.call(`/v1/agreements/${agreementId}/price-imports/${importId}`),
      (r) => ['completed', 'failed'].includes(r.body.status),
      60_000,
    );
    const download = await tenant.call(`/v1/agreements/${agreementId}/price-imports/${importId}/download`);
    const rows = parse<Record<string, string>>(String(download.body), { columns: true });
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows)
      for (const [column, value] of Object.entries(row))
        expect(startsLikeFormula(value), `${column}: ${value}`).toBe(false);
  });
});
