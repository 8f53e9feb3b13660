import type http from 'node:http';
import { agentWithinPolicy, DestinationRefused } from '../../notifications/address-policy.js';
import { Client } from 'minio';
import { z } from 'zod';
import {
  DEFAULT_REQUEST_TIMEOUT_MS,
  MAX_INVOICE_FILE_BYTES,
  ProviderError,
  type InvoiceFile,
  type InvoicePage,
  type Period,
  type Provider,
  type ProviderConnection,
  type ProviderContext,
  type ProviderInvoiceRef,
  type TestStep,
} from './provider.js';

// An e-invoice inbox on S3-compatible storage: an access point or scanning service drops XML and
// PDF invoices under a bucket and prefix. Every .xml file is an invoice; a .pdf is one too, unless
// an .xml of the same name lies beside it (then the PDF is that invoice's attachment). A file
// belongs to a period by its upload time (S3's LastModified, in UTC), the only date an inbox has.
// An inbox knows no suppliers: the suppliers list is empty, so its syncs cannot be scoped.

const credentialsSchema = z
  .object({
    endpoint: z
      .string()
      .url()
      .max(500)
      .meta({ description: 'http(s) address of the S3-compatible service, e.g. https://s3.eu-north-1.amazonaws.com' }),
    region: z.string().min(1).max(64).default('us-east-1'),
    bucket: z
      .string()
      .min(3)
      .max(63)
      .regex(/^[a-z0-9][a-z0-9.-]*[a-z0-9]$/, 'must be an S3 bucket name'),
    prefix: z
      .string()
      .max(500)
      .default('')
      .meta({ description: 'Folder inside the bucket, e.g. inbox/ (empty: the whole bucket)' }),
    access_key: z.string().min(1).max(500),
    secret_key: z.string().min(1).max(500),
  })
  .strict();

export type S3InboxCredentials = z.infer<typeof credentialsSchema>;

// Keys listed per request; a page holds the invoices among them.
const LIST_BATCH = 200;
const INVOICE_EXTENSION = /\.(xml|pdf)$/i;

function clientFor(credentials: S3InboxCredentials, agent: http.Agent): Client {
  const url = new URL(credentials.endpoint);
  return new Client({
    transportAgent: agent,
    endPoint: url.hostname,
    port: url.port ? Number(url.port) : undefined,
    useSSL: url.protocol === 'https:',
    accessKey: credentials.access_key,
    secretKey: credentials.secret_key,
    region: credentials.region,
    pathStyle: true,
  });
}

// The storage's answer in words for the customer; the library's own text stays out.
function providerErrorOf(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof DestinationRefused)
    return new ProviderError('configuration', 'The storage address (endpoint) is not one the service connects to.');
  const code = (error as { code?: string }).code ?? '';
  if (['AccessDenied', 'InvalidAccessKeyId', 'SignatureDoesNotMatch', 'InvalidToken', 'ExpiredToken'].includes(code)) {
    return new ProviderError('authentication', 'The storage refused the access key and secret.');
  }
  if (code === 'NoSuchBucket') return new ProviderError('configuration', 'The bucket does not exist.');
  if (code === 'NoSuchKey' || code === 'NotFound')
    return new ProviderError('not_found', 'The file is no longer in the inbox.');
  if (code === 'SlowDown' || code === 'TooManyRequests')
    return new ProviderError('rate_limited', 'The storage asked to slow down.');
  return new ProviderError('unavailable', 'The storage could not be reached.');
}

function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function baseName(name: string): string {
  return name.replace(INVOICE_EXTENSION, '');
}

function fileNameOf(objectName: string): string {
  return objectName.slice(objectName.lastIndexOf('/') + 1) || 'invoice';
}

function mimeTypeOf(name: string): string {
  return name.toLowerCase().endsWith('.pdf') ? 'application/pdf' : 'application/xml';
}

class S3InboxConnection implements ProviderConnection {
  private readonly agent: http.Agent;
  private readonly client: Client;

  constructor(
    private readonly credentials: S3InboxCredentials,
    private readonly context: ProviderContext,
  ) {
    this.agent = agentWithinPolicy(credentials.endpoint, context.addressPolicy);
    this.client = clientFor(credentials, this.agent);
  }

  // One storage call, ended after the request timeout (answered or not, its body read) or when
  // the activity is cancelled. The minio client takes neither a timeout nor a signal, so the call
  // is ended by destroying the connection's sockets (the agent is this connection's own), which
  // fails the request underneath; the caller gets `unavailable`, which the activity retries.
  private async bounded<T>(work: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const ended = new Promise<never>((_resolve, reject) => {
      const end = (error: ProviderError) => {
        reject(error);
        this.agent.destroy();
      };
      timer = setTimeout(
        () => end(new ProviderError('unavailable', 'The storage did not answer in time.')),
        this.context.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      );
      onAbort = () => end(new ProviderError('unavailable', 'The storage call was cancelled.'));
      if (this.context.signal?.aborted) onAbort();
      else this.context.signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([work(), ended]);
    } finally {
      clearTimeout(timer);
      if (onAbort) this.context.signal?.removeEventListener('abort', onAbort);
    }
  }

  private async exists(name: string): Promise<boolean> {
    try {
      await this.bounded(() => this.client.statObject(this.credentials.bucket, name));
      return true;
    } catch (error) {
      const failure = providerErrorOf(error);
      if (failure.kind === 'not_found') return false;
      throw failure;
    }
  }

  private async read(name: string): Promise<Buffer> {
    try {
      return await this.bounded(async () => {
        const stream = await this.client.getObject(this.credentials.bucket, name);
        const chunks: Buffer[] = [];
        let total = 0;
        for await (const chunk of stream) {
          total += (chunk as Buffer).length;
          if (total > MAX_INVOICE_FILE_BYTES) {
            stream.destroy();
            throw new ProviderError('invalid_response', `The file ${fileNameOf(name)} is larger than 20 MiB.`);
          }
          chunks.push(chunk as Buffer);
        }
        return Buffer.concat(chunks);
      });
    } catch (error) {
      throw providerErrorOf(error);
    }
  }

  async test(): Promise<TestStep[]> {
    const steps: TestStep[] = [];
    try {
      if (!(await this.bounded(() => this.client.bucketExists(this.credentials.bucket)))) {
        return [
          { name: 'sign_in', status: 'failed', message: 'The bucket does not exist.' },
          { name: 'read_invoices', status: 'skipped', message: 'Needs a working sign-in.' },
        ];
      }
      steps.push({
        name: 'sign_in',
        status: 'passed',
        message: 'The storage accepted the access key; the bucket exists.',
      });
    } catch (error) {
      return [
        { name: 'sign_in', status: 'failed', message: providerErrorOf(error).message },
        { name: 'read_invoices', status: 'skipped', message: 'Needs a working sign-in.' },
      ];
    }
    try {
      const listed = await this.bounded(() =>
        this.client.listObjectsV2Query(this.credentials.bucket, this.credentials.prefix, '', '', 20, ''),
      );
      const invoices = listed.objects.filter((object) => object.name && INVOICE_EXTENSION.test(object.name));
      if (invoices[0]?.name) await this.read(invoices[0].name);
      steps.push({
        name: 'read_invoices',
        status: 'passed',
        message:
          invoices.length === 0
            ? 'The inbox is readable and holds no invoice files yet.'
            : `Read ${invoices.length === 1 ? 'the invoice file' : `1 of ${invoices.length} invoice files`} found first.`,
      });
    } catch (error) {
      steps.push({ name: 'read_invoices', status: 'failed', message: providerErrorOf(error).message });
    }
    return steps;
  }

  async listSuppliers() {
    return [];
  }

  async listInvoices(period: Period, page: string | null): Promise<InvoicePage> {
    let listed;
    try {
      listed = await this.bounded(() =>
        this.client.listObjectsV2Query(
          this.credentials.bucket,
          this.credentials.prefix,
          '',
          '',
          LIST_BATCH,
          page ?? '',
        ),
      );
    } catch (error) {
      throw providerErrorOf(error);
    }
    const invoices: ProviderInvoiceRef[] = [];
    for (const object of listed.objects) {
      if (!object.name || !INVOICE_EXTENSION.test(object.name) || object.size > MAX_INVOICE_FILE_BYTES) continue;
      const day = dayOf(new Date(object.lastModified));
      if (day < period.from || day > period.through) continue;
      if (object.name.toLowerCase().endsWith('.pdf') && (await this.exists(`${baseName(object.name)}.xml`))) continue;
      invoices.push({
        key: `s3:${object.name}`,
        reference: object.name,
        label: fileNameOf(object.name),
        supplierExternalId: null,
      });
    }
    this.context.heartbeat();
    const last = listed.objects[listed.objects.length - 1]?.name;
    return { invoices, nextPage: listed.isTruncated && last ? last : null };
  }

  async fetchInvoiceFiles(invoice: ProviderInvoiceRef): Promise<InvoiceFile[]> {
    const primary = {
      fileName: fileNameOf(invoice.reference),
      mimeType: mimeTypeOf(invoice.reference),
      bytes: await this.read(invoice.reference),
    };
    if (!invoice.reference.toLowerCase().endsWith('.xml')) return [primary];
    const pdfName = `${baseName(invoice.reference)}.pdf`;
    if (!(await this.exists(pdfName))) return [primary];
    return [primary, { fileName: fileNameOf(pdfName), mimeType: 'application/pdf', bytes: await this.read(pdfName) }];
  }
}

export const s3InboxProvider: Provider<S3InboxCredentials> = {
  id: 's3_inbox',
  name: 'E-invoice inbox on S3-compatible storage',
  connect: 'api',
  scopeDescription:
    'An inbox knows no suppliers: scope cannot narrow its syncs (every invoice file of the period is imported).',
  credentialsSchema,
  addressFields: ['endpoint'],
  secretFields: ['access_key', 'secret_key'],
  open: (credentials, context) => new S3InboxConnection(credentials, context),
};
