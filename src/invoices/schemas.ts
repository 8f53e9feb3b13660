import { z } from 'zod';
import { dateString, decimalString } from '../http/schemas.js';

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

// ---- Writing: POST and PATCH take the invoice in the shape it is read (docs/invoices.md) ----

// null is what a read shows for an unknown value; as input it means "none".
const optionalText = (max: number) =>
  z
    .string()
    .max(max)
    .nullable()
    .optional()
    .transform((v) => v ?? undefined);
const optional = <T extends z.ZodType>(schema: T) =>
  schema
    .nullable()
    .optional()
    .transform((v) => v ?? undefined);
// Server-set fields: accepted with any value and dropped.
const readOnly = z.unknown().optional().meta({ description: 'Read-only: accepted as read and ignored' });

const partyFields = {
  org_number: optional(z.string().trim().min(1).max(64)),
  vat_id: optional(z.string().trim().min(1).max(64)),
  country_code: optional(z.string().regex(/^[A-Z]{2}$/)),
};

// A party as written ({name, org_number, vat_id, country_code}) or as read ({id, name, invoiced_as}):
// as read, invoiced_as (the party as written on the invoice) is what counts; id and name (the
// linked supplier or recipient record, found again from it) are ignored.
const partyInput = z
  .object({
    id: readOnly,
    name: optional(z.string().trim().min(1).max(300)),
    ...partyFields,
    invoiced_as: z
      .object({ name: optional(z.string().trim().min(1).max(300)), ...partyFields })
      .strict()
      .optional(),
  })
  .strict()
  .transform(({ id: _id, invoiced_as: invoiced, ...written }) => {
    const party = invoiced ?? written;
    return { name: party.name, org_number: party.org_number, vat_id: party.vat_id, country_code: party.country_code };
  });

const namedParty = partyInput.refine((party) => party.name !== undefined, {
  message: 'a party needs a name (invoiced_as.name as read)',
  path: ['name'],
}) as unknown as z.ZodType<{
  name: string;
  org_number?: string;
  vat_id?: string;
  country_code?: string;
}>;
// As read, an invoice without a recipient shows one whose every field is null.
const optionalParty = partyInput
  .refine(
    (party) =>
      party.name !== undefined ||
      (party.org_number === undefined && party.vat_id === undefined && party.country_code === undefined),
    {
      message: 'a party needs a name (invoiced_as.name as read)',
      path: ['name'],
    },
  )
  .transform((party) =>
    party.name === undefined
      ? undefined
      : (party as { name: string; org_number?: string; vat_id?: string; country_code?: string }),
  )
  .optional();

const periodInput = z.object({ start: dateString.nullable(), end: dateString.nullable() }).strict();

// A line as the handlers take it: unknown values are left out.
export interface LineItemInput {
  line_number?: string;
  description?: string;
  seller_item_id?: string;
  buyer_item_id?: string;
  quantity?: string;
  unit_code?: string;
  unit_price?: string;
  price_base_quantity?: string;
  net_amount?: string;
  vat_category?: string;
  vat_rate?: string;
  period_start?: string;
  period_end?: string;
  allowance_charges?: LineAllowanceChargeInput[];
}

export interface LineAllowanceChargeInput {
  is_charge: boolean;
  amount: string;
  base_amount?: string;
  reason?: string;
  reason_code?: string;
}

// A line allowance or charge as written or as read (amounts are positive; is_charge says which way).
const lineAllowanceChargeInput = z
  .object({
    is_charge: z.boolean(),
    amount: decimalString.refine((v) => !v.startsWith('-'), 'must not be negative'),
    base_amount: optional(decimalString),
    reason: optionalText(500),
    reason_code: optionalText(50),
  })
  .strict();

// A line as written (period_start, period_end) or as read (id, period); a read line's id is ignored
// (the list is replaced as a whole). Creating needs lines that add up (quantity, unit_price and
// net_amount); a PATCH may keep what a read shows as unknown (null).
function lineInput(required: boolean) {
  const amount = required ? decimalString : optional(decimalString);
  return z
    .object({
      id: readOnly,
      line_number: optionalText(64),
      description: optionalText(2000),
      seller_item_id: optionalText(200),
      buyer_item_id: optionalText(200),
      quantity: amount,
      unit_code: optionalText(16),
      unit_price: amount,
      price_base_quantity: optional(decimalString),
      net_amount: amount,
      vat_category: optionalText(8),
      vat_rate: optional(decimalString).meta({ description: 'A fraction: "0.25" is 25 %' }),
      period_start: optional(dateString),
      period_end: optional(dateString),
      period: periodInput.nullable().optional(),
      allowance_charges: z.array(lineAllowanceChargeInput).max(100).nullable().optional().meta({
        description: 'Line allowances (discounts) and charges; net_amount is after them. Omitted or null: none',
      }),
    })
    .strict()
    .transform((raw): LineItemInput => {
      const {
        id: _id,
        period,
        allowance_charges,
        ...line
      } = raw as Omit<LineItemInput, 'allowance_charges'> & {
        id?: unknown;
        period?: { start: string | null; end: string | null } | null;
        allowance_charges?: LineAllowanceChargeInput[] | null;
      };
      return {
        ...line,
        period_start: line.period_start ?? period?.start ?? undefined,
        period_end: line.period_end ?? period?.end ?? undefined,
        ...(allowance_charges ? { allowance_charges } : {}),
      };
    });
}

export const lineItemInput = lineInput(true);
const patchLineItemInput = lineInput(false);

// The amounts as read: the writable ones, plus currency and exchange rate on creation; the
// derived ones (line_total, allowances, charges, valid) are ignored.
const derivedAmounts = { line_total: readOnly, allowances: readOnly, charges: readOnly, valid: readOnly };
const writableAmounts = {
  excluding_vat: optional(decimalString),
  vat: optional(decimalString),
  prepaid: optional(decimalString),
  rounding: optional(decimalString),
  payable: optional(decimalString),
};
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
    amounts: z
      .object({
        ...writableAmounts,
        ...derivedAmounts,
        including_vat: decimalString,
        currency_code: optional(currencyCode),
        exchange_rate: optional(decimalString),
      })
      .strict(),
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
    amounts: z
      .object({
        excluding_vat: decimalString.nullable().optional(),
        vat: decimalString.nullable().optional(),
        including_vat: decimalString.nullable().optional(),
        prepaid: decimalString.nullable().optional(),
        rounding: decimalString.nullable().optional(),
        payable: decimalString.nullable().optional(),
        currency_code: readOnly,
        exchange_rate: readOnly,
        ...derivedAmounts,
      })
      .strict()
      .optional(),
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
