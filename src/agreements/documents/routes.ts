import { z } from 'zod';
import { assertIfMatch } from '../../http/etag.js';
import { defineRoute, idParams } from '../../http/route.js';
import { assertSentAsRead, listResponse } from '../../http/schemas.js';
import { findAgreement } from '../service.js';
import {
  agreementDocumentListQuery,
  agreementDocumentSchema,
  classificationPatchSchema,
  documentImportBodySchema,
  documentImportResponseSchema,
} from './schemas.js';
import {
  classifyByUser,
  findAgreementDocument,
  importAgreementDocuments,
  listAgreementDocumentsPage,
  serializeAgreementDocument,
} from './service.js';

const tag = 'Agreement documents';
const documentParams = z.object({ id: z.string().uuid(), document_id: z.string().uuid() });

export const agreementDocumentRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/agreements/{id}/document-imports',
    operationId: 'importAgreementDocuments',
    summary:
      'Attach uploaded documents to an agreement; each is classified (terms or price list) and indexed for search in one background run',
    tag,
    access: { level: 'write' },
    params: idParams,
    idempotent: true,
    body: documentImportBodySchema,
    responses: {
      202: {
        description: "The run and every entry's document; Location points to the run",
        schema: documentImportResponseSchema,
      },
      200: {
        description: 'Every document was already on the agreement (reused); nothing was started',
        schema: documentImportResponseSchema,
      },
    },
    handler: async ({ params, body, actor, deps, idempotencyKey }) => {
      const agreement = await findAgreement(deps, actor.organizationId, params.id);
      const { runId, documents } = await importAgreementDocuments(deps, agreement, body.entries, {
        createdByUserId: actor.userId,
        idempotencyKey,
      });
      const data = documents.map((d) => ({ ...serializeAgreementDocument(d.record), reused: d.reused }));
      if (!runId) return { status: 200, body: { workflow_run_id: null, data } };
      return {
        status: 202,
        body: { workflow_run_id: runId, data },
        headers: { Location: `/v1/workflow-runs/${runId}` },
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/agreements/{id}/documents',
    operationId: 'listAgreementDocuments',
    summary: 'List the documents of an agreement with their classification and processing state',
    tag,
    access: { level: 'read' },
    params: idParams,
    query: agreementDocumentListQuery,
    fieldsOf: agreementDocumentSchema,
    responses: { 200: { description: 'A page of agreement documents', schema: listResponse(agreementDocumentSchema) } },
    handler: async ({ params, query, actor, deps }) => ({
      body: await listAgreementDocumentsPage(deps, actor.organizationId, params.id, query),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/agreements/{id}/documents/{document_id}',
    operationId: 'getAgreementDocument',
    summary: 'Read one document of an agreement (with ETag)',
    tag,
    access: { level: 'read' },
    params: documentParams,
    etag: true,
    fieldsOf: agreementDocumentSchema,
    query: z.object({ fields: z.string().optional() }),
    responses: { 200: { description: 'The agreement document', schema: agreementDocumentSchema } },
    handler: async ({ params, actor, deps }) => {
      const agreement = await findAgreement(deps, actor.organizationId, params.id);
      return { body: serializeAgreementDocument(await findAgreementDocument(deps, agreement, params.document_id)) };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/agreements/{id}/documents/{document_id}',
    operationId: 'classifyAgreementDocument',
    summary:
      "Change a document's classification (terms or price list); a change makes earlier checks of the agreement outdated",
    tag,
    access: { level: 'write' },
    params: documentParams,
    body: classificationPatchSchema,
    responses: { 200: { description: 'The agreement document', schema: agreementDocumentSchema } },
    handler: async ({ params, body, actor, deps, ctx }) => {
      const agreement = await findAgreement(deps, actor.organizationId, params.id);
      const record = await findAgreementDocument(deps, agreement, params.document_id);
      assertIfMatch(ctx, serializeAgreementDocument(record));
      assertSentAsRead(ctx.request.body, serializeAgreementDocument(record), [
        'id',
        'agreement_id',
        'document_id',
        'file_name',
        'mime_type',
      ]);
      const repeated =
        body.classification === null ||
        (body.classification === record.classification && (body.classified_by ?? 'user') === record.classifiedBy);
      return {
        body: serializeAgreementDocument(repeated ? record : await classifyByUser(deps, record, body.classification!)),
      };
    },
  }),
];
