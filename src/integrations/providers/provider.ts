import type { AddressPolicy } from '../../notifications/address-policy.js';
import type { ZodType } from 'zod';

// What every source of supplier invoices offers the service. A provider is stateless; `open`
// binds it to one integration's decrypted credentials for the duration of one activity.

export interface Period {
  // Inclusive calendar dates, YYYY-MM-DD.
  from: string;
  through: string;
}

export interface ProviderInvoiceRef {
  // Stable per invoice within the provider, and the run item's key: `<prefix>:<reference>`, so an
  // activity finds the invoice again from the item alone (activities/integrations.ts referenceOf).
  key: string;
  // Where the provider finds it (an object key, an invoice id); not secret.
  reference: string;
  label: string;
  supplierExternalId: string | null;
}

export interface InvoicePage {
  invoices: ProviderInvoiceRef[];
  // Where the next page starts (opaque to the caller), null after the last page.
  nextPage: string | null;
}

export interface InvoiceFile {
  fileName: string;
  mimeType: string;
  bytes: Buffer;
}

export interface ProviderSupplier {
  externalId: string;
  name: string;
  orgNumber: string | null;
}

export interface TestStep {
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  message: string;
}

// The calling activity's heartbeat: long waits (rate limits) and long listings keep it alive.
export interface ProviderContext {
  heartbeat: (detail?: unknown) => void;
  signal?: AbortSignal;
  // Where the connection may go (src/notifications/address-policy.ts): the provider's address is
  // an Admin's choice, so loopback, private and metadata addresses are refused unless allowed.
  addressPolicy: AddressPolicy;
  // Each request to the provider ends within this long, answered or not (the whole answer read):
  // INTEGRATION_REQUEST_TIMEOUT_SECONDS; DEFAULT_REQUEST_TIMEOUT_MS when not given.
  requestTimeoutMs?: number;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export interface ProviderConnection {
  // Signs in and reads a few invoices; never throws for a provider's answer, only reports steps.
  test(): Promise<TestStep[]>;
  listSuppliers(): Promise<ProviderSupplier[]>;
  listInvoices(period: Period, page: string | null, supplierExternalIds: string[] | null): Promise<InvoicePage>;
  // The invoice's files, the primary (the invoice itself) first.
  fetchInvoiceFiles(invoice: ProviderInvoiceRef): Promise<InvoiceFile[]>;
}

export interface Provider<Credentials extends Record<string, unknown> = Record<string, unknown>> {
  id: string;
  name: string;
  // api: connected with POST /v1/integrations; application_only: the provider signs users in on its
  // own site, so only the application can connect it.
  connect: 'api' | 'application_only';
  scopeDescription: string;
  // Every field is stored encrypted and never returned; reads list only the names set.
  credentialsSchema: ZodType<Credentials>;
  // Credential fields holding an address the service connects to, checked against the policy
  // when saved (400) and again when connecting.
  addressFields: readonly string[];
  // Credential fields that prove who the service is to that address (tokens, keys). When an
  // address field changes, these must be sent again: saved secrets never follow a new address.
  secretFields: readonly string[];
  open(credentials: Credentials, context: ProviderContext): ProviderConnection;
}

export type ProviderErrorKind =
  'authentication' | 'rate_limited' | 'unavailable' | 'invalid_response' | 'not_found' | 'configuration';

// A provider's failure in words fit for the customer (no URLs, no library text); `retryable`
// says whether trying again later can help.
export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
  ) {
    super(message);
  }

  get retryable(): boolean {
    return this.kind === 'rate_limited' || this.kind === 'unavailable';
  }
}

export const MAX_INVOICE_FILE_BYTES = 20 * 1024 * 1024;
export const PAGE_SIZE = 50;
