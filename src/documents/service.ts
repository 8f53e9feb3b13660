import { createHash, randomUUID } from 'node:crypto';
import type { AppDeps } from '../deps.js';
import type { Document, Prisma } from '../generated/prisma/client.js';
import { errors } from '../http/errors.js';
import type { ObjectStorage } from '../storage/object-storage.js';

// Storage keys are namespaced per organization, so no key of one organization can name another's.
export function storageKeyFor(organizationId: string, documentId: string, fileName: string): string {
  const safeName = fileName.replace(/[^\w.-]+/g, '_').slice(-120) || 'file';
  return `organizations/${organizationId}/documents/${documentId}/${safeName}`;
}

export interface Registration {
  fileName: string;
  mimeType: string;
  fileSize: number;
  category?: string | null;
}

export async function registerDocument(deps: Pick<AppDeps, 'db' | 'storage'>, organizationId: string, registration: Registration) {
  const id = randomUUID();
  const storageKey = storageKeyFor(organizationId, id, registration.fileName);
  const upload = await deps.storage.presignUpload(storageKey, registration.mimeType);
  const document = await deps.db.document.create({
    data: {
      id,
      organizationId,
      fileName: registration.fileName,
      mimeType: registration.mimeType,
      fileSize: registration.fileSize,
      category: registration.category ?? null,
      storageKey,
    },
  });
  return { document, upload };
}

// Files received by the API itself (the multipart Ingestion upload, from its temporary folder) go
// to storage the same way, streamed; the document row is returned for the caller to insert with
// the records it belongs to. No presigned URL exists for its key, so the bytes are final.
export async function putDocumentFile(
  deps: Pick<AppDeps, 'storage'>,
  organizationId: string,
  file: { fileName: string; mimeType: string; path: string; size: number; md5: string; category?: string },
): Promise<Prisma.DocumentUncheckedCreateInput & { id: string; storageKey: string }> {
  const id = randomUUID();
  const storageKey = storageKeyFor(organizationId, id, file.fileName);
  await deps.storage.putFile(storageKey, file.path, file.size, file.mimeType);
  return {
    id,
    organizationId,
    fileName: file.fileName,
    mimeType: file.mimeType,
    fileSize: file.size,
    category: file.category ?? null,
    storageKey,
    md5: file.md5,
    uploadedAt: new Date(),
  };
}

export function md5Of(bytes: Uint8Array): string {
  return createHash('md5').update(bytes).digest('hex');
}

export async function findDocuments(deps: Pick<AppDeps, 'db'>, organizationId: string, ids: string[]): Promise<Document[]> {
  const documents = await deps.db.document.findMany({ where: { organizationId, id: { in: ids } } });
  const missing = ids.filter((id) => !documents.some((d) => d.id === id));
  if (missing.length > 0) {
    throw errors.notFound('document', missing.map((id) => ({ field: 'document_id', message: `no document ${id}` })));
  }
  return ids.map((id) => documents.find((d) => d.id === id)!);
}

// The bytes must be in storage, and as large as registered, before an import may start.
export async function assertUploaded(storage: ObjectStorage, document: Document): Promise<void> {
  const stat = await storage.stat(document.storageKey);
  if (!stat) {
    throw errors.validation(`The bytes of document ${document.id} have not been uploaded yet; PUT them to its upload_url first.`, [
      { field: 'document_id', message: 'not uploaded yet' },
    ]);
  }
  if (stat.size !== document.fileSize) {
    throw errors.validation(`Document ${document.id} was registered with ${document.fileSize} bytes but ${stat.size} arrived.`, [
      { field: 'document_id', message: 'size differs from the registration' },
    ]);
  }
}

export function serializeDocument(document: Document, uploaded: boolean) {
  return {
    id: document.id,
    file_name: document.fileName,
    mime_type: document.mimeType,
    file_size: document.fileSize,
    category: document.category,
    uploaded,
    created_at: document.createdAt.toISOString(),
  };
}
