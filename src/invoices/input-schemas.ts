import { z } from 'zod';
import { dateString, decimalString } from '../http/schemas.js';
import {
  lineItemInput,
  namedParty,
  optional,
  optionalParty,
  optionalText,
  patchLineItemInput,
  periodInput,
  readOnly,
} from './input-fields.js';

// POST and PATCH take the invoice in the shape it is read (docs/invoices.md), schemas.ts.

// The amounts as read: the writable ones, plus currency and exchange rate on creation; the
// derived ones (line_total, allowances, charges, valid) are ignored. On creation a null amount is
// unknown and including_vat is required; on a PATCH null clears an amount, and currency and
// exchange rate are as read.
function amountsInput<Amount extends z.ZodType, Rest extends z.ZodRawShape>(amount: () => Amount, rest: Rest) {
  return z
    .object({
      excluding_vat: amount(),
      vat: amount(),
      prepaid: amount(),
      rounding: amount(),
      payable: amount(),
      line_total: readOnly,
      allowances: readOnly,
      charges: readOnly,
      valid: readOnly,
      ...rest,
    })
    .strict();
}
const currencyCode = z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as EUR');

const allowanceChargeInput = z
  .object({
    is_charge: z.boolean(),
    amount: decimalString,
    reason: optionalText(500),
    reason_code: optionalText(50),
    vat_category: optionalText(8),
    vat_rate: optional(decimalString),
  })
  .strict();

// What only the service sets: accepted as read and ignored, on creation and on a PATCH.
const serverSet = {
  id: readOnly,
  type_code: readOnly,
  format: readOnly,
  source: readOnly,
  duplicate_of_invoice_id: readOnly,
  credited_invoice_id: readOnly,
  processing: readOnly,
  extraction: readOnly,
  alerts: readOnly,
  alert_summary: readOnly,
  workflows: readOnly,
  primary_document_id: readOnly,
  attachment_document_ids: readOnly,
  url: readOnly,
  created_at: readOnly,
  updated_at: readOnly,
};

const deliveryInput = z.object({ country_code: optional(z.string().regex(/^[A-Z]{2}$/)), address: readOnly }).strict();

export const createInvoiceSchema = z
  .object({
    ...serverSet,
    document_type: optional(z.enum(['invoice', 'credit_note'])).transform((v) => v ?? 'invoice'),
    invoice_number: z.string().trim().min(1).max(200),
    issue_date: dateString,
    due_date: optional(dateString),
    currency_code: currencyCode.optional().meta({ description: 'Or amounts.currency_code, as read' }),
    exchange_rate: optional(decimalString).meta({ description: 'Or amounts.exchange_rate, as read' }),
    supplier: namedParty,
    recipient: optionalParty,
    buyer_reference: optionalText(200),
    order_reference: optionalText(200),
    contract_reference: optionalText(200),
    credited_invoice_number: optionalText(200),
    credited_invoice_reference: optionalText(200).meta({ description: 'As read: the same as credited_invoice_number' }),
    delivery_country_code: optional(z.string().regex(/^[A-Z]{2}$/)),
    delivery: deliveryInput.optional(),
    invoice_period: periodInput.nullable().optional(),
    line_items: z.array(lineItemInput).min(1).max(10_000),
    allowance_charges: z.array(allowanceChargeInput).max(1000).default([]),
    amounts: amountsInput(() => optional(decimalString), {
      including_vat: decimalString,
      currency_code: optional(currencyCode),
      exchange_rate: optional(decimalString),
    }),
  })
  .strict()
  .superRefine((body, ctx) => {
    const clash = (field: string, a: unknown, b: unknown) => {
      if (a !== undefined && b !== undefined && a !== b)
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: `differs from the value in ${field === 'currency_code' || field === 'exchange_rate' ? `amounts.${field}` : 'its read-shape twin'}`,
        });
    };
    clash('currency_code', body.currency_code, body.amounts.currency_code);
    clash('exchange_rate', body.exchange_rate, body.amounts.exchange_rate);
    clash('credited_invoice_number', body.credited_invoice_number, body.credited_invoice_reference);
    clash('delivery_country_code', body.delivery_country_code, body.delivery?.country_code);
    if (body.currency_code === undefined && body.amounts.currency_code === undefined)
      ctx.addIssue({ code: 'custom', path: ['currency_code'], message: 'is required (or amounts.currency_code)' });
  })
  .transform((body) => ({
    document_type: body.document_type,
    invoice_number: body.invoice_number,
    issue_date: body.issue_date,
    due_date: body.due_date,
    currency_code: (body.currency_code ?? body.amounts.currency_code)!,
    exchange_rate: body.exchange_rate ?? body.amounts.exchange_rate,
    supplier: body.supplier,
    recipient: body.recipient,
    buyer_reference: body.buyer_reference,
    order_reference: body.order_reference,
    contract_reference: body.contract_reference,
    credited_invoice_number: body.credited_invoice_number ?? body.credited_invoice_reference,
    delivery_country_code: body.delivery_country_code ?? body.delivery?.country_code,
    invoice_period:
      body.invoice_period && (body.invoice_period.start || body.invoice_period.end) ? body.invoice_period : undefined,
    line_items: body.line_items,
    allowance_charges: body.allowance_charges,
    amounts: {
      excluding_vat: body.amounts.excluding_vat,
      vat: body.amounts.vat,
      including_vat: body.amounts.including_vat,
      prepaid: body.amounts.prepaid,
      rounding: body.amounts.rounding,
      payable: body.amounts.payable,
    },
  }))
  .meta({ id: 'InvoiceCreate' });

// Sent back on a PATCH, these must be as read: a PATCH cannot change them.
export const INVOICE_FIXED_FIELDS = [
  'id',
  'document_type',
  'type_code',
  'format',
  'source',
  'supplier',
  'recipient',
  'invoice_period',
  'allowance_charges',
  'credited_invoice_reference',
  'duplicate_of_invoice_id',
  'credited_invoice_id',
  'primary_document_id',
  'attachment_document_ids',
  'amounts.currency_code',
  'amounts.exchange_rate',
] as const;

// Only the fields a PATCH changes are taken; everything else a read shows (parties, document
// type, allowances and charges, currency, derived amounts) is accepted as read and ignored.
export const patchInvoiceSchema = z
  .object({
    ...serverSet,
    document_type: readOnly,
    supplier: readOnly,
    recipient: readOnly,
    invoice_period: readOnly,
    allowance_charges: readOnly,
    credited_invoice_reference: readOnly,
    invoice_number: z.string().trim().min(1).max(200).nullable().optional(),
    issue_date: dateString.nullable().optional(),
    due_date: dateString.nullable().optional(),
    buyer_reference: z.string().max(200).nullable().optional(),
    order_reference: z.string().max(200).nullable().optional(),
    contract_reference: z.string().max(200).nullable().optional(),
    delivery_country_code: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .nullable()
      .optional(),
    delivery: z
      .object({
        country_code: z
          .string()
          .regex(/^[A-Z]{2}$/)
          .nullable(),
        address: readOnly,
      })
      .strict()
      .optional(),
    line_items: z
      .array(patchLineItemInput)
      .max(10_000)
      .optional()
      .meta({ description: 'Replaces the whole list; omitted lines are removed' }),
    amounts: amountsInput(() => decimalString.nullable().optional(), {
      including_vat: decimalString.nullable().optional(),
      currency_code: readOnly,
      exchange_rate: readOnly,
    }).optional(),
  })
  .strict()
  .refine(
    (body) =>
      body.delivery_country_code === undefined ||
      body.delivery === undefined ||
      body.delivery.country_code === body.delivery_country_code,
    {
      message: 'differs from delivery.country_code',
      path: ['delivery_country_code'],
    },
  )
  .transform((body) => ({
    invoice_number: body.invoice_number,
    issue_date: body.issue_date,
    due_date: body.due_date,
    buyer_reference: body.buyer_reference,
    order_reference: body.order_reference,
    contract_reference: body.contract_reference,
    delivery_country_code:
      body.delivery_country_code !== undefined ? body.delivery_country_code : body.delivery?.country_code,
    line_items: body.line_items,
    amounts: body.amounts && {
      excluding_vat: body.amounts.excluding_vat,
      vat: body.amounts.vat,
      including_vat: body.amounts.including_vat,
      prepaid: body.amounts.prepaid,
      rounding: body.amounts.rounding,
      payable: body.amounts.payable,
    },
  }))
  .meta({ id: 'InvoicePatch' });

export type CreateInvoiceInput = z.infer<typeof createInvoiceSchema>;
export type PatchInvoiceInput = z.infer<typeof patchInvoiceSchema>;
