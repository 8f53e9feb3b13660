import { z } from 'zod';

// The invoice as the API shows it. What POST and PATCH take: input-schemas.ts.

const nullableString = z.string().nullable();
const partyView = z.object({
  id: z.string().uuid().nullable(),
  name: nullableString.meta({ description: 'Name of the supplier record the invoice is linked to' }),
  invoiced_as: z.object({
    name: nullableString.meta({ description: 'The name as written on the invoice' }),
    org_number: nullableString,
    vat_id: nullableString,
    country_code: nullableString,
  }),
});

// Where a value was read from on its document (the layout reader, docs/invoice-parsing.md).
const fraction = z.number().min(0).max(1);
export const valueSourceSchema = z
  .object({
    page: z.number().int().meta({ description: '1-based page of the original document' }),
    box: z
      .object({ x: fraction, y: fraction, width: fraction, height: fraction })
      .meta({ description: "The value's box as fractions of the page's width and height, origin top left" }),
    text: z.string().meta({ description: 'The text the value was read from' }),
  })
  .meta({ id: 'ValueSource' });

export const lineItemSchema = z
  .object({
    id: z.string().uuid(),
    line_number: nullableString,
    description: nullableString,
    seller_item_id: nullableString,
    buyer_item_id: nullableString,
    quantity: nullableString,
    unit_code: nullableString,
    unit_price: nullableString,
    price_base_quantity: nullableString,
    net_amount: nullableString,
    vat_category: nullableString,
    vat_rate: nullableString.meta({ description: 'A fraction: "0.25" is 25 %' }),
    period: z.object({ start: nullableString, end: nullableString }).nullable(),
    allowance_charges: z
      .array(
        z.object({
          is_charge: z.boolean(),
          amount: nullableString,
          base_amount: nullableString,
          reason: nullableString,
          reason_code: nullableString,
        }),
      )
      .nullable()
      .meta({
        description:
          'Line allowances (discounts) and charges, EN 16931 BG-27/BG-28; already in net_amount. null: not known (stored before they were kept)',
      }),
    source: valueSourceSchema.nullable().meta({
      description:
        "Read-only: the box of the document's table row the line was read from (PDF readings of the layout reader); null otherwise",
    }),
  })
  .meta({ id: 'InvoiceLineItem' });

const processingSchema = z.object({
  status: z.enum(['pending', 'processing', 'completed', 'failed']),
  classification: nullableString.meta({ description: 'invoice, credit_note or not_invoice once classified' }),
  failure: z.object({ code: z.string(), message: z.string() }).nullable(),
});

const alertCountsSchema = z.object({
  pending: z.number().int(),
  claimed: z.number().int(),
  credited: z.number().int(),
  dismissed: z.number().int(),
});

export const invoiceSchema = z
  .object({
    id: z.string().uuid(),
    invoice_number: nullableString,
    document_type: z.enum(['invoice', 'credit_note']).nullable(),
    type_code: nullableString,
    format: nullableString,
    source: z.string(),
    issue_date: nullableString,
    due_date: nullableString,
    supplier: partyView,
    recipient: partyView,
    buyer_reference: nullableString,
    order_reference: nullableString,
    contract_reference: nullableString,
    delivery: z.object({ country_code: nullableString, address: z.unknown().nullable() }),
    invoice_period: z.object({ start: nullableString, end: nullableString }).nullable(),
    amounts: z.object({
      currency_code: nullableString,
      line_total: nullableString,
      excluding_vat: nullableString,
      vat: nullableString,
      including_vat: nullableString,
      allowances: nullableString,
      charges: nullableString,
      prepaid: nullableString,
      rounding: nullableString,
      payable: nullableString,
      exchange_rate: nullableString,
      valid: z.boolean().nullable().meta({ description: 'Only says whether the lines add up to the totals' }),
    }),
    line_items: z.array(lineItemSchema),
    extraction: z
      .object({
        method: z.enum(['structured', 'pdf_text']).nullable().meta({
          description:
            'structured: read from e-invoice XML (exact); pdf_text: read from a PDF text layer by the layout reader',
        }),
        needs_review: z.boolean().meta({
          description:
            'The reading does not add up (totals, lines, line arithmetic) or lacks a key field; alerts from it are never certain',
        }),
        review_reasons: z.array(z.string()),
        confidence: z
          .object({ overall: z.number(), lines: z.number(), fields: z.record(z.string(), z.number()) })
          .nullable()
          .meta({
            description: 'How sure the reader is, 0..1, per field and for the lines; null for structured readings',
          }),
        layout_memory: z
          .object({ fields: z.array(z.string()) })
          .nullable()
          .meta({
            description:
              "The supplier's layout learned from a person's correction of an earlier invoice was used: the fields it gave; null otherwise",
          }),
        sources: z.record(z.string(), valueSourceSchema).nullable().meta({
          description:
            'Read-only: where each field was read from on the original document, named as in confidence.fields (invoiceNumber, totals.taxInclusive, ...); null for structured readings and PDF readings stored before it was kept',
        }),
      })
      .meta({ description: 'How the invoice was read from its document' }),
    allowance_charges: z.array(
      z.object({
        is_charge: z.boolean(),
        amount: nullableString,
        reason: nullableString,
        reason_code: nullableString,
        vat_category: nullableString,
        vat_rate: nullableString,
      }),
    ),
    duplicate_of_invoice_id: z.string().uuid().nullable(),
    credited_invoice_reference: nullableString,
    credited_invoice_id: z.string().uuid().nullable(),
    processing: processingSchema,
    alerts: z.object({
      status: z.string(),
      counts: alertCountsSchema,
      agreements: z.object({ checked: z.number().int(), total: z.number().int() }),
    }),
    alert_summary: z.object({
      total: z.number().int(),
      counts: alertCountsSchema,
      result: nullableString.meta({ description: 'e.g. no_alerts_found' }),
      resolution: nullableString.meta({ description: 'open or resolved; null without alerts' }),
      all_checks_done: z.boolean(),
    }),
    workflows: z.object({
      settled: z.boolean(),
      alert_check: z.object({
        status: z.string(),
        skip_reason: nullableString,
        failure: z.object({ code: z.string(), message: z.string() }).nullable(),
      }),
    }),
    primary_document_id: z.string().uuid().nullable(),
    attachment_document_ids: z.array(z.string().uuid()),
    url: z.string(),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .meta({ id: 'Invoice' });

export const ingestionInvoiceSchema = z
  .object({
    invoice_id: z.string().uuid(),
    invoice_number: nullableString,
    duplicate_of_invoice_id: z.string().uuid().nullable(),
    processing: processingSchema,
    alerts: z.object({
      processing: z.object({
        status: z.string().meta({ description: 'pending and processing are non-terminal' }),
        skip_reason: nullableString,
        failure: z.object({ code: z.string(), message: z.string() }).nullable(),
      }),
      result: nullableString,
      count: z.number().int(),
      resolution: nullableString,
    }),
    invoice_url: z.string(),
    created_at: z.string().datetime(),
  })
  .meta({ id: 'IngestionInvoice' });
