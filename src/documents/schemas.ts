import { z } from 'zod';
import { acceptingReadShape } from '../http/schemas.js';

// What may be registered: a file of any type (the spec: attachments may be of any type), named by
// a well-formed media type `type/subtype` (RFC 6838's characters; parameters such as charset are
// dropped). The invoice import checks its primary file's type itself; downloads are always sent
// as attachments, so a stored type is never rendered by a browser.
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

// 100 MiB: far above any real invoice or price list, low enough to refuse absurd registrations.
export const MAX_DOCUMENT_BYTES = 100 * 1024 * 1024;

const registrationInput = z
  .object({
    file_name: z.string().trim().min(1).max(255),
    mime_type: z
      .string()
      .max(255)
      .transform((v) => v.toLowerCase().split(';')[0]!.trim())
      .pipe(z.string().regex(MEDIA_TYPE, 'must be a media type such as application/pdf or image/png')),
    file_size: z
      .number()
      .int()
      .min(1, 'an empty file cannot be registered')
      .max(MAX_DOCUMENT_BYTES, `must be at most ${MAX_DOCUMENT_BYTES} bytes`),
    category: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .nullable()
      .optional()
      .transform((v) => v ?? undefined),
  })
  .strict();

export const documentUploadResponseSchema = z
  .object({
    document_id: z.string().uuid(),
    upload_url: z.string().url(),
    headers: z
      .record(z.string(), z.string())
      .meta({ description: 'Send exactly these headers with the PUT of the bytes, and no API key.' }),
    expires_at: z.string().datetime(),
  })
  .meta({ id: 'DocumentUpload' });

export const documentSchema = z
  .object({
    id: z.string().uuid(),
    file_name: z.string(),
    mime_type: z.string(),
    file_size: z.number().int(),
    category: z.string().nullable(),
    uploaded: z.boolean().meta({ description: 'Whether the bytes have been received' }),
    created_at: z.string().datetime(),
  })
  .meta({ id: 'Document' });

// A document as read registers another upload of the same kind of file: id, uploaded and
// created_at are accepted as read and ignored.
export const documentRegistrationSchema = acceptingReadShape(registrationInput, documentSchema);
