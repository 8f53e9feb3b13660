import { z } from 'zod';
import { priceSchema } from '../agreements/price-items/schemas.js';
import { pageParams } from '../http/pagination.js';
import {
  acceptingReadShape,
  booleanParam,
  commaList,
  createdRangeParams,
  decimalString,
  joinOperatorParam,
  timestampString,
  uuidList,
} from '../http/schemas.js';
import { teamScopeParams, type TeamScopeQuery } from '../teams/scope.js';

export const ALERT_STATUSES = ['pending', 'claimed', 'credited', 'dismissed'] as const;
export const CORRECTION_TYPES = ['modify_invoice', 'modify_item', 'add_item'] as const;
export const ALERT_SORTS = ['created_at', 'updated_at', 'impact_amount'] as const;
// checker: the check that found the alert (provenance.checker); alerts people added have none.
export const GROUP_BY = ['agreement', 'topic', 'invoice', 'supplier', 'status', 'checker'] as const;
// One bulk command touches at most this many alerts; narrow the filter beyond it.
export const MAX_BULK_ALERTS = 10_000;

const uuid = z.string().uuid();

// ---- Filters: one meaning, two spellings (query string for lists, JSON for bulk commands) ----

// mine / team_ids narrow lists, totals and exports (not bulk commands: their JSON filter has neither).
export interface AlertFilter extends TeamScopeQuery {
  invoice_ids?: string[];
  agreement_ids?: string[];
  supplier_ids?: string[];
  supplier_operator?: 'is' | 'is_not';
  // null selects alerts without a topic.
  topic_ids?: (string | null)[];
  claim_ids?: string[];
  // How the relation filters (invoice, agreement, supplier, topic, claim) combine.
  join_operator?: 'and' | 'or';
  statuses?: (typeof ALERT_STATUSES)[number][];
  has_topic?: boolean;
  has_claim?: boolean;
  created_from?: string;
  created_before?: string;
  search?: string;
}

export const filterQueryParams = {
  invoice_ids: uuidList.optional(),
  agreement_ids: uuidList.optional(),
  supplier_ids: uuidList
    .optional()
    .meta({ description: 'Alerts of invoices from these suppliers (supplier_operator=is_not excludes them)' }),
  supplier_operator: z.enum(['is', 'is_not']).optional(),
  topic_ids: commaList(z.union([z.literal('null'), uuid]))
    .transform((ids) => ids.map((id) => (id === 'null' ? null : id)))
    .optional()
    .meta({ description: 'Topic ids; the value null selects uncategorized alerts, and mixes: A,null' }),
  claim_ids: uuidList.optional(),
  join_operator: joinOperatorParam.meta({
    description: 'How invoice_ids, agreement_ids, supplier_ids, topic_ids and claim_ids combine: and (default) or or',
  }),
  statuses: commaList(z.enum(ALERT_STATUSES)).optional(),
  has_topic: booleanParam.optional(),
  has_claim: booleanParam.optional(),
  ...createdRangeParams,
  search: z.string().min(1).max(200).optional().meta({
    description: "Title, explanation, the invoice's number or the supplier's name contains (case-insensitive)",
  }),
  ...teamScopeParams,
};

export const filterBodySchema = z
  .object({
    invoice_ids: z.array(uuid).min(1).max(1000).optional(),
    agreement_ids: z.array(uuid).min(1).max(1000).optional(),
    supplier_ids: z.array(uuid).min(1).max(1000).optional(),
    supplier_operator: z.enum(['is', 'is_not']).optional(),
    topic_ids: z.array(uuid.nullable()).min(1).max(1000).optional(),
    claim_ids: z.array(uuid).min(1).max(1000).optional(),
    join_operator: joinOperatorParam,
    statuses: z.array(z.enum(ALERT_STATUSES)).min(1).optional(),
    has_topic: z.boolean().optional(),
    has_claim: z.boolean().optional(),
    created_from: timestampString.optional(),
    created_before: timestampString.optional(),
    search: z.string().min(1).max(200).optional(),
  })
  .strict()
  .refine((f) => f.agreement_ids || f.invoice_ids || f.topic_ids || f.claim_ids, {
    message: 'a bulk filter must name at least one of agreement_ids, invoice_ids, topic_ids or claim_ids',
  })
  .meta({
    id: 'AlertBulkFilter',
    description: 'The list filters as JSON; must name an agreement, invoice, topic or claim',
  });

const FILTER_KEYS = Object.keys(filterQueryParams) as (keyof AlertFilter)[];

// The filter part of a parsed list query (everything else is paging or field selection).
export function filterOf(query: Record<string, unknown>): AlertFilter {
  const filter: Record<string, unknown> = {};
  for (const key of FILTER_KEYS) if (query[key] !== undefined) filter[key] = query[key];
  return filter;
}

export const listQuery = z.object({ ...pageParams(ALERT_SORTS), ...filterQueryParams });
export const metricsQuery = z.object(filterQueryParams);
// Groups come most alerts first (sort=count, desc); ties by key.
export const groupsQuery = z.object({
  group_by: z.enum(GROUP_BY).default('agreement').meta({ description: 'agreement unless given' }),
  ...pageParams(['count']),
  ...filterQueryParams,
});
export const exportQuery = z.object({
  format: z.enum(['csv', 'xlsx']).default('csv'),
  sort: z.enum(ALERT_SORTS).optional(),
  direction: z.enum(['asc', 'desc']).optional(),
  ...filterQueryParams,
});

// ---- Alert input ----

export const expectedEntrySchema = z
  .object({
    description: z.string().trim().min(1).max(1000).nullable().optional(),
    unit: z.string().trim().min(1).max(50).nullable().optional(),
    currency_code: z
      .string()
      .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code')
      .nullable()
      .optional(),
    price: priceSchema,
  })
  .strict();

export const citationSchema = z
  .object({
    source_ref: z.number().int().min(1).meta({ description: 'The number of the [n] marker in title or explanation' }),
    citation: z.object({
      source: z.looseObject({
        source_type: z
          .string()
          .min(1)
          .max(50)
          .meta({ description: 'e.g. document, agreement_prices, web_page, supplied_text' }),
        document_id: uuid.nullable().optional(),
      }),
      quote: z.string().max(10_000).nullable().optional(),
    }),
  })
  .strict();

const alertFields = {
  title: z.string().trim().min(1).max(500),
  explanation: z.string().trim().min(1).max(20_000),
  impact_amount: decimalString.meta({
    description: 'In the invoice currency; positive when the invoice charges more than agreed',
  }),
  expected: z.array(expectedEntrySchema).min(1).max(50).nullable(),
  confidence: z.object({ level: z.string().trim().min(1).max(50) }).strict(),
  citations: z.array(citationSchema).max(200),
  invoice_item_id: uuid.nullable(),
  correction_type: z.enum(CORRECTION_TYPES),
  topic_id: uuid.nullable(),
};

const createAlertInput = z
  .object({
    invoice_id: uuid,
    agreement_id: uuid,
    title: alertFields.title,
    explanation: alertFields.explanation,
    impact_amount: alertFields.impact_amount.optional().meta({
      description: 'Required for whole-invoice alerts; calculated from expected for line alerts when omitted',
    }),
    expected: alertFields.expected.optional(),
    confidence: alertFields.confidence.default({ level: 'certain' }),
    citations: alertFields.citations.default([]),
    invoice_item_id: alertFields.invoice_item_id.optional(),
    correction_type: alertFields.correction_type.default('modify_invoice'),
    topic_id: alertFields.topic_id.optional(),
  })
  .strict();

const patchAlertInput = z.object(alertFields).partial().strict();

// ---- Bulk commands ----

const selection = {
  alert_ids: z.array(uuid).min(1).max(MAX_BULK_ALERTS).optional(),
  filter: filterBodySchema.optional(),
};
const exactlyOne = (body: { alert_ids?: unknown; filter?: unknown }) =>
  (body.alert_ids === undefined) !== (body.filter === undefined);
const exactlyOneMessage = { message: 'send either alert_ids or filter', path: ['alert_ids'] };

export const bulkSchema = z.object(selection).strict().refine(exactlyOne, exactlyOneMessage);
export const dismissSchema = z
  .object({
    ...selection,
    category: z.string().trim().min(1).max(100).nullable().optional(),
    note: z.string().trim().min(1).max(5000).nullable().optional(),
    suggest_instructions: z.boolean().default(true),
  })
  .strict()
  .refine(exactlyOne, exactlyOneMessage);

export type BulkSelection = { alert_ids?: string[]; filter?: AlertFilter };

// ---- Responses ----

export const alertSchema = z
  .object({
    id: uuid,
    status: z.enum(ALERT_STATUSES),
    invoice_id: uuid,
    agreement_id: uuid,
    supplier_id: uuid.nullable(),
    title: z.string(),
    explanation: z.string(),
    impact_amount: z.string(),
    currency_code: z.string().nullable().meta({ description: "The invoice's currency" }),
    expected: z.array(z.unknown()).nullable(),
    confidence: z.object({ level: z.string() }),
    citations: z.array(z.unknown()),
    invoice_item_id: uuid.nullable(),
    correction_type: z.string(),
    topic_id: uuid.nullable(),
    claim_id: uuid.nullable(),
    set_aside: z.boolean().meta({
      description: 'The invoice no longer matches the agreement: left out of lists and totals until it does again',
    }),
    provenance: z.object({
      origin: z.enum(['check', 'user', 'api_key']),
      user_id: uuid.nullable(),
      api_key_id: uuid.nullable(),
      check_id: uuid.nullable(),
      checker: z.string().nullable(),
    }),
    dismissal: z
      .object({ category: z.string().nullable(), note: z.string().nullable(), dismissed_at: z.string().datetime() })
      .nullable(),
    credit: z.object({ credited_by: z.string(), credited_at: z.string().datetime() }).nullable(),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .meta({ id: 'Alert' });

// Created and patched in the shape it is read (docs/alerts.md): status, provenance, dismissal and
// the other server-set fields are accepted as read and ignored; so are invoice_id and
// agreement_id on a PATCH (an alert stays on its pair).
export const createAlertSchema = acceptingReadShape(createAlertInput, alertSchema);
// Sent back on a PATCH, these must be as read (status changes through the commands).
export const ALERT_FIXED_FIELDS = [
  'id',
  'status',
  'invoice_id',
  'agreement_id',
  'supplier_id',
  'currency_code',
  'claim_id',
  'set_aside',
  'provenance',
  'dismissal',
  'credit',
] as const;
export const patchAlertSchema = acceptingReadShape(patchAlertInput, alertSchema);

export type CreateAlertInput = z.infer<typeof createAlertSchema>;
export type PatchAlertInput = z.infer<typeof patchAlertSchema>;

export const bulkResultSchema = z
  .object({
    updated: z.array(uuid),
    unchanged: z.array(uuid).meta({ description: 'Already in the state asked for' }),
    skipped: z
      .array(z.object({ id: uuid, reason: z.string() }))
      .meta({ description: 'in_claim, not_pending, not_credited, credited_by_claim or set_aside' }),
  })
  .meta({ id: 'AlertBulkResult' });

export const bulkDeleteResultSchema = z
  .object({
    deleted: z.array(uuid),
    unchanged: z.array(uuid).meta({ description: 'Already gone' }),
    skipped: z.array(z.object({ id: uuid, reason: z.string() })).meta({ description: 'in_claim or set_aside' }),
  })
  .meta({ id: 'AlertBulkDeleteResult' });

const moneySchema = z.object({ currency_code: z.string().nullable(), amount: z.string() });

export const metricsSchema = z
  .object({
    counts: z.object({
      total: z.number().int(),
      pending: z.number().int(),
      claimed: z.number().int(),
      credited: z.number().int(),
      dismissed: z.number().int(),
    }),
    impact: z
      .array(
        z.object({
          currency_code: z.string().nullable(),
          total: z.string(),
          pending: z.string(),
          claimed: z.string(),
          credited: z.string(),
          dismissed: z.string(),
        }),
      )
      .meta({ description: 'Impact sums per currency and status; never added across currencies' }),
  })
  .meta({ id: 'AlertMetrics' });

export const groupSchema = z
  .object({
    key: z
      .string()
      .nullable()
      .meta({ description: 'The id (or status) grouped by; null for alerts without a topic or supplier' }),
    label: z
      .string()
      .nullable()
      .meta({ description: 'Agreement or topic title, supplier name, invoice number, or the status' }),
    count: z.number().int(),
    impact: z.array(moneySchema),
  })
  .meta({ id: 'AlertGroup' });
