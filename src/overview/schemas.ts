import { z } from 'zod';
import { READINESS_GAPS } from '../agreements/schemas.js';

// GET /v1/overview (docs/overview-and-search.md). Money is per currency, never summed across
// currencies; `recent` is the part of a figure from the last 7 days.

export const RECENT_DAYS = 7;
export const EXPIRING_WITHIN_DAYS = 90;
export const EXPIRING_LISTED = 5;
export const RENEWAL_DUE_WITHIN_DAYS = 30;
export const NOT_READY_STEPS = 5;

const money = z.object({
  currency_code: z.string().nullable().meta({ description: 'null for alerts recorded without a currency' }),
  total: z.string(),
  recent: z.string().meta({ description: 'Of the total, what was recorded in the last 7 days' }),
});
const count = z.number().int();

export const NEXT_STEP_KINDS = [
  'agreement_not_ready',
  'review_alerts',
  'failed_invoices',
  'incomplete_checks',
  'outdated_checks',
  'renewal_due',
] as const;

export const nextStepSchema = z.object({
  kind: z.enum(NEXT_STEP_KINDS),
  message: z.string(),
  count,
  link: z.string().meta({ description: 'The API list (with its filter) that shows the records' }),
  agreement_id: z.string().uuid().nullable(),
});

export const overviewSchema = z
  .object({
    recent_since: z.string().meta({ description: 'Start of the recent window (now minus 7 days)' }),
    invoices: z.object({
      count: count.meta({ description: 'Processed invoices and credit notes that count as spend' }),
      recent_count: count,
      spend: z.array(money).meta({ description: 'Invoices minus credit notes, incl. VAT, per currency' }),
    }),
    alerts: z.object({
      open_count: count.meta({ description: 'Pending alerts' }),
      recent_open_count: count,
      impact: z.array(money),
    }),
    claims: z.object({
      open_count: count.meta({ description: 'Claims pending or in progress' }),
      recent_open_count: count,
      claimed: z
        .array(money)
        .meta({ description: 'Impact of claimed alerts; recent: of claims created in the last 7 days' }),
      refunded: z
        .array(money)
        .meta({ description: 'Refunds recorded on claims; recent: refund dates in the last 7 days' }),
    }),
    agreements: z.object({
      active_count: count,
      expiring_soon: z.object({
        count: count.meta({ description: 'Active agreements expiring within 90 days' }),
        within_days: count,
        soonest: z.array(
          z.object({ id: z.string().uuid(), title: z.string().nullable(), expiration_date: z.string() }),
        ),
      }),
      not_ready: z.object({
        count: count.meta({ description: 'Agreements (not archived) that checks cannot run against yet' }),
        missing: z.object(
          Object.fromEntries(READINESS_GAPS.map((gap) => [gap, count])) as Record<
            (typeof READINESS_GAPS)[number],
            typeof count
          >,
        ),
      }),
    }),
    next_steps: z.array(nextStepSchema),
  })
  .meta({ id: 'Overview' });

export type Overview = z.infer<typeof overviewSchema>;
export type NextStep = z.infer<typeof nextStepSchema>;
