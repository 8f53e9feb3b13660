/**
 * Zod schemas of the normalized model, for validating a model that crossed a process or
 * storage boundary. The `z.ZodType<...>` annotations keep them in step with model.ts: a
 * field added to one and not the other fails the type check.
 */
import { z } from 'zod';
import type { NormalizedInvoice, ParseOutcome } from './model.js';

const decimalString = z.string().regex(/^-?\d+(\.\d+)?$/, 'decimal string');
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD');
const nullableText = z.string().nullable();

const address = z.object({
  lines: z.array(z.string()),
  city: nullableText,
  postalCode: nullableText,
  countryCode: nullableText,
});

const party = z.object({
  name: nullableText,
  legalName: nullableText,
  orgNumber: nullableText,
  vatId: nullableText,
  countryCode: nullableText,
  address: address.nullable(),
});

const fraction = z.number().min(0).max(1);
const valueSource = z.object({
  page: z.number().int().min(1),
  box: z.object({ x: fraction, y: fraction, width: fraction, height: fraction }),
  text: z.string().max(200),
});
const period = z.object({ start: isoDate.nullable(), end: isoDate.nullable() });

const allowanceCharge = z.object({
  isCharge: z.boolean(),
  amount: decimalString.nullable(),
  baseAmount: decimalString.nullable(),
  reason: nullableText,
  reasonCode: nullableText,
  vatCategory: nullableText,
  vatPercent: decimalString.nullable(),
});

const line = z.object({
  id: nullableText,
  description: nullableText,
  sellerItemId: nullableText,
  buyerItemId: nullableText,
  standardItemId: nullableText,
  quantity: decimalString.nullable(),
  unitCode: nullableText,
  unitPrice: decimalString.nullable(),
  priceBaseQuantity: decimalString.nullable(),
  netAmount: decimalString.nullable(),
  vatCategory: nullableText,
  vatPercent: decimalString.nullable(),
  period: period.nullable(),
  allowanceCharges: z.array(allowanceCharge),
});

const totals = z.object({
  lineExtension: decimalString.nullable(),
  taxExclusive: decimalString.nullable(),
  taxInclusive: decimalString.nullable(),
  allowanceTotal: decimalString.nullable(),
  chargeTotal: decimalString.nullable(),
  prepaid: decimalString.nullable(),
  payableRounding: decimalString.nullable(),
  payable: decimalString.nullable(),
  vatTotal: decimalString.nullable(),
  vatTotalInTaxCurrency: decimalString.nullable(),
});

export const normalizedInvoiceSchema: z.ZodType<NormalizedInvoice> = z.object({
  documentType: z.enum(['invoice', 'credit_note']),
  typeCode: nullableText,
  invoiceNumber: nullableText,
  issueDate: isoDate.nullable(),
  dueDate: isoDate.nullable(),
  currencyCode: nullableText,
  taxCurrencyCode: nullableText,
  exchangeRate: z
    .object({ sourceCurrencyCode: nullableText, targetCurrencyCode: nullableText, rate: decimalString.nullable() })
    .nullable(),
  supplier: party,
  recipient: party,
  buyerReference: nullableText,
  orderReference: nullableText,
  contractReference: nullableText,
  creditedInvoiceReference: nullableText,
  deliveryAddress: address.nullable(),
  deliveryCountryCode: nullableText,
  deliveryDate: isoDate.nullable(),
  invoicePeriod: period.nullable(),
  lines: z.array(line),
  allowanceCharges: z.array(allowanceCharge),
  vatBreakdown: z.array(
    z.object({
      category: nullableText,
      vatPercent: decimalString.nullable(),
      taxableAmount: decimalString.nullable(),
      taxAmount: decimalString.nullable(),
    }),
  ),
  totals,
  notes: z.array(z.string()),
  extraction: z.object({
    method: z.enum(['structured', 'pdf_text', 'ocr']),
    linesReliable: z.boolean(),
    missing: z.array(z.string()),
    needsReview: z.boolean().optional(),
    reviewReasons: z.array(z.string()).optional(),
    confidence: z
      .object({
        overall: z.number().min(0).max(1),
        lines: z.number().min(0).max(1),
        fields: z.record(z.string(), z.number().min(0).max(1)),
      })
      .nullable()
      .optional(),
    supplierKeys: z.array(z.string()).optional(),
    layoutMemory: z.object({ fields: z.array(z.string()) }).optional(),
    sources: z.record(z.string(), valueSource).optional(),
    lineSources: z.array(valueSource.nullable()).optional(),
  }),
});

const failureCode = z.enum([
  'empty_file',
  'file_too_large',
  'unsupported_format',
  'malformed_xml',
  'xml_entities_rejected',
  'xml_too_deep',
  'xml_too_many_elements',
  'unsupported_encoding',
  'invalid_encoding',
  'malformed_pdf',
  'truncated_pdf',
  'encrypted_pdf',
  'no_text_layer',
  'pdf_timeout',
  'pdf_too_large_inflated',
  'xml_timeout',
  'xml_too_large_expanded',
  'internal_error',
]);

export const parseOutcomeSchema: z.ZodType<ParseOutcome> = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('invoice'),
    invoice: normalizedInvoiceSchema,
    format: z.enum(['peppol_bis_3', 'ehf_2', 'finvoice_3', 'cii', 'pdf_text', 'pdf_ocr']),
    warnings: z.array(z.string()),
  }),
  z.object({ kind: z.literal('not_invoice'), reason: z.string() }),
  z.object({ kind: z.literal('failed'), code: failureCode, message: z.string() }),
]);
