import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

// A local stand-in for the Tripletex API 2.0 (the part the tripletex provider uses), as
// documented at developer.tripletex.no: the session token flow, Basic auth `<company>:<token>`,
// the list envelope {fullResultSize, from, count, versionDigest, values} with from/count paging,
// invoiceDateFrom (inclusive) / invoiceDateTo (exclusive), the supplier invoice PDF, and rate
// limiting (429 with Retry-After and X-Rate-Limit-* headers). Tests steer its failures: refused
// tokens (401), rate limits, slow answers and connections dropped mid-answer.

export interface StandinInvoice {
  id: number;
  invoiceNumber: string;
  invoiceDate: string;
  supplierId: number;
  pdf: Buffer;
}

export interface StandinSupplier {
  id: number;
  name: string;
  organizationNumber: string;
}

export interface LoggedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  at: number;
}

type RequestMatcher = (request: LoggedRequest) => boolean;

export class TripletexStandin {
  readonly consumerToken = `consumer-${randomBytes(8).toString('hex')}`;
  readonly employeeToken = `employee-${randomBytes(8).toString('hex')}`;
  readonly suppliers: StandinSupplier[] = [];
  readonly invoices: StandinInvoice[] = [];
  readonly requests: LoggedRequest[] = [];
  private readonly sessions = new Set<string>();
  private server: Server | null = null;
  // The most values one list answer holds, whatever `count` asks (small, so tests see paging).
  maxPageSize = 1000;
  // Every n-th authenticated request is answered 429 (0: never).
  rateLimitEvery = 0;
  private authenticatedCount = 0;
  // Requests answered by dropping the connection (a network error mid-sync).
  dropConnectionWhen: RequestMatcher | null = null;
  delayMs = 0;

  get baseUrl(): string {
    const address = this.server?.address();
    if (!address || typeof address === 'string') throw new Error('stand-in not listening');
    return `http://127.0.0.1:${address.port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      this.handle(request, response).catch(() => {
        if (!response.headersSent) this.send(response, 500, { status: 500, message: 'stand-in failure' });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    return this;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server!.close(resolve));
  }

  expireSessions(): void {
    this.sessions.clear();
  }

  private send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    response.writeHead(status, {
      'Content-Type': 'application/json',
      'X-Rate-Limit-Limit': '100',
      'X-Rate-Limit-Remaining': '42',
      'X-Rate-Limit-Reset': '1',
      ...headers,
    });
    response.end(JSON.stringify(body));
  }

  private error(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
    this.send(
      response,
      status,
      {
        status,
        code: status * 10,
        message,
        link: 'https://tripletex.no/v2-docs/',
        developerMessage: null,
        validationMessages: null,
        requestId: randomBytes(8).toString('hex'),
      },
      headers,
    );
  }

  private authenticated(request: IncomingMessage): boolean {
    const header = request.headers.authorization ?? '';
    if (!header.startsWith('Basic ')) return false;
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
    const separator = decoded.indexOf(':');
    const company = decoded.slice(0, separator);
    const token = decoded.slice(separator + 1);
    return (company === '0' || company === '') && this.sessions.has(token);
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://standin');
    const logged: LoggedRequest = {
      method: request.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      at: Date.now(),
    };
    this.requests.push(logged);
    if (this.dropConnectionWhen?.(logged)) {
      request.socket.destroy();
      return;
    }
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));

    if (request.method === 'PUT' && url.pathname === '/v2/token/session/:create') {
      const { consumerToken, employeeToken, expirationDate } = logged.query;
      if (!expirationDate) return this.error(response, 422, 'expirationDate is required');
      if (consumerToken !== this.consumerToken || employeeToken !== this.employeeToken)
        return this.error(response, 401, 'Unauthorized');
      const token = randomBytes(16).toString('base64url');
      this.sessions.add(token);
      return this.send(response, 200, { value: { id: this.sessions.size, version: 0, token, expirationDate } });
    }
    if (!this.authenticated(request)) return this.error(response, 401, 'Unauthorized');
    this.authenticatedCount++;
    if (this.rateLimitEvery > 0 && this.authenticatedCount % this.rateLimitEvery === 0) {
      return this.error(response, 429, 'Too Many Requests', { 'Retry-After': '1', 'X-Rate-Limit-Remaining': '0' });
    }
    if (request.method !== 'GET') return this.error(response, 405, 'Method not allowed');

    const pdf = /^\/v2\/supplierInvoice\/(\d+)\/pdf$/.exec(url.pathname);
    if (pdf) {
      const invoice = this.invoices.find((candidate) => candidate.id === Number(pdf[1]));
      if (!invoice) return this.error(response, 404, 'Object not found');
      response.writeHead(200, {
        'Content-Type': 'application/octet-stream',
        'Content-Length': String(invoice.pdf.length),
        'X-Rate-Limit-Remaining': '42',
      });
      response.end(invoice.pdf);
      return;
    }
    if (url.pathname === '/v2/supplierInvoice') {
      const { invoiceDateFrom, invoiceDateTo } = logged.query;
      if (!invoiceDateFrom || !invoiceDateTo)
        return this.error(response, 422, 'invoiceDateFrom and invoiceDateTo are required');
      const matching = this.invoices
        .filter((invoice) => invoice.invoiceDate >= invoiceDateFrom && invoice.invoiceDate < invoiceDateTo)
        .sort((a, b) => a.id - b.id)
        .map((invoice) => ({
          id: invoice.id,
          invoiceNumber: invoice.invoiceNumber,
          invoiceDate: invoice.invoiceDate,
          supplier: {
            id: invoice.supplierId,
            name: this.suppliers.find((s) => s.id === invoice.supplierId)?.name ?? null,
          },
        }));
      return this.sendList(response, matching, logged.query);
    }
    if (url.pathname === '/v2/supplier')
      return this.sendList(
        response,
        [...this.suppliers].sort((a, b) => a.id - b.id),
        logged.query,
      );
    return this.error(response, 404, 'Not found');
  }

  private sendList(response: ServerResponse, all: unknown[], query: Record<string, string>): void {
    const from = Number(query.from ?? 0);
    const count = Math.min(Number(query.count ?? 1000), this.maxPageSize);
    const values = all.slice(from, from + count);
    this.send(response, 200, { fullResultSize: all.length, from, count: values.length, versionDigest: null, values });
  }
}
