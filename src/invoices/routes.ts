import { z } from 'zod';

import { assertIfMatch } from '../http/etag.js';
import { errors } from '../http/errors.js';
import { withMultipartFiles, type ReceivedFile } from '../http/multipart.js';
import { defineRoute, idParams } from '../http/route.js';
import { assertSentAsRead, booleanParam, listResponse } from '../http/schemas.js';
import {
  createImport,
  findImport,
  MAX_INVOICE_FILE_BYTES,
  MAX_UPLOAD_FILES,
  MAX_UPLOAD_TOTAL_BYTES,
  reconcileInvoiceProcessing,
  uploadInvoice,
  uploadLimits,
  viewImport,
  type UploadedFile,
} from './imports.js';
import { invoiceMetrics, metricsQuery, invoiceMetricsSchema } from './metrics.js';
import { supplierSpend, supplierSpendQuery, supplierSpendSchema } from './supplier-spend.js';
import { createInvoiceSchema, INVOICE_FIXED_FIELDS, patchInvoiceSchema } from './input-schemas.js';
import { ingestionInvoiceSchema, invoiceSchema } from './schemas.js';
import {
  createInvoiceFromData,
  deleteInvoice,
  findIngestionInvoice,
  findInvoice,
  patchInvoice,
  confirmReading,
  viewIngestionInvoices,
  viewInvoice,
} from './service.js';
import { isTerminalForIngestion } from './serialize.js';
import { invoiceListQuery, listInvoices } from './list.js';
import { resolveTeamScope } from '../teams/scope.js';

const MiB = 1024 * 1024;
const tag = 'Invoices';
// How soon an ingestion client should poll a pending invoice again.
const POLL_AFTER_SECONDS = '2';

const importSchema = z
  .object({
    id: z.string().uuid(),
    status: z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']),
    outcome: z.enum(['imported', 'duplicate', 'not_invoice']).nullable(),
    invoice_id: z.string().uuid().nullable(),
    classification_reason: z.string().nullable(),
    failure: z.object({ code: z.string(), message: z.string() }).nullable(),
    workflow_run_id: z.string().uuid(),
    primary_document_id: z.string().uuid(),
    attachment_document_ids: z.array(z.string().uuid()),
    source: z.string(),
    created_at: z.string().datetime(),
    finished_at: z.string().datetime().nullable(),
  })
  .meta({ id: 'InvoiceImport' });

// The upload's parts: exactly one file named primary, any number named attachments.
function uploadedFiles(files: ReceivedFile[]): { primary: UploadedFile; attachments: UploadedFile[] } {
  const primaries = files.filter((file) => file.field === 'primary');
  const attachments = files.filter((file) => file.field === 'attachments');
  const unknownParts = [
    ...new Set(files.map((file) => file.field).filter((name) => name !== 'primary' && name !== 'attachments')),
  ];
  if (primaries.length !== 1 || unknownParts.length > 0) {
    throw errors.validation(
      'Send multipart/form-data with exactly one file part named primary and any number named attachments.',
      [
        {
          field: 'primary',
          message: primaries.length === 0 ? 'missing' : primaries.length > 1 ? 'more than one' : 'ok',
        },
        ...unknownParts.map((name) => ({ field: name, message: 'unknown part' })),
      ],
    );
  }
  const asUploaded = (file: ReceivedFile): UploadedFile => ({
    fileName: file.fileName || 'invoice',
    mimeType: (file.mimeType || 'application/octet-stream').toLowerCase(),
    path: file.path,
    size: file.size,
    md5: file.md5,
  });
  return { primary: asUploaded(primaries[0]!), attachments: attachments.map(asUploaded) };
}

export const invoiceRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/invoices/imports',
    operationId: 'createInvoiceImport',
    summary: 'Import an invoice file already uploaded as a document; poll the import until it is not queued or running',
    tag,
    access: { level: 'write' },
    idempotent: true,
    body: z
      .object({
        primary_document_id: z.string().uuid(),
        attachment_document_ids: z.array(z.string().uuid()).max(50).default([]),
      })
      .strict(),
    responses: {
      202: { description: 'The import; Location points to it', schema: importSchema },
      400: {
        description: 'validation_error; upload_size_mismatch when the bytes in storage are not the registered size',
      },
      429: { description: 'invoice_processing_capacity_exhausted' },
    },
    handler: async ({ body, actor, deps, idempotencyKey }) => {
      const invoiceImport = await createImport(deps, {
        organizationId: actor.organizationId,
        primaryDocumentId: body.primary_document_id,
        attachmentDocumentIds: body.attachment_document_ids,
        source: 'api',
        idempotencyKey,
        createdByUserId: actor.userId,
      });
      return {
        status: 202,
        body: await viewImport(deps, invoiceImport),
        headers: { Location: `/v1/invoices/imports/${invoiceImport.id}` },
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/invoices/imports/{id}',
    operationId: 'getInvoiceImport',
    summary: 'Read an import',
    tag,
    access: { level: 'read' },
    params: idParams,
    etag: true,
    responses: { 200: { description: 'The import', schema: importSchema } },
    handler: async ({ params, actor, deps }) => ({
      body: await viewImport(deps, await findImport(deps, actor.organizationId, params.id)),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/invoices/upload',
    operationId: 'uploadInvoice',
    summary: 'Ingestion API: upload an invoice file (multipart: primary, attachments)',
    tag: 'Ingestion',
    access: { level: 'write', ingestionScope: 'invoices:write' },
    multipart: z.object({
      primary: z.string().meta({ format: 'binary' }),
      attachments: z.array(z.string().meta({ format: 'binary' })).optional(),
    }),
    responses: {
      201: { description: 'The new invoice; Location: /v1/invoices/{invoice_id}', schema: ingestionInvoiceSchema },
      409: { description: 'conflict or primary_md5_locked_by_deleted_invoice, with existing_invoice_id' },
      413: {
        description: `payload_too_large: over ${MAX_INVOICE_FILE_BYTES / MiB} MiB per file, ${MAX_UPLOAD_FILES} files or ${MAX_UPLOAD_TOTAL_BYTES / MiB} MiB in all`,
      },
    },
    handler: async ({ actor, deps, ctx }) => {
      if (!ctx.is('multipart'))
        throw errors.validation('Send the invoice as multipart/form-data with a file part named primary.');
      // Read only here, after the actor and its scope were checked; the files are gone when this returns.
      const invoice = await withMultipartFiles(ctx, uploadLimits(deps.config), async (files) => {
        const { primary, attachments } = uploadedFiles(files);
        return uploadInvoice(deps, actor.organizationId, primary, attachments, actor.userId);
      });
      return {
        status: 201,
        body: (await viewIngestionInvoices(deps, [invoice]))[0],
        headers: { Location: `/v1/invoices/${invoice.id}` },
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/invoices',
    operationId: 'listInvoices',
    summary:
      'List invoices, newest first unless sorted (issue_date, due_date, amounts.including_vat, invoice_number; unknown values last); ingestion tokens: {invoices, next_cursor}, limit 1 to 100, created_at only',
    tag,
    access: { level: 'read', ingestionScope: 'invoices:read' },
    query: invoiceListQuery,
    fieldsOf: invoiceSchema,
    ingestionFieldsOf: ingestionInvoiceSchema,
    responses: { 200: { description: 'A page of invoices', schema: listResponse(invoiceSchema) } },
    handler: async ({ query, actor, deps }) => ({ body: await listInvoices(deps, actor, query) }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/invoices',
    operationId: 'createInvoice',
    summary: 'Create an invoice from data; the lines must add up to the totals or nothing is created',
    tag,
    access: { level: 'write' },
    idempotent: true,
    body: createInvoiceSchema,
    responses: {
      201: { description: 'The invoice', schema: invoiceSchema },
      409: { description: 'conflict: the invoice already exists (existing_invoice_id)' },
    },
    handler: async ({ body, actor, deps }) => {
      const id = await createInvoiceFromData(deps, actor.organizationId, actor, body);
      const invoice = await findInvoice(deps, actor.organizationId, id);
      return { status: 201, body: await viewInvoice(deps, invoice), headers: { Location: `/v1/invoices/${id}` } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/invoices/metrics',
    operationId: 'getInvoiceMetrics',
    summary: 'Invoice counts and spend per currency (semantic duplicates are not spend)',
    tag,
    access: { level: 'read' },
    query: metricsQuery,
    responses: { 200: { description: 'Counts and spend', schema: invoiceMetricsSchema } },
    handler: async ({ query, actor, deps }) => ({
      body: await invoiceMetrics(deps, actor.organizationId, query, await resolveTeamScope(deps.db, actor, query)),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/invoices/metrics/suppliers',
    operationId: 'getInvoiceSpendBySupplier',
    summary:
      'Spend per supplier and currency (the metrics spend split by supplier): largest net spend first per currency, at most `limit` suppliers, the rest summed',
    tag,
    access: { level: 'read' },
    query: supplierSpendQuery,
    responses: { 200: { description: 'Spend per supplier', schema: supplierSpendSchema } },
    handler: async ({ query, actor, deps }) => ({
      body: await supplierSpend(deps, actor.organizationId, query, await resolveTeamScope(deps.db, actor, query)),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/invoices/{id}',
    operationId: 'getInvoice',
    summary: 'Read an invoice (ingestion tokens get the Ingestion shape, with Retry-After while processing)',
    tag,
    access: { level: 'read', ingestionScope: 'invoices:read' },
    params: idParams,
    query: z.object({ fields: z.string().optional() }),
    etag: true,
    fieldsOf: invoiceSchema,
    ingestionFieldsOf: ingestionInvoiceSchema,
    responses: { 200: { description: 'The invoice', schema: invoiceSchema } },
    handler: async ({ params, actor, deps }) => {
      // An invoice still pending or processing follows its import's run when that has ended.
      if (actor.kind !== 'ingestion_token')
        return {
          body: await viewInvoice(
            deps,
            await reconcileInvoiceProcessing(deps, await findInvoice(deps, actor.organizationId, params.id)),
          ),
        };
      const invoice = await reconcileInvoiceProcessing(
        deps,
        await findIngestionInvoice(deps, actor.organizationId, params.id),
      );
      return {
        body: (await viewIngestionInvoices(deps, [invoice]))[0],
        headers: isTerminalForIngestion(invoice) ? undefined : { 'Retry-After': POLL_AFTER_SECONDS },
      };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/invoices/{id}',
    operationId: 'updateInvoice',
    summary: 'Change sent fields; line_items replaces the list; checks are not re-run but become outdated',
    tag,
    access: { level: 'write' },
    params: idParams,
    body: patchInvoiceSchema,
    responses: { 200: { description: 'The invoice', schema: invoiceSchema } },
    handler: async ({ params, body, actor, deps, ctx }) => {
      const invoice = await findInvoice(deps, actor.organizationId, params.id);
      const current = await viewInvoice(deps, invoice);
      assertIfMatch(ctx, current);
      assertSentAsRead(ctx.request.body, current, INVOICE_FIXED_FIELDS);
      await patchInvoice(deps, actor, invoice, body);
      return { body: await viewInvoice(deps, await findInvoice(deps, actor.organizationId, params.id)) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/invoices/{id}/confirm-reading',
    operationId: 'confirmInvoiceReading',
    summary:
      'Confirm that an uncertain reading is right as read: the invoice leaves the review queue (needs_review=true); nothing else changes',
    tag,
    access: { level: 'write' },
    params: idParams,
    responses: { 200: { description: 'The invoice', schema: invoiceSchema } },
    handler: async ({ params, actor, deps }) => {
      await confirmReading(deps, actor, await findInvoice(deps, actor.organizationId, params.id));
      return { body: await viewInvoice(deps, await findInvoice(deps, actor.organizationId, params.id)) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/invoices/{id}',
    operationId: 'deleteInvoice',
    summary: 'Delete an invoice (soft); permanent=true (Admin) removes it and its files for good',
    tag,
    access: { level: 'write' },
    params: idParams,
    query: z.object({ permanent: booleanParam.default(false) }),
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ params, query, actor, deps, ctx }) => {
      if (query.permanent && !(actor.kind === 'member' && actor.level === 'admin'))
        throw errors.insufficientLevel('admin');
      const invoice = await findInvoice(deps, actor.organizationId, params.id, { includeDeleted: true });
      if (!invoice.deletedAt) assertIfMatch(ctx, await viewInvoice(deps, invoice));
      await deleteInvoice(deps, actor, invoice, query.permanent);
      return { status: 204 };
    },
  }),
];
