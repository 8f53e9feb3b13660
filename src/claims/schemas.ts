import { z } from 'zod';
import { filterBodySchema, MAX_BULK_ALERTS, type AlertFilter } from '../alerts/schemas.js';
import { pageParams } from '../http/pagination.js';
import { acceptingReadShape, booleanParam, commaList, dateString, timestampString, uuidList } from '../http/schemas.js';
import { teamScopeParams, type TeamScopeQuery } from '../teams/scope.js';

export const CLAIM_STATUSES = ['pending', 'in_progress', 'completed', 'cancelled'] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];
export const CLAIM_SORTS = ['created_at', 'updated_at', 'title', 'reference'] as const;

const uuid = z.string().uuid();

// Positive money in a currency: refunds and their corrections.
const positiveAmount = z
  .string()
  .regex(/^\d{1,14}(\.\d{1,4})?$/, 'must be a decimal string such as "1250.00" (at most 4 decimals)')
  .refine((value) => /[1-9]/.test(value), 'must be greater than zero');
// A calendar date that exists (2026-02-30 is refused, not read as March 2).
const calendarDate = dateString.refine((value) => {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}, 'must be a real date');
const currencyCode = z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as EUR');

// ---- Filters (list and metrics) ----

export const filterQueryParams = {
  agreement_ids: uuidList.optional(),
  statuses: commaList(z.enum(CLAIM_STATUSES)).optional(),
  supplier_ids: uuidList
    .optional()
    .meta({ description: 'Claims addressed to these suppliers (supplier_operator=is_not excludes them)' }),
  supplier_operator: z.enum(['is', 'is_not']).optional(),
  search: z.string().min(1).max(200).optional().meta({ description: 'Title or reference contains (case-insensitive)' }),
  created_from: timestampString.optional(),
  created_before: timestampString.optional(),
  updated_from: timestampString.optional(),
  updated_before: timestampString.optional(),
  ...teamScopeParams,
};

export interface ClaimFilter extends TeamScopeQuery {
  agreement_ids?: string[];
  statuses?: ClaimStatus[];
  supplier_ids?: string[];
  supplier_operator?: 'is' | 'is_not';
  search?: string;
  created_from?: string;
  created_before?: string;
  updated_from?: string;
  updated_before?: string;
}

const FILTER_KEYS = Object.keys(filterQueryParams) as (keyof ClaimFilter)[];

export function filterOf(query: Record<string, unknown>): ClaimFilter {
  const filter: Record<string, unknown> = {};
  for (const key of FILTER_KEYS) if (query[key] !== undefined) filter[key] = query[key];
  return filter;
}

export const listQuery = z.object({ ...pageParams(CLAIM_SORTS), ...filterQueryParams });
export const metricsQuery = z.object({
  ...filterQueryParams,
  refunded_from: calendarDate
    .optional()
    .meta({ description: 'refund_summary counts refunds dated on or after this date' }),
  refunded_through: calendarDate
    .optional()
    .meta({ description: 'refund_summary counts refunds dated on or before this date' }),
});

// ---- Alert selection ----

export const alertSelectionSchema = z
  .object({
    alert_ids: z.array(uuid).min(1).max(MAX_BULK_ALERTS).optional(),
    filter: filterBodySchema.optional(),
  })
  .strict()
  .refine((body) => (body.alert_ids === undefined) !== (body.filter === undefined), {
    message: 'send either alert_ids or filter',
    path: ['alert_ids'],
  })
  .meta({
    id: 'ClaimAlertSelection',
    description:
      'Alerts named by id (all or nothing) or by the alert list filter (alerts that cannot be claimed are skipped)',
  });

export type AlertSelection = { alert_ids?: string[]; filter?: AlertFilter };

// ---- Claim input ----

const title = z.string().trim().min(1).max(500);
const supplierContact = z
  .object({
    name: z.string().trim().min(1).max(200).nullable().optional(),
    email: z.string().trim().email().max(320).nullable().optional(),
  })
  .strict();
const note = z.string().trim().min(1).max(10_000).nullable();

const createClaimInput = z
  .object({
    agreement_id: uuid,
    title,
    alerts: alertSelectionSchema.optional(),
    // null (as a read shows a claim without a supplier) is the same as leaving it out.
    supplier_id: uuid.nullable().optional().meta({
      description:
        "One of the agreement's suppliers; by default the agreement's only supplier, else the supplier of the selected alerts' invoices",
    }),
    supplier_contact: supplierContact.nullable().optional(),
    note: note.optional(),
  })
  .strict();

const patchClaimInput = z
  .object({
    status: z.enum(CLAIM_STATUSES).optional().meta({
      description:
        'in_progress, completed or cancelled from any status (in_progress from completed reopens); pending only while pending',
    }),
    title: title.optional(),
    supplier_contact: supplierContact.nullable().optional(),
    note: note.optional(),
  })
  .strict();

export const deleteClaimQuery = z.object({
  alert_outcome: z.enum(['pending', 'dismissed']).default('pending').meta({
    description: 'What becomes of the claimed alerts: back to pending (default) or dismissed (category claim_deleted)',
  }),
});

export const addAlertsSchema = z
  .object({
    alert_ids: z.array(uuid).min(1).max(MAX_BULK_ALERTS).optional(),
    filter: filterBodySchema.optional(),
    move_from_open_claims: z
      .boolean()
      .default(false)
      .meta({ description: 'Move alerts claimed in other pending or in-progress claims into this one' }),
  })
  .strict()
  .refine((body) => (body.alert_ids === undefined) !== (body.filter === undefined), {
    message: 'send either alert_ids or filter',
    path: ['alert_ids'],
  });

const createRefundInput = z
  .object({
    amount: positiveAmount,
    currency_code: currencyCode,
    date: calendarDate.optional().meta({ description: 'When the money was received; today (UTC) by default' }),
    reference: z.string().trim().min(1).max(200).nullable().optional(),
    note: z.string().trim().min(1).max(5000).nullable().optional(),
  })
  .strict();

const patchRefundInput = z
  .object({
    amount: positiveAmount.optional(),
    currency_code: currencyCode.optional(),
    date: calendarDate.optional(),
    reference: z.string().trim().min(1).max(200).nullable().optional(),
    note: z.string().trim().min(1).max(5000).nullable().optional(),
  })
  .strict();

export const attachCreditNoteSchema = z
  .object({
    invoice_id: uuid.meta({ description: "An imported credit note of the claim's supplier" }),
    create_refund: z
      .boolean()
      .default(false)
      .meta({ description: "Also record a refund of the credit note's amount, in its currency, dated its issue date" }),
  })
  .strict();

export const refundParams = z.object({ id: uuid, refund_id: uuid });
export const creditNoteParams = z.object({ id: uuid, invoice_id: uuid });

export const exportQuery = z.object({
  format: z.enum(['pdf', 'xlsx', 'csv']).default('pdf'),
  include_pending: booleanParam
    .default(false)
    .meta({ description: "Also list the pending alerts of the claim's invoices that are in no claim" }),
  include_credited: booleanParam
    .default(false)
    .meta({ description: "Also list the claim's credited alerts and the credited alerts of its invoices" }),
});

// ---- Responses ----

const money = z.object({ currency_code: z.string().nullable(), amount: z.string() }).meta({ id: 'Money' });
const actor = z.object({ user_id: uuid.nullable(), api_key_id: uuid.nullable() });

export const refundSchema = z
  .object({
    id: uuid,
    amount: z.string(),
    currency_code: z.string(),
    date: z.string(),
    reference: z.string().nullable(),
    note: z.string().nullable(),
    credit_note_invoice_id: uuid
      .nullable()
      .meta({ description: 'The attached credit note this refund was recorded from' }),
    recorded_by: actor,
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .meta({ id: 'ClaimRefund' });

export const creditNoteSchema = z
  .object({
    invoice_id: uuid,
    invoice_number: z.string().nullable(),
    issue_date: z.string().nullable(),
    amount: z.string().nullable().meta({ description: 'The credit note total including VAT' }),
    currency_code: z.string().nullable(),
    attached_by: actor,
    attached_at: z.string().datetime(),
  })
  .meta({ id: 'ClaimCreditNote' });

const countsSchema = z.object({
  total: z.number().int(),
  pending: z.number().int(),
  claimed: z.number().int(),
  credited: z.number().int(),
  dismissed: z.number().int(),
});

export const claimSchema = z
  .object({
    id: uuid,
    agreement_id: uuid,
    supplier_id: uuid.nullable(),
    reference: z
      .string()
      .meta({ description: 'CLM-<year>-<number>, unique in the organization; the supplier quotes it' }),
    title: z.string(),
    status: z.enum(CLAIM_STATUSES),
    supplier_contact: z.object({ name: z.string().nullable(), email: z.string().nullable() }).nullable(),
    note: z.string().nullable(),
    summary: z
      .object({
        counts: countsSchema,
        pending: z.array(money),
        claimed: z.array(money).meta({ description: 'The amount claimed: impact of the claimed alerts, per currency' }),
        credited: z.array(money),
        dismissed: z.array(money),
      })
      .meta({
        description: 'Alerts of the claim (set-aside ones left out) counted and summed by alert status, per currency',
      }),
    refund_summary: z.array(money).meta({ description: 'Refunds received, per currency' }),
    refunds: z.array(refundSchema),
    credit_notes: z.array(creditNoteSchema),
    created_by: actor,
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
    completed_at: z.string().datetime().nullable(),
    cancelled_at: z.string().datetime().nullable(),
    url: z.string().meta({ description: 'The claim in the application' }),
  })
  .meta({ id: 'Claim' });

export const alertChangeSchema = z
  .object({
    claim: claimSchema,
    added: z.array(uuid),
    moved: z.array(uuid).meta({ description: 'Taken from another open claim (move_from_open_claims)' }),
    removed: z.array(uuid),
    unchanged: z.array(uuid).meta({ description: 'Already where asked' }),
    skipped: z
      .array(z.object({ id: uuid, reason: z.string() }))
      .meta({ description: 'Alerts a filter selected that cannot be moved, and why' }),
  })
  .meta({ id: 'ClaimAlertChange' });

const byClaimStatus = z.object({
  currency_code: z.string().nullable(),
  total: z.string(),
  pending: z.string(),
  in_progress: z.string(),
  completed: z.string(),
  cancelled: z.string(),
});

export const metricsSchema = z
  .object({
    counts: z.object({
      total: z.number().int(),
      pending: z.number().int(),
      in_progress: z.number().int(),
      completed: z.number().int(),
      cancelled: z.number().int(),
    }),
    claimed: z.array(byClaimStatus).meta({ description: 'Impact of claimed alerts per currency and claim status' }),
    refund_summary: z
      .array(byClaimStatus)
      .meta({ description: 'Refunds per currency and claim status, within refunded_from / refunded_through' }),
  })
  .meta({ id: 'ClaimMetrics' });

export const refundsByMonthSchema = z
  .object({
    months: z
      .array(
        z.object({
          month: z.string().meta({ description: "YYYY-MM, the calendar month of the refunds' dates" }),
          refunds: z.array(money).meta({ description: 'Refunds dated in the month, per currency' }),
        }),
      )
      .meta({ description: 'Months with refunds, oldest first' }),
  })
  .meta({ id: 'RefundsByMonth' });

export const claimDocumentSchema = z
  .object({
    document_id: uuid,
    role: z.enum(['invoice', 'invoice_attachment', 'credit_note', 'credit_note_attachment']),
    invoice_id: uuid,
    invoice_number: z.string().nullable(),
    file_name: z.string(),
    mime_type: z.string(),
    file_size: z.number().int(),
    download_url: z.string().meta({ description: 'A presigned GET link' }),
    expires_at: z.string().datetime(),
  })
  .meta({ id: 'ClaimDocument' });

// What a client reads, it can write back (docs/invoices.md, "Writing back what was read"): the
// read-only fields of a claim or refund are accepted and dropped; a PATCH checks its fixed fields
// against the record (CLAIM_FIXED_FIELDS, REFUND_FIXED_FIELDS).
export const createClaimSchema = acceptingReadShape(createClaimInput, claimSchema).meta({ id: 'ClaimCreate' });
export const patchClaimSchema = acceptingReadShape(patchClaimInput, claimSchema).meta({ id: 'ClaimPatch' });
export const createRefundSchema = acceptingReadShape(createRefundInput, refundSchema).meta({ id: 'ClaimRefundCreate' });
export const patchRefundSchema = acceptingReadShape(patchRefundInput, refundSchema).meta({ id: 'ClaimRefundPatch' });
export const CLAIM_FIXED_FIELDS = ['id', 'agreement_id', 'supplier_id', 'reference'] as const;
export const REFUND_FIXED_FIELDS = ['id', 'credit_note_invoice_id'] as const;

export type CreateClaimInput = z.infer<typeof createClaimSchema>;
export type PatchClaimInput = z.infer<typeof patchClaimSchema>;
export type AddAlertsInput = z.infer<typeof addAlertsSchema>;
export type CreateRefundInput = z.infer<typeof createRefundSchema>;
export type PatchRefundInput = z.infer<typeof patchRefundSchema>;
