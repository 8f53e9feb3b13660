import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../../src/http/errors.js';
import { assertKnownQueryKeys, queryKeysOf } from '../../../src/http/route.js';

describe('query parameters a route knows', () => {
  it('are its query schema keys plus fields where it selects fields', () => {
    expect(queryKeysOf({ query: z.object({ limit: z.string(), statuses: z.string() }), fieldsOf: z.object({ id: z.string() }) })).toEqual(['fields', 'limit', 'statuses']);
    expect(queryKeysOf({})).toEqual([]);
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
    expect(refusal.extra.details).toEqual({ fields: [{ field: 'query.mine', message: 'unknown parameter' }], valid_parameters: ['limit', 'statuses'] });
    expect(() => assertKnownQueryKeys(['limit'], { limit: '2' })).not.toThrow();
    expect(() => assertKnownQueryKeys([], { x: '1' })).toThrow(/takes no query parameters/);
  });
});
