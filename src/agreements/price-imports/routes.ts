import { z } from 'zod';
import { defineRoute } from '../../http/route.js';
import { findAgreement } from '../service.js';
import {
  confirmPriceImportReview,
  findPriceImport,
  listPriceImports,
  priceImportListQuery,
  priceImportRowsCsv,
  startPriceImports,
  viewPriceImport,
} from './service.js';
import { listResponse } from '../../http/schemas.js';
import { isIsoCurrencyCode } from '../price-lists/currency.js';
import { PREVIEW_ROWS, previewPriceImport, priceImportPreviewSchema } from './preview.js';

const tag = 'Price imports';
const params = z.object({ id: z.string().uuid(), import_id: z.string().uuid() });

const priceImportSchema = z
  .object({
    id: z.string().uuid(),
    agreement_id: z.string().uuid(),
    document_id: z.string().uuid(),
    default_currency: z.string(),
    mode: z.enum(['add', 'replace_document', 'replace_all']),
    instructions: z.string().nullable(),
    worksheets: z.array(z.string()),
    status: z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']),
    reused: z
      .boolean()
      .meta({ description: 'The same file with the same settings was imported before; this is that import' }),
    rows: z
      .object({
        found: z.number().int(),
        added: z.number().int(),
        skipped: z.number().int(),
        rejected: z.number().int(),
      })
      .nullable(),
    failure: z
      .object({ code: z.string(), message: z.string() })
      .nullable()
      .meta({ description: 'extraction_incomplete when the list could not be read completely' }),
    needs_review: z.boolean().meta({
      description:
        'The import has finished and a person should look at it: the list could not be read completely (failure), or some rows were rejected (see the download)',
    }),
    workflow_run_id: z.string().uuid(),
    created_at: z.string().datetime(),
    finished_at: z.string().datetime().nullable(),
  })
  .meta({ id: 'PriceImport' });

const importsStartedSchema = z.object({
  workflow_run_id: z.string().uuid().nullable(),
  data: z.array(priceImportSchema),
});

const entrySchema = z
  .object({
    document_id: z.string().uuid(),
    // The price-list reader resolves symbols against the currencies it knows; a code it does not
    // know would only fail later, in the import's workflow.
    default_currency: z.string().refine(isIsoCurrencyCode, 'must be an ISO 4217 currency code such as EUR'),
    mode: z.enum(['add', 'replace_document', 'replace_all']).optional(),
    instructions: z.string().max(5000).optional(),
    worksheets: z.array(z.string().min(1).max(200)).max(100).optional(),
  })
  .strict();

export const priceImportRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/agreements/{id}/price-imports',
    operationId: 'createPriceImports',
    summary: 'Import price lists (CSV, XLSX, PDF with a text layer, DOCX) into price items, all in one workflow run',
    tag,
    access: { level: 'write' },
    params: z.object({ id: z.string().uuid() }),
    idempotent: true,
    body: z.object({ entries: z.array(entrySchema).min(1).max(20) }).strict(),
    responses: {
      202: {
        description: 'The imports (reused ones marked) and the new run; Location points to the run',
        schema: importsStartedSchema,
      },
      200: {
        description:
          'Every entry reused an earlier import: nothing was started (workflow_run_id null, as for a check with nothing to do); each import names its own run, and Location points to the first import',
        schema: importsStartedSchema,
      },
    },
    handler: async ({ params: { id }, body, actor, deps }) => {
      const agreement = await findAgreement(deps, actor.organizationId, id);
      const { runId, imports } = await startPriceImports(deps, agreement, body.entries, actor.userId);
      const data = await Promise.all(imports.map((i) => viewPriceImport(deps, i.record, i.reused)));
      if (!runId)
        return {
          status: 200,
          body: { workflow_run_id: null, data },
          headers: { Location: `/v1/agreements/${agreement.id}/price-imports/${data[0]!.id}` },
        };
      return {
        status: 202,
        body: { workflow_run_id: runId, data },
        headers: { Location: `/v1/workflow-runs/${runId}` },
      };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/agreements/{id}/price-imports/preview',
    operationId: 'previewPriceImport',
    summary: `The rows an import of one entry would find, each with its would-be outcome (the first ${PREVIEW_ROWS}, counts of all); saves nothing`,
    tag,
    access: { level: 'write' },
    params: z.object({ id: z.string().uuid() }),
    body: z.object({ entries: z.array(entrySchema).length(1) }).strict(),
    responses: { 200: { description: 'The preview', schema: priceImportPreviewSchema } },
    handler: async ({ params: { id }, body, actor, deps }) => {
      const agreement = await findAgreement(deps, actor.organizationId, id);
      return { body: await previewPriceImport(deps, agreement, body.entries[0]!) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/agreements/{id}/price-imports',
    operationId: 'listPriceImports',
    summary: "The agreement's price imports, newest first; needs_review=true lists those a person should look at",
    tag,
    access: { level: 'read' },
    params: z.object({ id: z.string().uuid() }),
    query: priceImportListQuery,
    fieldsOf: priceImportSchema,
    responses: { 200: { description: 'A page of price imports', schema: listResponse(priceImportSchema) } },
    handler: async ({ params: { id }, query, actor, deps }) => {
      const agreement = await findAgreement(deps, actor.organizationId, id);
      return { body: await listPriceImports(deps, agreement.id, query) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/agreements/{id}/price-imports/{import_id}',
    operationId: 'getPriceImport',
    summary: 'Read a price import',
    tag,
    access: { level: 'read' },
    params,
    etag: true,
    responses: { 200: { description: 'The import', schema: priceImportSchema } },
    handler: async ({ params: p, actor, deps }) => {
      const agreement = await findAgreement(deps, actor.organizationId, p.id);
      return { body: await viewPriceImport(deps, await findPriceImport(deps, agreement.id, p.import_id)) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/agreements/{id}/price-imports/{import_id}/confirm-review',
    operationId: 'confirmPriceImportReview',
    summary:
      'Confirm that a person has looked at an import that needed review (its failure or rejected rows): it leaves the review queue (needs_review=true); nothing else changes',
    tag,
    access: { level: 'write' },
    params,
    responses: { 200: { description: 'The import', schema: priceImportSchema } },
    handler: async ({ params: p, actor, deps }) => {
      const agreement = await findAgreement(deps, actor.organizationId, p.id);
      const priceImport = await findPriceImport(deps, agreement.id, p.import_id);
      return { body: await viewPriceImport(deps, await confirmPriceImportReview(deps, actor, priceImport)) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/agreements/{id}/price-imports/{import_id}/download',
    operationId: 'downloadPriceImport',
    summary: 'Every row found, with its outcome: added, skipped (duplicate), rejected (with the reason)',
    tag,
    access: { level: 'read' },
    params,
    responses: { 200: { description: 'CSV', contentType: 'text/csv', schema: z.string() } },
    handler: async ({ params: p, actor, deps }) => {
      const { importId, csv } = await priceImportRowsCsv(deps, actor.organizationId, p.id, p.import_id);
      return {
        body: csv,
        headers: {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="price-import-${importId}.csv"`,
        },
      };
    },
  }),
];
