import { z } from 'zod';
import { acceptingReadShape, dateString } from '../http/schemas.js';

export const AGREEMENT_STATUSES = ['draft', 'active', 'archived'] as const;
export const READINESS_GAPS = ['title', 'supplier', 'active_status', 'usable_terms', 'documents_processing'] as const;

const textList = (max: number) => z.array(z.string().trim().min(1).max(max)).min(1).max(100);

// Which invoices an agreement covers beyond supplier, recipient and dates. Every dimension given
// must match the invoice (one of its values); a dimension left out does not narrow.
export const applicabilitySchema = z
  .object({
    buyer_references: textList(200).optional().meta({ description: "The invoice's buyer reference is one of these" }),
    order_reference_prefixes: textList(200)
      .optional()
      .meta({ description: "The invoice's order reference starts with one of these" }),
    contract_references: textList(200)
      .optional()
      .meta({ description: "The invoice's contract reference is one of these" }),
    delivery_country_codes: z
      .array(z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166 alpha-2 code'))
      .min(1)
      .max(100)
      .optional(),
    currency_codes: z
      .array(z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code'))
      .min(1)
      .max(50)
      .optional(),
  })
  .strict()
  .meta({ id: 'Applicability' });

const renewalTermsSchema = z
  .object({
    auto_renews: z.boolean().optional(),
    period_months: z.number().int().min(1).max(120).nullable().optional(),
    notice_days: z.number().int().min(0).max(3650).nullable().optional(),
  })
  .strict();

const renewalActionInput = z.discriminatedUnion('type', [
  z.object({ type: z.literal('cancel'), expiration_date: dateString }).strict(),
  z.object({ type: z.literal('extend') }).strict(),
]);

const agreementFields = {
  title: z.string().trim().min(1).max(500).nullable(),
  status: z.enum(AGREEMENT_STATUSES),
  supplier_ids: z.array(z.string().uuid()).max(100),
  recipient_ids: z.array(z.string().uuid()).max(100).meta({ description: 'Empty means any recipient' }),
  effective_date: dateString.nullable(),
  expiration_date: dateString.nullable(),
  tag_ids: z.array(z.string().uuid()).max(100),
  applicability: applicabilitySchema.nullable(),
  instructions: z.string().max(20_000).nullable(),
  renewal: renewalTermsSchema,
};

const createAgreementInput = z
  .object({
    ...Object.fromEntries(Object.entries(agreementFields).map(([k, v]) => [k, v.optional()])),
  } as { [K in keyof typeof agreementFields]: z.ZodOptional<(typeof agreementFields)[K]> })
  .strict();

// renewal_action as read ({kind, deadline}: what is due next) says nothing to do: accepted, ignored.
const renewalActionAsRead = z
  .object({ kind: z.enum(['cancel_by', 'renew_by']).nullable(), deadline: z.string().nullable() })
  .strict()
  .transform(() => undefined);

const patchAgreementInput = createAgreementInput
  .extend({ renewal_action: z.union([renewalActionInput, renewalActionAsRead]).optional() })
  .strict();

export const agreementSchema = z
  .object({
    id: z.string().uuid(),
    title: z.string().nullable(),
    status: z.enum(AGREEMENT_STATUSES),
    supplier_ids: z.array(z.string().uuid()),
    recipient_ids: z.array(z.string().uuid()),
    effective_date: z.string().nullable(),
    expiration_date: z.string().nullable(),
    tag_ids: z.array(z.string().uuid()),
    applicability: applicabilitySchema.nullable(),
    instructions: z.string().nullable(),
    renewal: z.object({
      auto_renews: z.boolean(),
      period_months: z.number().int().nullable(),
      notice_days: z.number().int().nullable(),
    }),
    renewal_action: z.object({
      kind: z
        .enum(['cancel_by', 'renew_by'])
        .nullable()
        .meta({ description: 'What is due next: cancel by (auto-renewing) or renew by' }),
      deadline: z.string().nullable(),
    }),
    readiness: z.object({
      ready: z.boolean().meta({ description: 'Whether checks can run against this agreement' }),
      missing: z.array(z.enum(READINESS_GAPS)),
    }),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .meta({ id: 'Agreement' });

export const createAgreementSchema = acceptingReadShape(createAgreementInput, agreementSchema).meta({
  id: 'AgreementCreate',
});
export const patchAgreementSchema = acceptingReadShape(patchAgreementInput, agreementSchema).meta({
  id: 'AgreementPatch',
});

export type AgreementInput = z.infer<typeof patchAgreementSchema>;

export const tagSchema = z
  .object({ id: z.string().uuid(), name: z.string(), created_at: z.string().datetime() })
  .meta({ id: 'Tag' });

export const createTagSchema = acceptingReadShape(
  z.object({ name: z.string().trim().min(1).max(100) }).strict(),
  tagSchema,
);
