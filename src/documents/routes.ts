import { defineRoute, idParams } from '../http/route.js';
import { documentRegistrationSchema, documentSchema, documentUploadResponseSchema } from './schemas.js';
import { findDocuments, registerDocument, serializeDocument } from './service.js';

const tag = 'Documents';

export const documentRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/documents/upload',
    operationId: 'registerDocumentUpload',
    summary: 'Register a file; then PUT its bytes to upload_url with exactly the returned headers and no API key',
    tag,
    access: { level: 'write' },
    idempotent: true,
    body: documentRegistrationSchema,
    responses: { 201: { description: 'Where and how to upload the bytes', schema: documentUploadResponseSchema } },
    handler: async ({ body, actor, deps }) => {
      const { document, upload } = await registerDocument(deps, actor.organizationId, {
        fileName: body.file_name,
        mimeType: body.mime_type,
        fileSize: body.file_size,
        category: body.category,
      });
      return {
        status: 201,
        body: {
          document_id: document.id,
          upload_url: upload.url,
          headers: upload.headers,
          expires_at: upload.expiresAt.toISOString(),
        },
        headers: { Location: `/v1/documents/${document.id}` },
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/documents/{id}',
    operationId: 'getDocument',
    summary: 'Read a registered document and whether its bytes arrived',
    tag,
    access: { level: 'read' },
    params: idParams,
    etag: true,
    responses: { 200: { description: 'The document', schema: documentSchema } },
    handler: async ({ params, actor, deps }) => {
      const [document] = await findDocuments(deps, actor.organizationId, [params.id]);
      const uploaded = document!.uploadedAt !== null || (await deps.storage.stat(document!.storageKey)) !== null;
      return { body: serializeDocument(document!, uploaded) };
    },
  }),
];
