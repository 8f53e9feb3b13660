import { DestinationRefused, fetchWithinPolicy } from '../../notifications/address-policy.js';
import { z } from 'zod';
import { trimCharsEnd } from '../../shared/text-scan.js';
import {
  DEFAULT_REQUEST_TIMEOUT_MS,
  MAX_INVOICE_FILE_BYTES,
  PAGE_SIZE,
  ProviderError,
  type InvoiceFile,
  type InvoicePage,
  type Period,
  type Provider,
  type ProviderConnection,
  type ProviderContext,
  type ProviderInvoiceRef,
  type ProviderSupplier,
  type TestStep,
} from './provider.js';

// Tripletex API 2.0 (https://tripletex.no/v2, documented at developer.tripletex.no and in its
// swagger at /v2-docs; followed as published in November 2026):
// - PUT  /v2/token/session/:create?consumerToken&employeeToken&expirationDate → {value: {token}};
//   every other call sends Basic auth with user `<company id or 0>` and the session token as password.
// - GET  /v2/supplierInvoice?invoiceDateFrom&invoiceDateTo&from&count&fields → {fullResultSize,
//   from, count, values}; invoiceDateFrom is inclusive, invoiceDateTo exclusive.
// - GET  /v2/supplier?from&count&fields → the same list envelope.
// - GET  /v2/supplierInvoice/{invoiceId}/pdf → the invoice's voucher document as PDF bytes.
// - 429 Too Many Requests with Retry-After (seconds) or X-Rate-Limit-Reset (seconds until the
//   window resets); X-Rate-Limit-Remaining on every answer.

export const TRIPLETEX_API = 'https://tripletex.no';

const credentialsSchema = z
  .object({
    consumer_token: z
      .string()
      .min(1)
      .max(500)
      .meta({ description: 'The consumer token Tripletex issued to this application' }),
    employee_token: z
      .string()
      .min(1)
      .max(500)
      .meta({ description: 'An employee token created in Tripletex under API access' }),
    company_id: z
      .string()
      .regex(/^\d{1,12}$/, "must be a Tripletex company id (digits), or 0 for the token owner's company")
      .default('0'),
    base_url: z
      .string()
      .url()
      .max(500)
      .refine((value) => /^https?:$/.test(new URL(value).protocol), 'must be an http(s) address')
      .default(TRIPLETEX_API)
      .meta({
        description: `The API host (default ${TRIPLETEX_API}; https://api.tripletex.io is Tripletex's test environment)`,
      }),
  })
  .strict();

export type TripletexCredentials = z.infer<typeof credentialsSchema>;

const MAX_JSON_BYTES = 8 * 1024 * 1024;
// A rate-limit wait longer than this ends the activity (Temporal retries it later).
const MAX_RATE_LIMIT_WAIT_SECONDS = 60;
const MAX_RATE_LIMIT_WAITS = 5;
const MAX_SUPPLIERS = 10_000;
const SUPPLIER_PAGE = 1000;

interface ListEnvelope<T> {
  fullResultSize?: number;
  from?: number;
  count?: number;
  values?: T[];
}

interface TripletexSupplierInvoice {
  id: number;
  invoiceNumber?: string | null;
  invoiceDate?: string | null;
  supplier?: { id?: number; name?: string | null } | null;
}

interface TripletexSupplier {
  id: number;
  name?: string | null;
  organizationNumber?: string | null;
}

function nextDay(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

// Seconds to wait after a 429: Retry-After, else the window's reset, else a second.
function rateLimitWait(headers: Headers): number {
  for (const name of ['retry-after', 'x-rate-limit-reset']) {
    const value = Number(headers.get(name));
    if (Number.isFinite(value) && value >= 0) return Math.ceil(value);
  }
  return 1;
}

async function readBounded(response: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw new ProviderError('invalid_response', 'Tripletex sent a larger answer than the service accepts.');
  }
  const chunks: Buffer[] = [];
  let total = 0;
  if (!response.body) return Buffer.alloc(0);
  // Node's fetch body yields Uint8Array chunks; its type here is ReadableStream<any>.
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    total += chunk.length;
    if (total > maxBytes) {
      await response.body.cancel().catch(() => undefined);
      throw new ProviderError('invalid_response', 'Tripletex sent a larger answer than the service accepts.');
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

class TripletexConnection implements ProviderConnection {
  private sessionToken: string | null = null;
  private readonly base: string;

  constructor(
    private readonly credentials: TripletexCredentials,
    private readonly context: ProviderContext,
  ) {
    this.base = trimCharsEnd(credentials.base_url, '/');
  }

  // One HTTP exchange, waiting out 429s (heartbeating meanwhile); network failures and 5xx are
  // `unavailable` (the activity retries), 401/403 `authentication`.
  private async exchange(
    method: 'GET' | 'PUT',
    path: string,
    query: Record<string, string>,
    authorization: string | null,
  ): Promise<Response> {
    const url = new URL(`${this.base}${path}`);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    for (let waits = 0; ; waits++) {
      let response: Response;
      try {
        response = await fetchWithinPolicy(
          url,
          {
            method,
            headers: { Accept: 'application/json', ...(authorization ? { Authorization: authorization } : {}) },
            signal: AbortSignal.any([
              AbortSignal.timeout(this.context.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS),
              ...(this.context.signal ? [this.context.signal] : []),
            ]),
          },
          this.context.addressPolicy,
        );
      } catch (error) {
        if (error instanceof DestinationRefused)
          throw new ProviderError(
            'configuration',
            'The Tripletex address (base_url) is not one the service connects to.',
          );
        throw new ProviderError('unavailable', 'Tripletex could not be reached.');
      }
      if (response.status !== 429) return response;
      await response.body?.cancel().catch(() => undefined);
      const seconds = rateLimitWait(response.headers);
      if (waits >= MAX_RATE_LIMIT_WAITS || seconds > MAX_RATE_LIMIT_WAIT_SECONDS) {
        throw new ProviderError('rate_limited', 'Tripletex is limiting the request rate; the sync continues later.');
      }
      for (let waited = 0; waited < seconds; waited++) {
        this.context.heartbeat({ rateLimitedFor: seconds - waited });
        await sleep(1000, this.context.signal);
      }
    }
  }

  private async createSession(): Promise<string> {
    const expiration = nextDay(new Date().toISOString().slice(0, 10));
    const response = await this.exchange(
      'PUT',
      '/v2/token/session/:create',
      {
        consumerToken: this.credentials.consumer_token,
        employeeToken: this.credentials.employee_token,
        expirationDate: expiration,
      },
      null,
    );
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel().catch(() => undefined);
      throw new ProviderError('authentication', 'Tripletex refused the consumer token and employee token.');
    }
    const body = await this.json<{ value?: { token?: string } }>(response);
    const token = body.value?.token;
    if (!token) throw new ProviderError('invalid_response', 'Tripletex answered the sign-in without a session token.');
    return token;
  }

  private async json<T>(response: Response): Promise<T> {
    if (response.status >= 500) {
      await response.body?.cancel().catch(() => undefined);
      throw new ProviderError('unavailable', `Tripletex answered with an error (${response.status}).`);
    }
    if (response.status === 404) {
      await response.body?.cancel().catch(() => undefined);
      throw new ProviderError('not_found', 'Tripletex does not know this record.');
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new ProviderError('invalid_response', `Tripletex refused the request (${response.status}).`);
    }
    try {
      return JSON.parse((await readBounded(response, MAX_JSON_BYTES)).toString('utf8')) as T;
    } catch (error) {
      if (error instanceof ProviderError) throw error;
      throw new ProviderError('invalid_response', 'Tripletex sent an answer that is not JSON.');
    }
  }

  // An authenticated call; an expired session (401) is created again once.
  private async get(path: string, query: Record<string, string> = {}): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      this.sessionToken ??= await this.createSession();
      const authorization = `Basic ${Buffer.from(`${this.credentials.company_id}:${this.sessionToken}`).toString('base64')}`;
      const response = await this.exchange('GET', path, query, authorization);
      if (response.status !== 401 && response.status !== 403) return response;
      await response.body?.cancel().catch(() => undefined);
      this.sessionToken = null;
      if (attempt >= 1 || response.status === 403) {
        throw new ProviderError(
          'authentication',
          response.status === 403
            ? 'The employee token lacks access to supplier invoices.'
            : 'Tripletex refused the session.',
        );
      }
    }
  }

  private async invoicePage(
    period: Period,
    from: number,
    count: number,
  ): Promise<ListEnvelope<TripletexSupplierInvoice>> {
    const response = await this.get('/v2/supplierInvoice', {
      invoiceDateFrom: period.from,
      invoiceDateTo: nextDay(period.through),
      from: String(from),
      count: String(count),
      fields: 'id,invoiceNumber,invoiceDate,supplier(id,name)',
    });
    return this.json<ListEnvelope<TripletexSupplierInvoice>>(response);
  }

  async test(): Promise<TestStep[]> {
    const skipped = (name: string): TestStep => ({ name, status: 'skipped', message: 'Needs the step before it.' });
    try {
      this.sessionToken = await this.createSession();
    } catch (error) {
      return [
        { name: 'sign_in', status: 'failed', message: messageOf(error) },
        skipped('read_invoices'),
        skipped('download_invoice'),
      ];
    }
    const steps: TestStep[] = [
      { name: 'sign_in', status: 'passed', message: 'Tripletex created a session for the tokens.' },
    ];
    let first: TripletexSupplierInvoice | undefined;
    try {
      const today = new Date().toISOString().slice(0, 10);
      const yearAgo = new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10);
      const page = await this.invoicePage({ from: yearAgo, through: today }, 0, 3);
      first = page.values?.[0];
      steps.push({
        name: 'read_invoices',
        status: 'passed',
        message: `Read ${page.values?.length ?? 0} of ${page.fullResultSize ?? 0} supplier invoices of the last year.`,
      });
    } catch (error) {
      return [
        ...steps,
        { name: 'read_invoices', status: 'failed', message: messageOf(error) },
        skipped('download_invoice'),
      ];
    }
    if (!first)
      return [
        ...steps,
        { name: 'download_invoice', status: 'skipped', message: 'No supplier invoice of the last year to download.' },
      ];
    try {
      const file = await this.download(first.id);
      steps.push({
        name: 'download_invoice',
        status: 'passed',
        message: `Downloaded the PDF of one invoice (${file.length} bytes).`,
      });
    } catch (error) {
      steps.push({ name: 'download_invoice', status: 'failed', message: messageOf(error) });
    }
    return steps;
  }

  async listSuppliers(): Promise<ProviderSupplier[]> {
    const suppliers: ProviderSupplier[] = [];
    // The server may answer fewer than `count`: the next page starts after what it sent.
    for (let from = 0; from < MAX_SUPPLIERS;) {
      const page = await this.json<ListEnvelope<TripletexSupplier>>(
        await this.get('/v2/supplier', {
          from: String(from),
          count: String(SUPPLIER_PAGE),
          fields: 'id,name,organizationNumber',
        }),
      );
      const values = page.values ?? [];
      for (const supplier of values) {
        suppliers.push({
          externalId: String(supplier.id),
          name: supplier.name?.trim() || `Supplier ${supplier.id}`,
          orgNumber: supplier.organizationNumber || null,
        });
      }
      this.context.heartbeat();
      from += values.length;
      if (values.length === 0 || from >= (page.fullResultSize ?? 0)) break;
    }
    return suppliers;
  }

  // Pages are offsets (`from`) in Tripletex's list of the period's supplier invoices.
  async listInvoices(period: Period, page: string | null, supplierExternalIds: string[] | null): Promise<InvoicePage> {
    const from = page ? Number(page) : 0;
    if (!Number.isInteger(from) || from < 0)
      throw new ProviderError('configuration', 'The sync checkpoint names no valid page.');
    const envelope = await this.invoicePage(period, from, PAGE_SIZE);
    const values = envelope.values ?? [];
    const wanted = supplierExternalIds ? new Set(supplierExternalIds) : null;
    const invoices = values
      .filter((invoice) => !wanted || (invoice.supplier?.id !== undefined && wanted.has(String(invoice.supplier.id))))
      .map((invoice) => ({
        key: `tripletex:${invoice.id}`,
        reference: String(invoice.id),
        label:
          `Supplier invoice ${invoice.invoiceNumber ?? invoice.id}${invoice.supplier?.name ? ` from ${invoice.supplier.name}` : ''}`.slice(
            0,
            200,
          ),
        supplierExternalId: invoice.supplier?.id !== undefined ? String(invoice.supplier.id) : null,
      }));
    const next = from + values.length;
    return { invoices, nextPage: values.length > 0 && next < (envelope.fullResultSize ?? 0) ? String(next) : null };
  }

  private async download(invoiceId: number | string): Promise<Buffer> {
    const response = await this.get(`/v2/supplierInvoice/${encodeURIComponent(String(invoiceId))}/pdf`);
    if (!response.ok) {
      await this.json(response);
      throw new ProviderError('invalid_response', 'Tripletex sent no PDF.');
    }
    return readBounded(response, MAX_INVOICE_FILE_BYTES);
  }

  async fetchInvoiceFiles(invoice: ProviderInvoiceRef): Promise<InvoiceFile[]> {
    const bytes = await this.download(invoice.reference);
    return [{ fileName: `tripletex-supplier-invoice-${invoice.reference}.pdf`, mimeType: 'application/pdf', bytes }];
  }
}

function messageOf(error: unknown): string {
  return error instanceof ProviderError ? error.message : 'Tripletex could not be reached.';
}

export const tripletexProvider: Provider<TripletexCredentials> = {
  id: 'tripletex',
  name: 'Tripletex',
  connect: 'api',
  scopeDescription:
    'scope.supplier_ids lists suppliers of GET /v1/integrations/{id}/suppliers (their id): a sync imports only their supplier invoices.',
  credentialsSchema,
  addressFields: ['base_url'],
  secretFields: ['consumer_token', 'employee_token'],
  open: (credentials, context) => new TripletexConnection(credentials, context),
};
