import { z } from 'zod';

const failureSchema = z.object({ code: z.string(), message: z.string() }).nullable();

export const exclusionSchema = z
  .object({
    invoice_id: z.string().uuid(),
    agreement_id: z.string().uuid(),
    reason: z.string().meta({
      description:
        'e.g. credit_note, credited_by_credit_note, no_original_document, invoice_not_imported, agreement_not_ready, held_by_open_claim',
    }),
    missing: z.array(z.string()).meta({ description: "For agreement_not_ready: the agreement's readiness.missing" }),
  })
  .meta({ id: 'CheckExclusion' });

export const startedChecksSchema = z
  .object({
    workflow_run_id: z.string().uuid().nullable().meta({ description: 'null when nothing was eligible' }),
    workflow_run_ids: z
      .array(z.string().uuid())
      .optional()
      .meta({ description: 'POST /v1/agreements/check: one run per agreement' }),
    checks: z.number().int().meta({ description: 'How many (invoice, agreement) checks the run(s) will do' }),
    has_more: z.boolean().meta({ description: 'More invoices remain than one run takes (1000): ask again after it' }),
    exclusions: z.array(exclusionSchema).optional(),
    not_ready: z.array(z.string()).optional().meta({
      description: 'POST /v1/agreements/{id}/check of an agreement not ready for checks: its readiness.missing',
    }),
  })
  .meta({ id: 'ChecksStarted' });

export const checkSchema = z
  .object({
    id: z.string().uuid(),
    invoice_id: z.string().uuid(),
    agreement_id: z.string().uuid(),
    workflow_run_id: z.string().uuid().nullable(),
    status: z.enum(['running', 'completed', 'failed']),
    outdated: z.boolean().meta({ description: 'The invoice or the agreement changed after the check read them' }),
    findings_count: z.number().int().nullable(),
    failure: failureSchema,
    invoice_version_at: z.string().datetime(),
    agreement_version_at: z.string().datetime(),
    started_at: z.string().datetime(),
    completed_at: z.string().datetime().nullable(),
  })
  .meta({ id: 'ComplianceCheck' });

export const citationSchema = z
  .object({
    source_ref: z.number().int(),
    citation: z.object({
      source: z.object({
        source_type: z
          .string()
          .meta({ description: 'agreement_prices, document_quote, supplied_text, web_page or invoice' }),
        document_id: z.string().uuid().nullable(),
        price_item_id: z.string().uuid().nullable().optional(),
      }),
      quote: z.string(),
    }),
  })
  .meta({ id: 'Citation' });

export const expectedPriceSchema = z
  .object({
    description: z.string().nullable().optional(),
    unit: z.string().nullable().optional(),
    currency_code: z.string().nullable().optional(),
    price: z.union([
      z.object({ type: z.literal('amount'), amount: z.string() }),
      z.object({ type: z.literal('rate'), fraction: z.string(), basis: z.string() }),
    ]),
  })
  .meta({ id: 'ExpectedPrice' });

export const findingSchema = z
  .object({
    id: z.string().uuid(),
    position: z.number().int(),
    checker: z.string(),
    title: z.string(),
    explanation: z.string(),
    impact_amount: z.string(),
    currency_code: z.string().nullable(),
    confidence: z.object({ level: z.string() }),
    invoice_item_id: z.string().uuid().nullable(),
    correction_type: z.string(),
    citations: z.array(citationSchema),
    expected: z.array(expectedPriceSchema).nullable(),
    alert_id: z.string().uuid().nullable(),
  })
  .meta({ id: 'ComplianceFinding' });
