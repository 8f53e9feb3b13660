import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../../src/http/errors.js';
import { fieldPathsOf } from '../../../src/http/fields.js';
import { assertKnownQueryKeys, fieldSelectionOf, queryKeysOf } from '../../../src/http/route.js';
import { allRoutes } from '../../../src/routes.js';

describe('query parameters a route knows', () => {
  it('are its query schema keys plus fields where it selects fields', () => {
    const record = z.object({ id: z.string() });
    expect(
      queryKeysOf({
        method: 'get',
        query: z.object({ limit: z.string(), statuses: z.string() }),
        fieldsOf: record,
        responses: {},
      }),
    ).toEqual(['fields', 'limit', 'statuses']);
    // A JSON read selects over its response's record without saying so; a write does not select.
    expect(queryKeysOf({ method: 'get', responses: { 200: { description: 'x', schema: record } } })).toEqual([
      'fields',
    ]);
    expect(queryKeysOf({ method: 'post', responses: { 200: { description: 'x', schema: record } } })).toEqual([]);
    // A file has no fields.
    expect(
      queryKeysOf({
        method: 'get',
        responses: { 200: { description: 'CSV', contentType: 'text/csv', schema: z.string() } },
      }),
    ).toEqual([]);
  });

  it('include fields on every read of the route table but file downloads', () => {
    const reads = allRoutes.filter((route) => route.method === 'get');
    const files = reads.filter((route) =>
      [route.responses[200]?.contentType ?? 'application/json'].flat().some((type) => type !== 'application/json'),
    );
    expect(files.map((route) => route.path).sort()).toEqual([
      '/v1/agreements/{id}/price-imports/{import_id}/download',
      '/v1/agreements/{id}/price-items/export',
      '/v1/alerts/export',
      '/v1/claims/{id}/export',
    ]);
    for (const route of reads.filter((r) => !files.includes(r))) {
      expect(queryKeysOf(route), route.path).toContain('fields');
      const selection = fieldSelectionOf(route)!;
      expect(fieldPathsOf(selection.schema).length, route.path).toBeGreaterThan(0);
      // Every list is { data, next_cursor } and pages with limit and cursor.
      if (selection.listKey)
        expect(queryKeysOf(route), route.path).toEqual(expect.arrayContaining(['limit', 'cursor']));
    }
  });

  it('refuse an unknown parameter, naming it and the valid ones', () => {
    const refusal = (() => {
      try {
        assertKnownQueryKeys(['limit', 'statuses'], { limit: '2', mine: 'true' });
      } catch (error) {
        return error as ApiError;
      }
      throw new Error('accepted an unknown parameter');
    })();
    expect(refusal.status).toBe(400);
    expect(refusal.code).toBe('validation_error');
    expect(refusal.extra.details).toEqual({
      fields: [{ field: 'query.mine', message: 'unknown parameter' }],
      valid_parameters: ['limit', 'statuses'],
    });
    expect(() => assertKnownQueryKeys(['limit'], { limit: '2' })).not.toThrow();
    expect(() => assertKnownQueryKeys([], { x: '1' })).toThrow(/takes no query parameters/);
  });
});
