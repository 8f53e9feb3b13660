import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { repoRoot } from '../../src/infra/defaults.js';
import { call, eventually, type ApiResponse } from './api.js';
import type { Tenant } from './tenants.js';

// Beside the clone, or two levels up from a worktree (/work/wt/<name>).
export const samplesRoot =
  process.env.SAMPLES_DIR ??
  [path.resolve(repoRoot, '../shared/samples'), path.resolve(repoRoot, '../../shared/samples')].find((dir) =>
    existsSync(dir),
  ) ??
  path.resolve(repoRoot, '../shared/samples');

export function sample(relativePath: string): Buffer {
  return readFileSync(path.join(samplesRoot, relativePath));
}

export function mimeTypeOf(fileName: string): string {
  return fileName.endsWith('.pdf') ? 'application/pdf' : 'application/xml';
}

// Registers a document and PUTs its bytes straight to storage, as a client would: with exactly
// the returned headers and no API key.
export async function uploadDocument(
  tenant: Tenant,
  fileName: string,
  bytes: Buffer,
  mimeType = mimeTypeOf(fileName),
): Promise<string> {
  const registration = await tenant.call('/v1/documents/upload', {
    method: 'POST',
    body: { file_name: fileName, mime_type: mimeType, file_size: bytes.length, category: 'invoice' },
  });
  if (registration.status !== 201) throw new Error(`registration failed: ${JSON.stringify(registration.body)}`);
  const put = await fetch(registration.body.upload_url, {
    method: 'PUT',
    headers: registration.body.headers,
    body: bytes,
  });
  if (!put.ok) throw new Error(`storage PUT failed: ${put.status} ${await put.text()}`);
  return registration.body.document_id;
}

export async function importDocument(tenant: Tenant, documentId: string, headers: Record<string, string> = {}) {
  return tenant.call('/v1/invoices/imports', { method: 'POST', body: { primary_document_id: documentId }, headers });
}

export async function settledImport(tenant: Tenant, importId: string) {
  const response = await eventually(
    () => tenant.call(`/v1/invoices/imports/${importId}`),
    (r) => !['queued', 'running'].includes(r.body?.status),
    60_000,
  );
  return response.body;
}

// The Ingestion API upload: multipart/form-data with a primary file part.
export async function ingestionUpload(
  token: string,
  fileName: string,
  bytes: Buffer,
  attachments: { name: string; bytes: Buffer }[] = [],
): Promise<ApiResponse> {
  const form = new FormData();
  form.append('primary', new Blob([bytes], { type: mimeTypeOf(fileName) }), fileName);
  for (const attachment of attachments)
    form.append('attachments', new Blob([attachment.bytes], { type: 'application/pdf' }), attachment.name);
  const response = await fetch(`${inject('apiUrl')}/v1/invoices/upload`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

// The invoice once neither its processing nor its alerts' is pending or processing, as the spec
// tells clients to poll. A long wait (a worker killed mid-import) can spend the token's request
// budget: a 429 is waited out for its Retry-After, as a client would, and never taken for the
// settled invoice (a crash test once read `processing` of the error body).
export async function settledIngestionInvoice(token: string, invoiceId: string) {
  const response = await eventually(
    () => politely(() => call(`/v1/invoices/${invoiceId}`, { token })),
    (r) =>
      r.status === 200 &&
      ![r.body?.processing?.status, r.body?.alerts?.processing?.status].some((status) =>
        ['pending', 'processing'].includes(status),
      ),
    120_000,
  );
  return response;
}

async function politely(request: () => Promise<ApiResponse>): Promise<ApiResponse> {
  for (;;) {
    const response = await request();
    if (response.status !== 429) return response;
    const seconds = Number(response.headers.get('retry-after') ?? '1');
    await new Promise((resolve) => setTimeout(resolve, 1000 * Math.min(Math.max(seconds, 1), 60)));
  }
}
