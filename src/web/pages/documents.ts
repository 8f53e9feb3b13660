import { z } from 'zod';
import { findDocuments } from '../../documents/service.js';
import { definePage } from '../page.js';

// A stored file of the organization (an agreement's terms or price list, the document a citation
// quotes): the browser is sent to a short-lived presigned link, so the bytes never pass through
// the API process. findDocuments answers 404 for another organization's document.

const DOWNLOAD_LINK_SECONDS = 300;

export const documentPages = [
  definePage({
    path: '/documents/:id/file',
    nav: null,
    title: (t) => t.agreements.documentTitle,
    view: 'error',
    params: z.object({ id: z.string().uuid() }),
    load: async ({ params, deps, credential }) => {
      const [document] = await findDocuments(deps, credential.organizationId, [params.id]);
      const link = await deps.storage.presignDownload(document!.storageKey, document!.fileName, DOWNLOAD_LINK_SECONDS);
      return { redirect: link.url };
    },
  }),
];

export const documentFileUrl = (documentId: string) => `/app/documents/${documentId}/file`;
