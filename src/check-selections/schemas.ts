import { z } from 'zod';
import { MAX_CURSOR_LENGTH, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE } from '../http/pagination.js';
import { dateString } from '../http/schemas.js';
import { MAX_SAMPLE_SIZE, MAX_SELECTION_AGREEMENTS, MAX_SELECTION_CHECKS } from './selection.js';

const uuids = (max: number) => z.array(z.string().uuid()).min(1).max(max);

// Exactly one kind of scope: each variant is strict, so a body naming two kinds matches none.
const scopeSchema = z
  .union(
    [
      z
        .object({
          agreement_ids: uuids(1000).meta({
            description: 'These agreements (any status; those not ready are excluded pair by pair)',
          }),
        })
        .strict(),
      z
        .object({
          agreement_filter: z
            .object({
              tag_ids: uuids(100).optional().meta({ description: 'Agreements with any of these tags' }),
              supplier_ids: uuids(100).optional().meta({ description: 'Agreements with any of these suppliers' }),
              search: z.string().min(1).max(200).optional().meta({ description: 'Matches the title' }),
              // Booleans: true keeps the agreements that have it, false those that do not.
              has_price_items: z
                .boolean()
                .optional()
                .meta({ description: 'Agreements with (true) or without (false) price items' }),
              has_instructions: z
                .boolean()
                .optional()
                .meta({ description: 'Agreements with (true) or without (false) instructions' }),
              has_documents: z.boolean().optional().meta({
                description: 'Agreements with (true) or without (false) a processed document (terms or price list)',
              }),
              has_pending_alerts: z.boolean().optional().meta({
                description: 'Agreements with (true) or without (false) pending alerts on invoices matched to them',
              }),
            })
            .strict()
            .meta({
              description:
                'Active agreements matching every given condition; agreements of another status are counted in exclusions (agreement_not_active)',
            }),
        })
        .strict(),
      z
        .object({
          topic_id: z
            .string()
            .uuid()
            .meta({ description: "The invoices with alerts in this topic, against the topic's agreement" }),
        })
        .strict(),
      z
        .object({
          workflow_run_id: z
            .string()
            .uuid()
            .meta({ description: 'The items of a finished check run that did not complete (failed or cancelled)' }),
        })
        .strict(),
    ],
    {
      error:
        'give exactly one of agreement_ids, agreement_filter {tag_ids, supplier_ids, search, has_price_items, has_instructions, has_documents, has_pending_alerts}, topic_id or workflow_run_id',
    },
  )
  .meta({ description: 'Exactly one of agreement_ids, agreement_filter, topic_id, workflow_run_id' });

const invoiceChoiceSchema = z
  .union(
    [
      z.object({ invoice_ids: uuids(MAX_SELECTION_CHECKS) }).strict(),
      z
        .object({ issued_from: dateString.optional(), issued_through: dateString.optional() })
        .strict()
        .refine((range) => range.issued_from || range.issued_through, {
          message: 'give issued_from, issued_through or both',
        })
        .refine((range) => !range.issued_from || !range.issued_through || range.issued_from <= range.issued_through, {
          message: 'issued_from must not be after issued_through',
          path: ['issued_through'],
        }),
      z
        .object({
          sample: z
            .object({
              size: z.number().int().min(1).max(MAX_SAMPLE_SIZE),
              seed: z
                .union([z.string().min(1).max(100), z.number().int()])
                .meta({ description: 'The same seed over the same scope gives the same sample' }),
            })
            .strict(),
        })
        .strict(),
    ],
    { error: 'give one of invoice_ids, issued_from and/or issued_through, or sample {size 1 to 10, seed}' },
  )
  .meta({
    description:
      'Explicit invoice_ids, an inclusive issue-date range, or a stable-seed sample of up to 10 distinct invoices of the scope',
  });

export const selectionShape = {
  scope: scopeSchema,
  mode: z.enum(['outstanding', 'again']).default('outstanding').meta({
    description: 'outstanding: pairs without a current completed check; again: also pairs checked and current',
  }),
  invoices: invoiceChoiceSchema.optional().meta({ description: 'Default: every matched invoice of the scope' }),
};

export const selectionSchema = z.object(selectionShape).strict().meta({ id: 'CheckSelection' });
export type SelectionInput = z.infer<typeof selectionSchema>;

export const startSelectionBody = z
  .object({
    ...selectionShape,
    fingerprint: z
      .string()
      .min(1)
      .max(200)
      .meta({ description: 'The fingerprint of the preview the client agreed to' }),
  })
  .strict();

export const candidateInvoicesBody = z
  .object({
    selection: selectionSchema,
    limit: z.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
    cursor: z.string().min(1).max(MAX_CURSOR_LENGTH).optional(),
    search: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .meta({ description: 'Filters the rows shown (invoice number or supplier name); never the selection' }),
  })
  .strict();

const pairRef = z.object({ invoice_id: z.string().uuid().nullable(), agreement_id: z.string().uuid().nullable() });

export const selectionPreviewSchema = z
  .object({
    checks: z.number().int().meta({ description: '(invoice, agreement) checks the selection starts' }),
    agreements: z.number().int(),
    invoices: z.number().int(),
    sample_invoice_ids: z
      .array(z.string().uuid())
      .meta({ description: 'The sample, or the first up to 10 distinct invoices of the selection' }),
    exclusions: z.array(
      z.object({
        reason: z.string().meta({
          description:
            'e.g. agreement_not_active (counts agreements), agreement_not_ready, credit_note, credited_by_credit_note, no_original_document, invoice_not_imported, held_by_open_claim',
        }),
        count: z.number().int(),
        examples: z.array(pairRef).max(5),
      }),
    ),
    replacement_impact: z.object({
      alerts: z
        .number()
        .int()
        .meta({ description: 'Alerts of the selected pairs a check replaces (all not held by a claim)' }),
      by_status: z.object({ pending: z.number().int(), dismissed: z.number().int(), credited: z.number().int() }),
      kept_in_claims: z.number().int(),
      impact: z
        .array(z.object({ currency_code: z.string().nullable(), amount: z.string() }))
        .meta({ description: 'Money of the pending alerts replaced, per currency' }),
    }),
    limits: z.object({
      max_checks: z.literal(MAX_SELECTION_CHECKS),
      max_agreement_runs: z.literal(MAX_SELECTION_AGREEMENTS),
    }),
    within_limits: z.boolean(),
    complete: z.boolean().meta({
      description:
        'false when the scope is too large to count in full (more than 50,000 checks): the counts are lower bounds',
    }),
    fingerprint: z
      .string()
      .meta({ description: 'Send with POST /v1/check-selections; it changes with any change of the selection' }),
  })
  .meta({ id: 'CheckSelectionPreview' });

export const candidateInvoiceSchema = z
  .object({
    id: z.string().uuid(),
    invoice_number: z.string().nullable(),
    supplier: z.object({ id: z.string().uuid().nullable(), name: z.string().nullable() }),
    issue_date: z.string().nullable(),
    amounts: z.object({
      currency_code: z.string().nullable(),
      excluding_vat: z.string().nullable(),
      including_vat: z.string().nullable(),
      payable: z.string().nullable(),
    }),
    agreement_ids: z.array(z.string().uuid()).meta({ description: 'The agreements it would be checked against' }),
  })
  .meta({ id: 'CheckSelectionInvoice' });

export const selectionStartedSchema = z
  .object({
    receipt_key: z
      .string()
      .uuid()
      .meta({ description: 'GET /v1/check-selections/{receipt_key} reads this result again' }),
    workflow_run_ids: z
      .array(z.string().uuid())
      .meta({ description: 'One check run per agreement (more when an agreement has over 1000 checks)' }),
    checks: z.number().int(),
    agreements: z.number().int(),
    invoices: z.number().int(),
    fingerprint: z.string(),
  })
  .meta({ id: 'CheckSelectionStarted' });
