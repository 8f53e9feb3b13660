import { describe, expect, it } from 'vitest';
import { bulkFilterOf } from '../../../src/web/pages/alert-list.js';

// The alerts list's filter as a bulk command's JSON filter (issue 28): offered only where the
// API takes it (an agreement or a topic named), with the list's values in the API's shapes.
describe('bulkFilterOf', () => {
  const agreement = '6f1c1b7e-9a54-4d2a-8a0e-0b6f3f1d2c11';
  const topic = '0d9b0c8e-3c1f-4b0b-9f5e-5a7d2e1c3b22';
  const supplier = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c55';

  it('is null without an agreement or a topic: the API refuses such a bulk filter', () => {
    expect(bulkFilterOf({})).toBeNull();
    expect(bulkFilterOf({ statuses: 'pending', supplier_ids: supplier, search: 'freight' })).toBeNull();
  });

  it('carries the list filters as arrays, the uncategorized topic as null, and leaves out what is not set', () => {
    expect(bulkFilterOf({ agreement_ids: agreement, statuses: 'pending' })).toEqual({
      agreement_ids: [agreement],
      statuses: ['pending'],
    });
    expect(
      bulkFilterOf({
        topic_ids: `${topic},null`,
        supplier_ids: supplier,
        search: 'freight',
        statuses: 'pending,claimed',
      }),
    ).toEqual({
      topic_ids: [topic, null],
      supplier_ids: [supplier],
      search: 'freight',
      statuses: ['pending', 'claimed'],
    });
  });
});
