import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldPathsOf, parseFields, selectFields } from '../../../src/http/fields.js';

const schema = z.object({
  id: z.string(),
  status: z.string(),
  progress: z.object({ total: z.number().nullable(), failed: z.number() }),
  failure: z.object({ code: z.string() }).nullable(),
});

describe('fields', () => {
  it('knows every dotted path of a schema', () => {
    expect(fieldPathsOf(schema)).toEqual([
      'id',
      'status',
      'progress',
      'progress.total',
      'progress.failed',
      'failure',
      'failure.code',
    ]);
  });

  it('selects dotted paths and always keeps id', () => {
    const record = { id: '1', status: 'done', progress: { total: null, failed: 2 }, failure: null };
    expect(selectFields(record, ['progress.total'])).toEqual({ id: '1', progress: { total: null } });
    expect(selectFields(record, ['failure.code'])).toEqual({ id: '1', failure: null });
  });

  it('rejects unknown fields, naming the valid ones', () => {
    expect(() => parseFields('status,bogus', schema)).toThrow(/bogus/);
    expect(parseFields('status, progress.total', schema)).toEqual(['status', 'progress.total']);
    expect(parseFields(undefined, schema)).toBeNull();
  });
});
