import { describe, expect, it } from 'vitest';
import { alertWhere } from '../../../src/alerts/filters.js';
import { bulkSchema, filterBodySchema, filterOf, listQuery } from '../../../src/alerts/schemas.js';

const A = '6f1f7a52-8c1e-4c38-9a43-0d7c2b0f9e11';
const B = '0b7d4c1e-2f3a-4b5c-8d9e-1a2b3c4d5e6f';

describe('alert filters', () => {
  it('read topic_ids with the literal null for uncategorized, alone or mixed', () => {
    expect(listQuery.parse({ topic_ids: 'null' }).topic_ids).toEqual([null]);
    expect(listQuery.parse({ topic_ids: `${A},null` }).topic_ids).toEqual([A, null]);
    expect(listQuery.safeParse({ topic_ids: 'none' }).success).toBe(false);
  });

  it('turn topic ids and null into one OR condition', () => {
    const where = alertWhere('org', filterOf(listQuery.parse({ topic_ids: `${A},null`, has_claim: 'false' })), []);
    // Relation filters are one group, combined by join_operator (and by default).
    expect(where.AND).toContainEqual({ AND: [{ OR: [{ topicId: { in: [A] } }, { topicId: null }] }] });
    expect(where.AND).toContainEqual({ claimId: null });
    expect(where.AND).toContainEqual({ organizationId: 'org', match: { active: true, invoice: { deletedAt: null } } });
  });

  it('combine the relation filters with join_operator=or, and narrow by the others', () => {
    const where = alertWhere(
      'org',
      filterOf(listQuery.parse({ agreement_ids: A, invoice_ids: A, join_operator: 'or', statuses: 'pending' })),
      [],
    );
    expect(where.AND).toContainEqual({ OR: [{ invoiceId: { in: [A] } }, { agreementId: { in: [A] } }] });
    expect(where.AND).toContainEqual({ status: { in: ['pending'] } });
    expect(listQuery.safeParse({ join_operator: 'xor' }).success).toBe(false);
  });

  it('keep only filters in the filter part of a list query', () => {
    expect(
      filterOf(listQuery.parse({ limit: '5', sort: 'impact_amount', statuses: 'pending,dismissed', search: 'x' })),
    ).toEqual({ statuses: ['pending', 'dismissed'], search: 'x' });
  });

  it('make bulk filters name an agreement, invoice, topic or claim, and reject unknown keys', () => {
    expect(filterBodySchema.safeParse({ statuses: ['pending'] }).success).toBe(false);
    expect(filterBodySchema.safeParse({ topic_ids: [null] }).success).toBe(true);
    expect(filterBodySchema.safeParse({ claim_ids: [B], colour: 'red' }).success).toBe(false);
  });

  it('take exactly one of alert_ids and filter', () => {
    expect(bulkSchema.safeParse({ alert_ids: [A] }).success).toBe(true);
    expect(bulkSchema.safeParse({ filter: { agreement_ids: [A] } }).success).toBe(true);
    expect(bulkSchema.safeParse({ alert_ids: [A], filter: { agreement_ids: [A] } }).success).toBe(false);
    expect(bulkSchema.safeParse({}).success).toBe(false);
  });
});
