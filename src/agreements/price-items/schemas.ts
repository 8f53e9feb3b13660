import { z } from 'zod';
import { compareUnits } from '../units/index.js';
import { acceptingReadShape, dateString, decimalString } from '../../http/schemas.js';

const fraction = decimalString.refine((v) => !v.startsWith('-'), 'must not be negative');
const amount = decimalString.refine((v) => !v.startsWith('-'), 'must not be negative');

// "1 förp = 10 EA". Units as people write them or as UN/ECE Rec 20 codes (docs/checks.md, "Units").
const unitConversionSchema = z
  .object({
    from_unit: z.string().trim().min(1).max(50),
    quantity: decimalString.refine((v) => !v.startsWith('-') && /[1-9]/.test(v), 'must be more than zero'),
    to_unit: z.string().trim().min(1).max(50),
  })
  .strict()
  .meta({ id: 'UnitConversion' });

export const priceSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('amount'), amount }).strict(),
  z
    .object({
      type: z.literal('rate'),
      fraction: fraction.meta({ description: 'A fraction: "0.05" is 5 %' }),
      basis: z
        .string()
        .trim()
        .min(1, 'a rate needs a basis')
        .max(200)
        .meta({ description: 'What the rate applies to, e.g. invoice subtotal' }),
    })
    .strict(),
]);

const priceItemBase = z
  .object({
    description: z.string().trim().min(1).max(1000),
    seller_item_id: z.string().trim().min(1).max(200).nullable().optional(),
    unit: z.string().trim().min(1).max(50).nullable().optional(),
    currency_code: z
      .string()
      .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code')
      .nullable()
      .optional(),
    price: priceSchema,
    valid_from: dateString
      .nullable()
      .optional()
      .meta({ description: "The first day the price applies; null or absent: from the agreement's start" }),
    valid_until: dateString.nullable().optional(),
    unit_conversions: z.array(unitConversionSchema).max(20).nullable().optional().meta({
      description:
        'Pack sizes and other units the price converts to: {from_unit: "förp", quantity: "10", to_unit: "EA"} says one förp is 10 EA. One of the two units is the price item\'s unit',
    }),
  })
  .strict();

export const priceItemInput = priceItemBase.superRefine((item, ctx) => {
  for (const issue of priceItemProblems(item)) ctx.addIssue({ code: 'custom', ...issue });
});

/**
 * What a price item (as it is after a create or a PATCH) may not say: a start after its end, or
 * a unit conversion that does not involve the item's own unit (it could never be used).
 */
export function priceItemProblems(item: {
  unit?: string | null;
  valid_from?: string | null;
  valid_until?: string | null;
  unit_conversions?: UnitConversionInput[] | null;
}) {
  const problems: { path: (string | number)[]; message: string }[] = [];
  if (item.valid_from && item.valid_until && item.valid_from > item.valid_until)
    problems.push({ path: ['valid_from'], message: 'must not be after valid_until' });
  (item.unit ? (item.unit_conversions ?? []) : []).forEach((conversion, index) => {
    if (
      compareUnits(conversion.from_unit, item.unit).agree !== true &&
      compareUnits(conversion.to_unit, item.unit).agree !== true
    ) {
      problems.push({
        path: ['unit_conversions', index],
        message: `one of from_unit and to_unit must be the price item's unit (${item.unit})`,
      });
    }
  });
  return problems;
}

export const MAX_PATCH_ENTRIES = 100;

export type UnitConversionInput = z.infer<typeof unitConversionSchema>;

export const priceItemSchema = z
  .object({
    id: z.string().uuid(),
    agreement_id: z.string().uuid(),
    description: z.string(),
    seller_item_id: z.string().nullable(),
    unit: z.string().nullable(),
    currency_code: z.string().nullable(),
    price: z.union([
      z.object({ type: z.literal('amount'), amount: z.string() }),
      z.object({ type: z.literal('rate'), fraction: z.string(), basis: z.string() }),
    ]),
    valid_from: z.string().nullable(),
    valid_until: z.string().nullable(),
    unit_conversions: z.array(z.object({ from_unit: z.string(), quantity: z.string(), to_unit: z.string() })),
    source_document_id: z.string().uuid().nullable(),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .meta({ id: 'PriceItem' });

// Entries in the shape items are read (the list's data can be sent back): agreement_id,
// source_document_id and timestamps are accepted as read and ignored; so is id on creation.
export const createPriceItemsSchema = z
  .object({ entries: z.array(acceptingReadShape(priceItemInput, priceItemSchema)).min(1).max(5000) })
  .strict();
export const patchPriceItemsSchema = z
  .object({
    entries: z
      .array(acceptingReadShape(priceItemBase.partial().extend({ id: z.string().uuid() }).strict(), priceItemSchema))
      .min(1)
      .max(MAX_PATCH_ENTRIES),
  })
  .strict();

// filters=[{"field":"valid_until","operator":"less_than","value":"2026-01-01"}]: all must match.
export const FILTER_FIELDS = [
  'description',
  'seller_item_id',
  'unit',
  'currency_code',
  'valid_from',
  'valid_until',
  'price.type',
  'price.amount',
  'price.fraction',
  'price.basis',
] as const;
export const FILTER_OPERATORS = [
  'equals',
  'not_equals',
  'contains',
  'less_than',
  'less_than_or_equal',
  'greater_than',
  'greater_than_or_equal',
  'is_null',
  'is_not_null',
] as const;

export const filterConditionSchema = z
  .object({
    field: z.enum(FILTER_FIELDS),
    operator: z.enum(FILTER_OPERATORS),
    value: z.union([z.string(), z.number(), z.null()]).optional(),
  })
  .strict();

export const filtersParam = z
  .string()
  .transform((raw, ctx) => {
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON array of {field, operator, value}' });
      return z.NEVER;
    }
  })
  .pipe(z.array(filterConditionSchema).max(20));

export type FilterCondition = z.infer<typeof filterConditionSchema>;
export type PriceItemInput = z.infer<typeof priceItemInput>;
