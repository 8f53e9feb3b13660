import { z } from 'zod';
import { pageParams } from '../../http/pagination.js';
import { acceptingReadShape, commaList } from '../../http/schemas.js';

export const CLASSIFICATIONS = ['terms', 'price_list'] as const;
export const PROCESSING_STATUSES = ['queued', 'processing', 'completed', 'failed'] as const;

const failureSchema = z.object({ code: z.string(), message: z.string() }).nullable().meta({
  description: 'Why the document failed: unsupported_format, unreadable, no_text, too_large, encrypted, or run_ended',
});

export const agreementDocumentSchema = z
  .object({
    id: z.string().uuid().meta({ description: 'Id of the document on this agreement' }),
    agreement_id: z.string().uuid(),
    document_id: z.string().uuid(),
    file_name: z.string(),
    mime_type: z.string(),
    status: z.enum(PROCESSING_STATUSES).meta({
      description: 'queued and processing are not final; the agreement reports documents_processing meanwhile',
    }),
    classification: z
      .enum(CLASSIFICATIONS)
      .nullable()
      .meta({ description: 'null until the import classified the file' }),
    classified_by: z
      .enum(['automatic', 'user'])
      .nullable()
      .meta({ description: "user after a PATCH; a later import keeps the user's choice" }),
    classification_confidence: z.enum(['high', 'medium', 'low']).nullable(),
    classification_reason: z
      .string()
      .nullable()
      .meta({ description: 'The evidence for an automatic classification, in one sentence' }),
    failure: failureSchema,
    search_index: z
      .object({
        status: z.enum(PROCESSING_STATUSES),
        passage_count: z.number().int(),
        partial: z
          .boolean()
          .meta({ description: 'Only part of the text is searchable (index cap or extraction limit)' }),
        partial_reason: z.string().nullable(),
        indexed_at: z.string().datetime().nullable(),
      })
      .nullable()
      .meta({ description: 'The text index of the file, null before it was first processed' }),
    workflow_run_id: z.string().uuid().meta({ description: 'The run that processed it last' }),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
    processed_at: z.string().datetime().nullable(),
  })
  .meta({ id: 'AgreementDocument' });

export const documentImportBodySchema = z
  .object({
    entries: z
      .array(z.object({ document_id: z.string().uuid() }).strict())
      .min(1)
      .max(50),
  })
  .strict();

export const documentImportResponseSchema = z
  .object({
    workflow_run_id: z.string().uuid().nullable().meta({
      description: 'The run processing the admitted documents; null when every document was already on the agreement',
    }),
    data: z.array(
      agreementDocumentSchema.extend({
        reused: z.boolean().meta({
          description:
            'The document was already on the agreement (queued, processing or completed); nothing new was started for it',
        }),
      }),
    ),
  })
  .meta({ id: 'DocumentImport' });

// The document as read can be sent back: classification null (not classified yet) and the same
// classification with the same classified_by change nothing; every other read field is ignored.
// A classification sent without classified_by (or with user) is the user's choice.
export const classificationPatchSchema = acceptingReadShape(
  z
    .object({
      classification: z.enum(CLASSIFICATIONS).nullable(),
      classified_by: z.enum(['automatic', 'user']).nullable().optional(),
    })
    .strict(),
  agreementDocumentSchema,
);

export const agreementDocumentListQuery = z.object({
  ...pageParams(['created_at']),
  classifications: commaList(z.enum(CLASSIFICATIONS)).optional(),
  statuses: commaList(z.enum(PROCESSING_STATUSES)).optional(),
});
