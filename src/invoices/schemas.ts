import { z } from 'zod';
import { dateString, decimalString } from '../http/schemas.js';

const nullableString = z.string().nullable();
const partyView = z.object({
  id: z.string().uuid().nullable(),
  name: nullableString.meta({ description: 'Name of the supplier record the invoice is linked to' }),
  invoiced_as: z.object({ name: nullableString.meta({ description: 'The name as written on the invoice' }), org_number: nullableString, vat_id: nullableString, country_code: nullableString }),
});

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
  })
  .meta({ id: 'InvoiceLineItem' });

const processingSchema = z.object({
  status: z.enum(['pending', 'processing', 'completed', 'failed']),
  classification: nullableString.meta({ description: 'invoice, credit_note or not_invoice once classified' }),
  failure: z.object({ code: z.string(), message: z.string() }).nullable(),
});

const alertCountsSchema = z.object({ pending: z.number().int(), claimed: z.number().int(), credited: z.number().int(), dismissed: z.number().int() });

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
    allowance_charges: z.array(z.object({ is_charge: z.boolean(), amount: nullableString, reason: nullableString, reason_code: nullableString, vat_category: nullableString, vat_rate: nullableString })),
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
      alert_check: z.object({ status: z.string(), skip_reason: nullableString, failure: z.object({ code: z.string(), message: z.string() }).nullable() }),
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

const partyInput = z
  .object({
    name: z.string().trim().min(1).max(300),
    org_number: z.string().trim().min(1).max(64).optional(),
    vat_id: z.string().trim().min(1).max(64).optional(),
    country_code: z.string().regex(/^[A-Z]{2}$/).optional(),
  })
  .strict();

export const lineItemInput = z
  .object({
    line_number: z.string().max(64).optional(),
    description: z.string().max(2000).optional(),
    seller_item_id: z.string().max(200).optional(),
    buyer_item_id: z.string().max(200).optional(),
    quantity: decimalString,
    unit_code: z.string().max(16).optional(),
    unit_price: decimalString,
    price_base_quantity: decimalString.optional(),
    net_amount: decimalString,
    vat_category: z.string().max(8).optional(),
    vat_rate: decimalString.optional().meta({ description: 'A fraction: "0.25" is 25 %' }),
    period_start: dateString.optional(),
    period_end: dateString.optional(),
  })
  .strict();

const amountsInput = z
  .object({
    excluding_vat: decimalString.optional(),
    vat: decimalString.optional(),
    including_vat: decimalString,
    prepaid: decimalString.optional(),
    rounding: decimalString.optional(),
    payable: decimalString.optional(),
  })
  .strict();

export const createInvoiceSchema = z
  .object({
    document_type: z.enum(['invoice', 'credit_note']).default('invoice'),
    invoice_number: z.string().trim().min(1).max(200),
    issue_date: dateString,
    due_date: dateString.optional(),
    currency_code: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as EUR'),
    exchange_rate: decimalString.optional(),
    supplier: partyInput,
    recipient: partyInput.optional(),
    buyer_reference: z.string().max(200).optional(),
    order_reference: z.string().max(200).optional(),
    contract_reference: z.string().max(200).optional(),
    credited_invoice_number: z.string().max(200).optional(),
    delivery_country_code: z.string().regex(/^[A-Z]{2}$/).optional(),
    line_items: z.array(lineItemInput).min(1).max(10_000),
    allowance_charges: z
      .array(z.object({ is_charge: z.boolean(), amount: decimalString, reason: z.string().max(500).optional(), vat_rate: decimalString.optional() }).strict())
      .max(1000)
      .default([]),
    amounts: amountsInput,
  })
  .strict()
  .meta({ id: 'InvoiceCreate' });

export const patchInvoiceSchema = z
  .object({
    invoice_number: z.string().trim().min(1).max(200).optional(),
    issue_date: dateString.optional(),
    due_date: dateString.nullable().optional(),
    buyer_reference: z.string().max(200).nullable().optional(),
    order_reference: z.string().max(200).nullable().optional(),
    contract_reference: z.string().max(200).nullable().optional(),
    delivery_country_code: z.string().regex(/^[A-Z]{2}$/).nullable().optional(),
    line_items: z.array(lineItemInput).max(10_000).optional().meta({ description: 'Replaces the whole list; omitted lines are removed' }),
    amounts: amountsInput.partial().optional(),
  })
  .strict()
  .meta({ id: 'InvoicePatch' });

export type CreateInvoiceInput = z.infer<typeof createInvoiceSchema>;
export type PatchInvoiceInput = z.infer<typeof patchInvoiceSchema>;
