import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../../src/integrations/providers/provider.js';
import { tripletexProvider } from '../../../../src/integrations/providers/tripletex.js';
import { TripletexStandin } from '../../../support/tripletex-standin.js';

// The Tripletex provider against the local stand-in of the Tripletex API 2.0: sessions, date
// filters, paging, rate limits and failures, without the rest of the stack.

describe('tripletex provider', () => {
  const standin = new TripletexStandin();
  let heartbeats = 0;

  beforeAll(async () => {
    await standin.start();
    standin.suppliers.push({ id: 1, name: 'Supplier One', organizationNumber: '999000111' });
    for (const [id, date] of [
      [11, '2026-03-01'],
      [12, '2026-03-15'],
      [13, '2026-03-31'],
      [14, '2026-04-01'],
    ] as const) {
      standin.invoices.push({
        id,
        invoiceNumber: `N-${id}`,
        invoiceDate: date,
        supplierId: 1,
        pdf: Buffer.from(`%PDF-1.4 invoice ${id}`),
      });
    }
  });
  afterAll(() => standin.stop());

  const open = (overrides: Record<string, string> = {}) =>
    tripletexProvider.open(
      tripletexProvider.credentialsSchema.parse({
        consumer_token: standin.consumerToken,
        employee_token: standin.employeeToken,
        base_url: standin.baseUrl,
        ...overrides,
      }),
      // The stand-in listens on 127.0.0.1: allowed by name, as the test stack does.
      { heartbeat: () => heartbeats++, addressPolicy: { allowPrivate: false, allowedHosts: new Set(['127.0.0.1']) } },
    );

  it('includes the last day of the period (invoiceDateTo is exclusive) and pages by what the server sent', async () => {
    standin.maxPageSize = 2;
    const connection = open();
    const first = await connection.listInvoices({ from: '2026-03-01', through: '2026-03-31' }, null, null);
    expect(first.invoices.map((i) => i.key)).toEqual(['tripletex:11', 'tripletex:12']);
    expect(first.nextPage).toBe('2');
    const second = await connection.listInvoices({ from: '2026-03-01', through: '2026-03-31' }, first.nextPage, null);
    expect(second.invoices.map((i) => i.key)).toEqual(['tripletex:13']);
    expect(second.nextPage).toBeNull();
    expect(standin.requests.find((r) => r.path === '/v2/supplierInvoice')?.query.invoiceDateTo).toBe('2026-04-01');
    const files = await connection.fetchInvoiceFiles(first.invoices[0]!);
    expect(files[0]!.bytes.toString()).toBe('%PDF-1.4 invoice 11');
    standin.maxPageSize = 1000;
  });

  it('creates a new session once when the old one expired', async () => {
    const connection = open();
    await connection.listSuppliers();
    const sessionsBefore = standin.requests.filter((r) => r.path === '/v2/token/session/:create').length;
    standin.expireSessions();
    expect((await connection.listSuppliers()).map((s) => s.name)).toEqual(['Supplier One']);
    expect(standin.requests.filter((r) => r.path === '/v2/token/session/:create').length).toBe(sessionsBefore + 1);
  });

  it('does not connect to a loopback or private address the policy does not allow (SSRF)', async () => {
    const credentials = tripletexProvider.credentialsSchema.parse({
      consumer_token: standin.consumerToken,
      employee_token: standin.employeeToken,
      base_url: standin.baseUrl,
    });
    const strict = tripletexProvider.open(credentials, {
      heartbeat: () => undefined,
      addressPolicy: { allowPrivate: false, allowedHosts: new Set() },
    });
    const before = standin.requests.length;
    await expect(strict.listSuppliers()).rejects.toMatchObject({
      kind: 'configuration',
      message: expect.stringContaining('base_url'),
    });
    expect(standin.requests.length, 'no request reached the stand-in').toBe(before);
  });

  it('reports refused tokens as a failed sign-in step, and as an authentication error', async () => {
    const steps = await open({ employee_token: 'wrong' }).test();
    expect(steps.map((s) => `${s.name}:${s.status}`)).toEqual([
      'sign_in:failed',
      'read_invoices:skipped',
      'download_invoice:skipped',
    ]);
    await expect(open({ employee_token: 'wrong' }).listSuppliers()).rejects.toMatchObject({
      kind: 'authentication',
      retryable: false,
    });
  });

  it('waits out 429s (heartbeating), and gives up as rate_limited when they do not stop', async () => {
    standin.rateLimitEvery = 2;
    heartbeats = 0;
    expect(await open().listSuppliers()).toHaveLength(1);
    standin.rateLimitEvery = 1;
    const error = await open()
      .listSuppliers()
      .catch((e: unknown) => e);
    standin.rateLimitEvery = 0;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'rate_limited', retryable: true });
    expect(heartbeats).toBeGreaterThanOrEqual(5);
  }, 20_000);

  it('turns a dropped connection into a retryable unavailable error without internals', async () => {
    standin.dropConnectionWhen = (r) => r.path === '/v2/supplier';
    const error = await open()
      .listSuppliers()
      .catch((e: unknown) => e);
    standin.dropConnectionWhen = null;
    expect(error).toMatchObject({ kind: 'unavailable', retryable: true, message: 'Tripletex could not be reached.' });
  });
});
