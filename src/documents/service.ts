import { createHash, randomUUID } from 'node:crypto';
import type { AppDeps } from '../deps.js';
import type { Document, Prisma } from '../generated/prisma/client.js';
import { ApiError, errors } from '../http/errors.js';

// Storage keys are namespaced per organization, so no key of one organization can name another's.
// Two areas: `uploads/` receives the bytes clients PUT with a presigned URL (the URL stays valid
// for an hour and S3 cannot bind a PUT's size), `organizations/` holds the final, immutable bytes
// the service reads: the API's own uploads, and presigned uploads once sealed (sealDocument).
function safeFileName(fileName: string): string {
  return fileName.replace(/[^\w.-]+/g, '_').slice(-120) || 'file';
}

export function storageKeyFor(organizationId: string, documentId: string, fileName: string): string {
  return `organizations/${organizationId}/documents/${documentId}/${safeFileName(fileName)}`;
}

export function incomingKeyFor(organizationId: string, documentId: string, fileName: string): string {
  return `uploads/${organizationId}/${documentId}/${safeFileName(fileName)}`;
}

function isIncomingKey(key: string): boolean {
  return key.startsWith('uploads/');
}

export interface Registration {
  fileName: string;
  mimeType: string;
  fileSize: number;
  category?: string | null;
}

export async function registerDocument(
  deps: Pick<AppDeps, 'db' | 'storage'>,
  organizationId: string,
  registration: Registration,
) {
  const id = randomUUID();
  const storageKey = incomingKeyFor(organizationId, id, registration.fileName);
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

export async function findDocuments(
  deps: Pick<AppDeps, 'db'>,
  organizationId: string,
  ids: string[],
): Promise<Document[]> {
  const documents = await deps.db.document.findMany({ where: { organizationId, id: { in: ids } } });
  const missing = ids.filter((id) => !documents.some((d) => d.id === id));
  if (missing.length > 0) {
    throw errors.notFound(
      'document',
      missing.map((id) => ({ field: 'document_id', message: `no document ${id}` })),
    );
  }
  return ids.map((id) => documents.find((d) => d.id === id)!);
}

function notUploaded(document: Document, field: string) {
  return errors.validation(
    `The bytes of document ${document.id} have not been uploaded yet; PUT them to its upload_url first.`,
    [{ field, message: 'not uploaded yet' }],
  );
}

function sizeMismatch(document: Document, arrived: number, field: string) {
  return new ApiError(
    400,
    'upload_size_mismatch',
    `Document ${document.id} was registered with ${document.fileSize} bytes but ${arrived} arrived; register the file again with its real size.`,
    {
      details: [{ field, message: `registered ${document.fileSize} bytes, ${arrived} arrived` }],
    },
  );
}

// Before a presigned upload is used for anything (an invoice import, a price import, an agreement
// document, a search index), its bytes are checked against the registration and copied to a key
// no client can write, and the document points there from then on. So the file is exactly as
// large as registered, and what was parsed stays the evidence: a later PUT to the upload URL
// lands in the upload area, which nothing reads any more. Idempotent and safe to race: the copy
// is taken only of the version that was checked (its ETag, which is also in the sealed key), and
// one conditional update decides which copy the document keeps.
export async function sealDocument(
  deps: Pick<AppDeps, 'db' | 'storage'>,
  document: Document,
  field = 'document_id',
): Promise<Document> {
  // Sealed already, or received by the API itself. A document registered before uploads had their
  // own area (uploadedAt still null) is sealed like a new one.
  if (document.uploadedAt && !isIncomingKey(document.storageKey)) return document;
  // A concurrent request may have sealed it (and removed the upload) since this row was read.
  const sealedMeanwhile = async () => {
    const current = await deps.db.document.findUniqueOrThrow({ where: { id: document.id } });
    return current.storageKey !== document.storageKey ? current : null;
  };
  const stat = await deps.storage.stat(document.storageKey);
  if (!stat) {
    const current = await sealedMeanwhile();
    if (current) return sealDocument(deps, current, field);
    throw notUploaded(document, field);
  }
  if (stat.size !== document.fileSize) throw sizeMismatch(document, stat.size, field);
  const version = stat.etag.replace(/[^\w-]/g, '').slice(0, 40) || 'v';
  const sealedKey = storageKeyFor(document.organizationId, `${document.id}/${version}`, document.fileName);
  const copied = await deps.storage
    .copyIfUnchanged(document.storageKey, sealedKey, stat.etag)
    .catch(async (error: unknown) => {
      if ((await sealedMeanwhile()) === null) throw error;
      return 'sealed_meanwhile' as const;
    });
  if (copied === 'sealed_meanwhile') return sealDocument(deps, (await sealedMeanwhile())!, field);
  if (!copied) {
    throw errors.conflict(
      'upload_changed',
      `The bytes of document ${document.id} changed while they were checked; try again once the upload is finished.`,
    );
  }
  const sealed = await deps.db.document.updateMany({
    where: { id: document.id, storageKey: document.storageKey },
    data: { storageKey: sealedKey, uploadedAt: new Date() },
  });
  const current = await deps.db.document.findUniqueOrThrow({ where: { id: document.id } });
  if (sealed.count === 0 && current.storageKey !== sealedKey) {
    // A concurrent seal won with another version: its copy is the document; this one goes.
    await deps.storage.remove(sealedKey).catch(() => undefined);
  }
  if (sealed.count === 1) await deps.storage.remove(document.storageKey).catch(() => undefined);
  return current;
}

export async function sealDocuments(
  deps: Pick<AppDeps, 'db' | 'storage'>,
  documents: Document[],
  fieldOf: (index: number) => string = () => 'document_id',
): Promise<Document[]> {
  const sealed: Document[] = [];
  for (const [index, document] of documents.entries()) sealed.push(await sealDocument(deps, document, fieldOf(index)));
  return sealed;
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
