import { z } from 'zod';
import { dateString, decimalString } from '../http/schemas.js';

// The pieces of an invoice as written or as read, for POST and PATCH (input-schemas.ts): parties,
// period, lines.

// null is what a read shows for an unknown value; as input it means "none".
export const optionalText = (max: number) =>
  z
    .string()
    .max(max)
    .nullable()
    .optional()
    .transform((v) => v ?? undefined);
export const optional = <T extends z.ZodType>(schema: T) =>
  schema
    .nullable()
    .optional()
    .transform((v) => v ?? undefined);
// Server-set fields: accepted with any value and dropped.
export const readOnly = z.unknown().optional().meta({ description: 'Read-only: accepted as read and ignored' });

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

export const namedParty = partyInput.refine((party) => party.name !== undefined, {
  message: 'a party needs a name (invoiced_as.name as read)',
  path: ['name'],
}) as unknown as z.ZodType<{
  name: string;
  org_number?: string;
  vat_id?: string;
  country_code?: string;
}>;
// As read, an invoice without a recipient shows one whose every field is null.
export const optionalParty = partyInput
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

export const periodInput = z.object({ start: dateString.nullable(), end: dateString.nullable() }).strict();

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
      source: readOnly,
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
        source: _source,
        period,
        allowance_charges,
        ...line
      } = raw as Omit<LineItemInput, 'allowance_charges'> & {
        id?: unknown;
        source?: unknown;
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
export const patchLineItemInput = lineInput(false);
