import { z } from 'zod';

// POST /v1/support/contact (docs/activity.md, "Support contact").

// The one exception to the 2 MiB body limit (spec, Limits).
export const MAX_SUPPORT_BODY_BYTES = 32 * 1024 * 1024;
export const MAX_SUPPORT_ATTACHMENTS = 10;

// Standard base64 (padding optional), checked character by character: no regular expression over
// a value that may be 32 MiB long.
function isBase64(text: string): boolean {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 61 /* = */ && text.length - end < 2) end--;
  if (text.length % 4 === 1) return false;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    const ok = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47;
    if (!ok) return false;
  }
  return true;
}

const attachment = z
  .object({
    file_name: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .refine((name) => !name.includes('/') && !name.includes('\\'), 'must be a file name, not a path'),
    mime_type: z
      .string()
      .min(3)
      .max(255)
      .refine((type) => type.includes('/'), 'must be a MIME type such as image/png'),
    content_base64: z.string().min(1).refine(isBase64, 'must be base64'),
  })
  .strict();

export const supportContactSchema = z
  .object({
    subject: z.string().trim().min(1).max(200),
    message: z.string().trim().min(1).max(20_000),
    attachments: z.array(attachment).max(MAX_SUPPORT_ATTACHMENTS).default([]),
  })
  .strict()
  .meta({ id: 'SupportContact' });
export type SupportContactInput = z.infer<typeof supportContactSchema>;

export const supportReceiptSchema = z
  .object({
    id: z.string().uuid().meta({ description: 'The support request; quote it when writing to support' }),
    mail_status: z.enum(['sent', 'failed', 'not_configured']).meta({
      description: 'sent to the support address, failed (stored; support sees it), or not_configured (stored only)',
    }),
    attachments: z.array(z.object({ file_name: z.string(), mime_type: z.string(), file_size: z.number().int() })),
    created_at: z.string().datetime(),
  })
  .meta({ id: 'SupportReceipt' });
