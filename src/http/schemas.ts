import { z, type ZodType } from 'zod';
import { escapeLike } from './sql-filters.js';
import { sameJson } from '../shared/canonical-json.js';
import { errors } from './errors.js';

// Building blocks of request and response schemas shared by every resource.

// Plural filters take comma-separated values: statuses=failed,cancelled
export function commaList<T extends ZodType>(item: T) {
  return z.preprocess(
    (raw) =>
      typeof raw === 'string'
        ? raw
            .split(',')
            .map((v) => v.trim())
            .filter(Boolean)
        : raw,
    z.array(item).min(1).max(1000),
  );
}

export const uuidList = commaList(z.string().uuid());

export const booleanParam = z.enum(['true', 'false']).transform((v) => v === 'true');

export const dateString = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), 'must be a real date');

export const timestampString = z
  .string()
  .datetime({ offset: true, message: 'must be an ISO 8601 timestamp such as 2026-01-31T12:00:00Z' });

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
    next_cursor: z
      .string()
      .nullable()
      .meta({ description: 'Send back as cursor with the same filters; null at the end.' }),
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

// What a client reads, it can write back: the fields of the read shape that the input does not
// take (ids, timestamps, derived values) are accepted on create and patch, whatever their value,
// and dropped before the handler sees the body. They come from the read schema itself, so a field
// added to a resource's reads is accepted back at once. Any other unknown field is still a
// validation_error. `alsoReadOnly` names input fields the read shape fills differently.
export function acceptingReadShape<T extends z.ZodObject>(
  input: T,
  read: z.ZodObject,
  alsoReadOnly: readonly string[] = [],
) {
  const readOnly = [...Object.keys(read.shape).filter((field) => !(field in input.shape)), ...alsoReadOnly];
  const ignored = Object.fromEntries(
    readOnly.map((field) => [
      field,
      z.unknown().optional().meta({ description: 'Read-only: accepted as read and ignored' }),
    ]),
  );
  return input
    .extend(ignored)
    .strict()
    .transform((body) => {
      const writable: Record<string, unknown> = { ...body };
      for (const field of readOnly) delete writable[field];
      return writable as z.output<T>;
    });
}

// A PATCH may send back, as read, fields it cannot change; sending one with another value is a
// mistake the client must hear about (e.g. status: dismissed instead of POST /v1/alerts/dismiss):
// 400 naming the fields, and nothing changes. `fields` are dotted paths of the fixed fields;
// fields that move by themselves (updated_at, counts, derived states) are not listed and are
// simply ignored.
export function assertSentAsRead(sent: unknown, current: unknown, fields: readonly string[], prefix = ''): void {
  const at = (value: unknown, path: string) =>
    path
      .split('.')
      .reduce<unknown>(
        (node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
        value,
      );
  const differing = fields.filter(
    (path) => at(sent, path) !== undefined && !sameJson(at(sent, path), at(current, path)),
  );
  if (differing.length === 0) return;
  throw errors.validation(
    'Some read-only fields differ from the record; send them as read or leave them out. Nothing was changed.',
    differing.map((path) => ({ field: `${prefix}${path}`, message: 'is read-only: send it as read or leave it out' })),
  );
}

// join_operator=and|or: how a list's relation filters (which records it is linked to: suppliers,
// agreements, invoices, topics, claims, tags) combine with each other. The other filters (status,
// dates, search, ...) always narrow further. and is the default.
export const joinOperatorParam = z
  .enum(['and', 'or'])
  .optional()
  .meta({ description: 'How the relation filters combine (and by default); other filters always narrow further' });

// Prisma's `contains` in any case, the searched text taken literally: Prisma passes LIKE's
// wildcards (% and _) through, so "a_c" would also find "abc".
export const containsText = (search: string) => ({ contains: escapeLike(search), mode: 'insensitive' as const });

export function joinRelations<W extends object>(
  operator: 'and' | 'or' | undefined,
  relations: (W | null)[],
): { AND: W[] } | { OR: W[] } | Record<string, never> {
  const sent = relations.filter((relation): relation is W => relation !== null);
  if (sent.length === 0) return {};
  return operator === 'or' ? { OR: sent } : { AND: sent };
}
