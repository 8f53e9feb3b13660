import { z, type ZodType } from 'zod';
import { errors } from './errors.js';

// `fields=id,status,progress.total`: dotted paths into a record. `id` (or a group's `key`) is
// always returned. The valid paths come from the record's response schema, so they can't drift.

function unwrap(schema: ZodType): ZodType {
  let current: ZodType = schema;
  for (;;) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable || current instanceof z.ZodDefault) {
      current = (current as z.ZodOptional<ZodType>).unwrap();
    } else if (current instanceof z.ZodPipe) {
      current = (current as z.ZodPipe<ZodType, ZodType>).out;
    } else {
      return current;
    }
  }
}

export function fieldPathsOf(schema: ZodType, prefix = ''): string[] {
  const inner = unwrap(schema);
  if (!(inner instanceof z.ZodObject)) return [];
  const paths: string[] = [];
  for (const [key, child] of Object.entries(inner.shape)) {
    const path = prefix ? `${prefix}.${key}` : key;
    paths.push(path, ...fieldPathsOf(child as ZodType, path));
  }
  return paths;
}

export function parseFields(raw: string | undefined, schema: ZodType): string[] | null {
  if (raw === undefined) return null;
  const requested = raw
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  const valid = fieldPathsOf(schema);
  const unknown = requested.filter((f) => !valid.includes(f));
  if (unknown.length > 0) {
    throw errors.validation(`Unknown field${unknown.length > 1 ? 's' : ''} in fields: ${unknown.join(', ')}.`, {
      fields: unknown.map((field) => ({ field: 'fields', message: `unknown field ${field}` })),
      valid_fields: valid,
    });
  }
  return requested;
}

function pick(record: Record<string, unknown>, path: string[], target: Record<string, unknown>): void {
  const [head, ...rest] = path;
  if (head === undefined || !(head in record)) return;
  const value = record[head];
  if (rest.length === 0 || value === null || typeof value !== 'object' || Array.isArray(value)) {
    target[head] = value;
    return;
  }
  const child = (target[head] ??= {}) as Record<string, unknown>;
  pick(value as Record<string, unknown>, rest, child);
}

export function selectFields<T extends Record<string, unknown>>(
  record: T,
  fields: string[],
  identity: readonly string[] = ['id', 'key'],
): Partial<T> {
  const target: Record<string, unknown> = {};
  const always = identity.filter((k) => k in record);
  for (const field of [...always, ...fields]) pick(record, field.split('.'), target);
  return target as Partial<T>;
}
