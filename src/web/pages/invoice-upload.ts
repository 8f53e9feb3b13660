import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ApiError, errors } from '../../http/errors.js';
import type { ReceivedFile } from '../../http/multipart.js';
import { uploadLimits } from '../../invoices/imports.js';
import { mayCall, type OperationCaller, type OperationResponse } from '../operations.js';
import { defineAction, definePage, type WebRoute } from '../page.js';
import type { Texts } from '../texts/index.js';
import type { Credential } from '../../auth/credential.js';

// Uploading invoices from the invoices page, through the Organization API's own operations in
// process: register the file as a document (registerDocumentUpload), put its bytes to the
// returned storage address with the returned headers (as any API client does), then start the
// import (createInvoiceImport). The import runs in the background; the page polls it
// (getInvoiceImport) until it is neither queued nor running. Each file is its own upload: a refused
// file names its own reason and never stops the others.

type InvoiceImport = OperationResponse<'getInvoiceImport'>;

export type UploadState = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled' | 'refused';

// One file's line in the results: what happened to it, in the API's words.
export interface UploadRow {
  fileName: string;
  state: UploadState;
  importId: string | null;
  outcome: 'imported' | 'duplicate' | 'not_invoice' | null;
  invoiceId: string | null;
  reason: string | null;
  code: string | null;
}

// What upload-results.eta and upload-rows.eta read (their words: `it.app.t.upload`).
export type UploadResultsData = {
  rows: UploadRow[];
};

const importIdParams = z.object({ id: z.string().uuid() });

// What the storage needs as a type when the browser sent none it knows (a file picked on some systems).
function mimeTypeOf(file: ReceivedFile): string {
  const sent = (file.mimeType ?? '').toLowerCase();
  if (sent && sent !== 'application/octet-stream') return sent;
  const name = (file.fileName ?? '').toLowerCase();
  if (name.endsWith('.pdf')) return 'application/pdf';
  if (name.endsWith('.xml')) return 'application/xml';
  return 'application/octet-stream';
}

export function rowOfImport(invoiceImport: InvoiceImport, fileName: string): UploadRow {
  return {
    fileName,
    state: invoiceImport.status,
    importId: invoiceImport.id,
    outcome: invoiceImport.outcome,
    invoiceId: invoiceImport.invoice_id,
    reason:
      invoiceImport.outcome === 'not_invoice'
        ? invoiceImport.classification_reason
        : (invoiceImport.failure?.message ?? null),
    code: invoiceImport.failure?.code ?? null,
  };
}

function refusedRow(fileName: string, error: ApiError): UploadRow {
  const details = Array.isArray(error.extra.details)
    ? (error.extra.details as { field: string; message: string }[])
    : [];
  const detail = details.map((d) => `${d.field}: ${d.message}`).join('; ');
  return {
    fileName,
    state: 'refused',
    importId: null,
    outcome: null,
    invoiceId: null,
    reason: detail ? `${error.message} (${detail})` : error.message,
    code: error.code,
  };
}

// The spec's document registration, the byte upload to its address, and the import.
async function uploadOne(call: OperationCaller, file: ReceivedFile, t: Texts['upload']): Promise<UploadRow> {
  const fileName = file.fileName || 'invoice';
  try {
    const registration = await call('registerDocumentUpload', {
      body: { file_name: fileName, mime_type: mimeTypeOf(file), file_size: file.size, category: 'invoice' },
    });
    const stored = await fetch(registration.upload_url, {
      method: 'PUT',
      headers: registration.headers,
      body: await readFile(file.path),
    }).catch(() => null);
    if (!stored?.ok) throw errors.serviceUnavailable(t.notStored);
    const invoiceImport = await call('createInvoiceImport', {
      body: { primary_document_id: registration.document_id, attachment_document_ids: [] },
    });
    return rowOfImport(invoiceImport, fileName);
  } catch (caught) {
    if (caught instanceof ApiError) return refusedRow(fileName, caught);
    throw caught;
  }
}

// Whether the person may upload: the operations' own access rules (Write).
export function mayUpload(credential: Credential): boolean {
  return mayCall(credential, 'registerDocumentUpload') && mayCall(credential, 'createInvoiceImport');
}

// An import with the name of the file it reads (its primary document).
async function importRow(call: OperationCaller, id: string): Promise<UploadRow> {
  const invoiceImport = await call('getInvoiceImport', { params: { id } });
  const document = await call('getDocument', { params: { id: invoiceImport.primary_document_id } });
  return rowOfImport(invoiceImport, document.file_name);
}

export const invoiceUploadPages: WebRoute[] = [
  defineAction({
    path: '/invoices/upload',
    level: 'write',
    multipart: uploadLimits,
    body: z.object({ _csrf: z.unknown().optional() }).passthrough(),
    handle: async ({ files, call, ctx, t }) => {
      const uploads = files.filter((file) => file.field === 'files');
      if (uploads.length === 0) throw errors.validation(t.upload.noFiles, [{ field: 'files', message: 'missing' }]);
      // One after the other: the organization's processing capacity is taken in order.
      const rows: UploadRow[] = [];
      for (const file of uploads) rows.push(await uploadOne(call, file, t.upload));
      const data: UploadResultsData = { rows };
      // The page's script sends one file per request and places the answer in its list.
      if (ctx.get('HX-Request')) return { fragment: 'upload-rows', data };
      return {
        view: 'upload-results',
        title: t.upload.results,
        nav: 'invoices',
        data,
        status: rows.every((row) => row.state === 'refused') ? 400 : 200,
      };
    },
  }),
  // One import as a page (without script: the results link here to look again).
  definePage({
    path: '/invoices/imports/:id',
    nav: 'invoices',
    title: (t) => t.upload.results,
    view: 'upload-results',
    params: importIdParams,
    load: async ({ params, call }): Promise<UploadResultsData> => ({
      rows: [await importRow(call, params.id)],
    }),
  }),
  // One import's line alone, polled by htmx while it is queued or running.
  definePage({
    path: '/invoices/imports/:id/row',
    nav: null,
    title: (t) => t.upload.results,
    view: 'upload-rows',
    params: importIdParams,
    load: async ({ params, call }): Promise<UploadResultsData> => ({
      rows: [await importRow(call, params.id)],
    }),
  }),
];
