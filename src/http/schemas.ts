import { z, type ZodType } from 'zod';

// Building blocks of request and response schemas shared by every resource.

// Plural filters take comma-separated values: statuses=failed,cancelled
export function commaList<T extends ZodType>(item: T) {
  return z.preprocess(
    (raw) => (typeof raw === 'string' ? raw.split(',').map((v) => v.trim()).filter(Boolean) : raw),
    z.array(item).min(1).max(1000),
  );
}

export const uuidList = commaList(z.string().uuid());

export const booleanParam = z.enum(['true', 'false']).transform((v) => v === 'true');

export const dateString = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD').refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), 'must be a real date');

export const timestampString = z.string().datetime({ offset: true, message: 'must be an ISO 8601 timestamp such as 2026-01-31T12:00:00Z' });

// Timestamps filter with an inclusive `_from` and an exclusive `_before` (the spec's convention).
export const createdRangeParams = {
  created_from: timestampString.optional(),
  created_before: timestampString.optional(),
};

export function createdRangeWhere(filters: { created_from?: string; created_before?: string }) {
  if (!filters.created_from && !filters.created_before) return {};
  return {
    createdAt: {
      ...(filters.created_from ? { gte: new Date(filters.created_from) } : {}),
      ...(filters.created_before ? { lt: new Date(filters.created_before) } : {}),
    },
  };
}

export const decimalString = z.string().regex(/^-?\d+(\.\d+)?$/, 'must be a decimal string such as "1250.00"');

export function listResponse<T extends ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    next_cursor: z.string().nullable().meta({ description: 'Send back as cursor with the same filters; null at the end.' }),
  });
}

// Some errors carry more next to `error` (existing_invoice_id, exclusions, workflow_run_ids, ...).
export const errorResponseSchema = z
  .looseObject({
    error: z.object({
      code: z.string(),
      message: z.string(),
      request_id: z.string(),
      description: z.string().optional(),
      details: z.unknown().optional(),
    }),
  })
  .meta({ id: 'Error' });
