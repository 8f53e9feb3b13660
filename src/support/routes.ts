import { defineRoute } from '../http/route.js';
import { MAX_SUPPORT_BODY_BYTES, supportContactSchema, supportReceiptSchema } from './schemas.js';
import { contactSupport } from './service.js';

export const supportRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/support/contact',
    operationId: 'contactSupport',
    summary:
      'Write to support (subject, message, optional base64 attachments); the body may be up to 32 MiB. Stored, and mailed to support when mail is set up',
    tag: 'Support',
    access: { level: 'read' },
    maxBodyBytes: MAX_SUPPORT_BODY_BYTES,
    idempotent: true,
    body: supportContactSchema,
    responses: {
      202: { description: 'Received; the support request id', schema: supportReceiptSchema },
      413: { description: 'payload_too_large: over 32 MiB' },
    },
    handler: async ({ body, actor, deps }) => ({ status: 202, body: await contactSupport(deps, actor, body) }),
  }),
];
