import { describe, expect, it } from 'vitest';
import { call, expectError } from '../support/api.js';
import { alertOn, createClaim } from '../support/claims.js';
import { invoiceOf, matchedAgreement, newSupplier } from '../support/alerts.js';
import { createTenant, keyFor, testDb, type Tenant } from '../support/tenants.js';

const find = async (tenant: Tenant, query: string, types?: string, limit?: number) => {
  const params = new URLSearchParams({ query });
  if (types) params.set('types', types);
  if (limit) params.set('limit', String(limit));
  const response = await tenant.call(`/v1/search?${params.toString()}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data as {
    type: string;
    id: string;
    title: string;
    matched_field: string;
    matched_text: string;
    match: string;
    score: number;
    url: string;
  }[];
};
const ids = (results: { id: string }[]) => results.map((r) => r.id);

describe('GET /v1/search', () => {
  it('finds every type by name or number, best first; a query under 3 characters matches only the start', async () => {
    const tenant = await createTenant();
    const supplier = { ...newSupplier(), name: `Zebra Office ${crypto.randomUUID().slice(0, 4)}` };
    const exact = await invoiceOf(tenant, supplier, { number: 'QX-1001' });
    const longer = await invoiceOf(tenant, supplier, { number: 'QX-1001-B' });
    const inside = await invoiceOf(tenant, supplier, { number: 'AQX-77' });

    // Invoices: exact, then prefix, then anywhere.
    const byNumber = await find(tenant, 'qx-1001', 'invoice');
    expect(byNumber.map((r) => [r.id, r.match, r.matched_field])).toEqual([
      [exact.id, 'exact', 'invoice_number'],
      [longer.id, 'prefix', 'invoice_number'],
    ]);
    expect(byNumber[0]).toMatchObject({
      type: 'invoice',
      title: `QX-1001 · ${supplier.name}`,
      matched_text: 'QX-1001',
      score: 1,
      url: `/v1/invoices/${exact.id}`,
    });
    expect(byNumber[1]!.score).toBeLessThan(1);
    const threeChars = await find(tenant, 'QX-', 'invoice');
    expect(ids(threeChars).slice(0, 2).sort()).toEqual([exact.id, longer.id].sort());
    expect(threeChars[2]).toMatchObject({ id: inside.id, match: 'anywhere' });
    // Two characters: only numbers and names that start with them.
    expect(ids(await find(tenant, 'qx', 'invoice')).sort()).toEqual([exact.id, longer.id].sort());
    expect(await find(tenant, 'x-', 'invoice')).toEqual([]);
    expect(await find(tenant, 'AQ', 'invoice')).toMatchObject([{ id: inside.id, match: 'prefix' }]);
    // By supplier name (as invoiced): prefix only under 3 characters.
    expect((await find(tenant, 'ze', 'invoice')).map((r) => r.matched_field)).toEqual([
      'supplier_name',
      'supplier_name',
      'supplier_name',
    ]);
    expect(await find(tenant, 'eb', 'invoice')).toEqual([]);
    expect(await find(tenant, 'ebra off', 'invoice')).toHaveLength(3);
    // LIKE wildcards are plain characters.
    expect(await find(tenant, '%', 'invoice')).toEqual([]);
    expect(await find(tenant, 'Q_-1001', 'invoice')).toEqual([]);

    // Agreements, by title; instructions by their words.
    const paper = await matchedAgreement(tenant, [exact.supplier.id], 'Paper');
    const paperSupplies = (await tenant.call('/v1/agreements', { method: 'POST', body: { title: 'Paper supplies' } }))
      .body.id;
    const copyPaper = (
      await tenant.call('/v1/agreements', {
        method: 'POST',
        body: {
          title: 'Copy paper',
          instructions: 'Deliveries are free of charge above 500 EUR; cartridges are priced per piece.',
        },
      })
    ).body.id;
    expect(ids(await find(tenant, 'PAPER', 'agreement'))).toEqual([paper, paperSupplies, copyPaper]);
    expect(ids(await find(tenant, 'pa', 'agreement'))).toEqual([paper, paperSupplies]);
    expect(await find(tenant, 'co', 'agreement')).toMatchObject([{ id: copyPaper, match: 'prefix' }]);
    expect(await find(tenant, 'op', 'agreement')).toEqual([]);
    const byWords = await find(tenant, 'cartridges', 'agreement');
    expect(byWords).toMatchObject([
      {
        id: copyPaper,
        matched_field: 'instructions',
        match: 'text',
        title: 'Copy paper',
        url: `/v1/agreements/${copyPaper}`,
      },
    ]);
    expect(byWords[0]!.matched_text).toContain('cartridges');
    expect(byWords[0]!.matched_text).not.toContain('<b>');

    // Alerts: title by name, explanation by words.
    const alert = await alertOn(tenant, exact.id, paper, {
      title: 'Toner overcharged',
      explanation: 'The toner cartridge costs more than agreed [1].',
    });
    expect(await find(tenant, 'to', 'alert')).toMatchObject([
      { id: alert, type: 'alert', match: 'prefix', url: `/v1/alerts/${alert}` },
    ]);
    expect(await find(tenant, 'ov', 'alert')).toEqual([]);
    expect(await find(tenant, 'overch', 'alert')).toMatchObject([
      { id: alert, match: 'anywhere', matched_field: 'title' },
    ]);
    expect(await find(tenant, 'cartridge agreed', 'alert')).toMatchObject([
      { id: alert, match: 'text', matched_field: 'explanation' },
    ]);
    // A set-aside alert (its match ended) is in no list, so it is not found; it is again when the match returns.
    const match = { invoiceId_agreementId: { invoiceId: exact.id, agreementId: paper } };
    await testDb().invoiceAgreementMatch.update({ where: match, data: { active: false } });
    expect(await find(tenant, 'overch', 'alert')).toEqual([]);
    expect(await find(tenant, 'cartridge agreed', 'alert')).toEqual([]);
    await testDb().invoiceAgreementMatch.update({ where: match, data: { active: true } });
    expect(ids(await find(tenant, 'to', 'alert'))).toEqual([alert]);

    // Topics.
    const topic = await tenant.call('/v1/alert-topics', {
      method: 'POST',
      body: { agreement_id: paper, title: 'Freight charges' },
    });
    expect(topic.status, JSON.stringify(topic.body)).toBe(201);
    expect(await find(tenant, 'fr', 'topic')).toMatchObject([
      { id: topic.body.id, type: 'topic', title: 'Freight charges', url: `/v1/alert-topics/${topic.body.id}` },
    ]);
    expect(await find(tenant, 'ei', 'topic')).toEqual([]);
    expect(await find(tenant, 'eight', 'topic')).toMatchObject([{ id: topic.body.id, match: 'anywhere' }]);

    // Claims, by reference and title.
    const claim = await createClaim(tenant, { agreement_id: paper, title: 'Toner refund' });
    expect(await find(tenant, claim.reference, 'claim')).toMatchObject([
      { id: claim.id, match: 'exact', matched_field: 'reference', title: `${claim.reference} · Toner refund` },
    ]);
    expect(await find(tenant, 'cl', 'claim')).toMatchObject([
      { id: claim.id, match: 'prefix', matched_field: 'reference' },
    ]);
    expect(await find(tenant, 'lm', 'claim')).toEqual([]);
    expect(await find(tenant, 'refund', 'claim')).toMatchObject([
      { id: claim.id, match: 'anywhere', matched_field: 'title' },
    ]);

    // All types together, best first; limit cuts the tail.
    const all = await find(tenant, 'toner');
    // Both start with the query; the shorter title ("Toner refund") is the closer match.
    expect(all.map((r) => [r.type, r.match])).toEqual([
      ['claim', 'prefix'],
      ['alert', 'prefix'],
    ]);
    expect(all[0]!.score).toBeGreaterThan(all[1]!.score);
    expect(await find(tenant, 'paper', undefined, 2)).toHaveLength(2);
    // Pages like every list: the next page continues the same ranking.
    const everything = await find(tenant, 'paper');
    const firstPage = await tenant.call('/v1/search?query=paper&limit=2');
    expect(firstPage.body.next_cursor).toEqual(expect.any(String));
    const nextPage = await tenant.call(
      `/v1/search?query=paper&limit=1000&cursor=${encodeURIComponent(firstPage.body.next_cursor)}`,
    );
    expect(nextPage.body.next_cursor).toBeNull();
    expect([...firstPage.body.data, ...nextPage.body.data].map((r: any) => r.id)).toEqual(everything.map((r) => r.id));
    expect(ids(await find(tenant, 'to', 'alert,claim'))).toEqual([claim.id, alert]);
    expect(ids(await find(tenant, 'to', 'topic,invoice'))).toEqual([]);

    // Read level suffices; another organization finds nothing of this one.
    const reader = await keyFor(tenant, 'read');
    expect(
      (await call('/v1/search?query=paper&types=agreement', { token: reader, organizationId: tenant.organizationId }))
        .body.data,
    ).toHaveLength(3);
    const other = await createTenant();
    for (const query of ['QX', 'qx-1001', 'paper', 'toner', 'cartridges', claim.reference, 'fr'])
      expect(await find(other, query)).toEqual([]);

    expectError(await tenant.call('/v1/search'), 400, 'validation_error');
    expectError(await tenant.call('/v1/search?query=%20%20'), 400, 'validation_error');
    expectError(await tenant.call('/v1/search?query=paper&types=supplier'), 400, 'validation_error');
    expectError(await tenant.call(`/v1/search?query=${'a'.repeat(201)}`), 400, 'validation_error');
    expectError(await tenant.call('/v1/search?query=paper&limit=1001'), 400, 'validation_error');
    expectError(await tenant.call('/v1/search?query=paper&direction=asc'), 400, 'validation_error');
    expectError(await tenant.call('/v1/search?query=pa%00per'), 400, 'validation_error');
  });
});
