import { describe, expect, it } from 'vitest';
import { expectError } from '../support/api.js';
import { createTenant, testDb, type Tenant } from '../support/tenants.js';

async function agreementOf(tenant: Tenant) {
  return (await tenant.call('/v1/agreements', { method: 'POST', body: { title: 'Office supplies' } })).body
    .id as string;
}

const paper = {
  description: 'Printer paper A4',
  seller_item_id: 'P-A4',
  unit: 'EA',
  currency_code: 'EUR',
  price: { type: 'amount', amount: '4.20' },
  valid_until: '2026-12-31',
};
const toner = {
  description: 'Toner black',
  seller_item_id: 'T-1',
  price: { type: 'amount', amount: '61.50' },
  valid_until: '2025-12-31',
};
const discount = {
  description: 'Volume discount',
  price: { type: 'rate', fraction: '0.05', basis: 'invoice subtotal' },
};

describe('price items', () => {
  it('are added all or nothing, with exact decimals, and make the terms usable', async () => {
    const tenant = await createTenant();
    const agreementId = await agreementOf(tenant);
    const bad = await tenant.call(`/v1/agreements/${agreementId}/price-items`, {
      method: 'POST',
      body: {
        entries: [
          paper,
          { description: 'Fee', price: { type: 'rate', fraction: '0.02' } },
          { description: 'X', price: { type: 'amount', amount: '12,50' } },
        ],
      },
    });
    expectError(bad, 400, 'validation_error');
    expect(bad.body.error.details.map((d: any) => d.field)).toEqual(
      expect.arrayContaining(['entries.1.price.basis', 'entries.2.price.amount']),
    );
    expect(await testDb().priceItem.count({ where: { agreementId } })).toBe(0);

    const created = await tenant.call(`/v1/agreements/${agreementId}/price-items`, {
      method: 'POST',
      body: { entries: [paper, toner, discount] },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.map((i: any) => i.price)).toEqual([
      { type: 'amount', amount: '4.2' },
      { type: 'amount', amount: '61.5' },
      { type: 'rate', fraction: '0.05', basis: 'invoice subtotal' },
    ]);
    const agreement = await tenant.call(`/v1/agreements/${agreementId}`);
    expect(agreement.body.readiness.missing).not.toContain('usable_terms');
  });

  it('lists with search, JSON filters that must all match, and sort', async () => {
    const tenant = await createTenant();
    const agreementId = await agreementOf(tenant);
    await tenant.call(`/v1/agreements/${agreementId}/price-items`, {
      method: 'POST',
      body: { entries: [paper, toner, discount] },
    });
    const list = async (query: string) =>
      (await tenant.call(`/v1/agreements/${agreementId}/price-items?${query}`)).body.data.map(
        (i: any) => i.description,
      );
    expect(await list('')).toEqual(['Printer paper A4', 'Toner black', 'Volume discount']);
    expect(await list('sort=description&direction=desc')).toEqual([
      'Volume discount',
      'Toner black',
      'Printer paper A4',
    ]);
    expect(await list('search=t-1')).toEqual(['Toner black']);
    const expiring = encodeURIComponent(
      JSON.stringify([{ field: 'valid_until', operator: 'less_than', value: '2026-06-01' }]),
    );
    expect(await list(`filters=${expiring}`)).toEqual(['Toner black']);
    const both = encodeURIComponent(
      JSON.stringify([
        { field: 'price.type', operator: 'equals', value: 'amount' },
        { field: 'price.amount', operator: 'greater_than', value: '10' },
      ]),
    );
    expect(await list(`filters=${both}`)).toEqual(['Toner black']);
    expect(await list('sort=valid_until')).toEqual(['Toner black', 'Printer paper A4', 'Volume discount']);
    // A field every price item has is never null (the fuzz found a 500 here, in the bulk delete too).
    const presence = (field: string, operator: string) =>
      encodeURIComponent(JSON.stringify([{ field, operator, value: null }]));
    expect(await list(`filters=${presence('description', 'is_null')}`)).toEqual([]);
    expect(await list(`filters=${presence('price.type', 'is_not_null')}`)).toHaveLength(3);
    const nothing = await tenant.call(`/v1/agreements/${agreementId}/price-items/delete`, {
      method: 'POST',
      body: { search: 'paper', filters: [{ field: 'description', operator: 'is_null', value: null }] },
    });
    expect(nothing.status).toBe(200);
    expect(await list('')).toHaveLength(3);
    expectError(
      await tenant.call(`/v1/agreements/${agreementId}/price-items?filters=not-json`),
      400,
      'validation_error',
    );
    const wrongKind = encodeURIComponent(JSON.stringify([{ field: 'description', operator: 'less_than', value: 'x' }]));
    expectError(
      await tenant.call(`/v1/agreements/${agreementId}/price-items?filters=${wrongKind}`),
      400,
      'validation_error',
    );
  });

  it('are changed by id, at most 100 at once, all or nothing', async () => {
    const tenant = await createTenant();
    const agreementId = await agreementOf(tenant);
    const created = (
      await tenant.call(`/v1/agreements/${agreementId}/price-items`, {
        method: 'POST',
        body: { entries: [paper, toner] },
      })
    ).body.data;
    const unknown = await tenant.call(`/v1/agreements/${agreementId}/price-items`, {
      method: 'PATCH',
      body: {
        entries: [
          { id: created[0].id, price: { type: 'amount', amount: '4.00' } },
          { id: crypto.randomUUID(), description: 'x' },
        ],
      },
    });
    expectError(unknown, 400, 'validation_error');
    expect((await testDb().priceItem.findUniqueOrThrow({ where: { id: created[0].id } })).amount?.toString()).toBe(
      '4.2',
    );
    const tooMany = Array.from({ length: 101 }, () => ({ id: created[0].id, description: 'x' }));
    expectError(
      await tenant.call(`/v1/agreements/${agreementId}/price-items`, { method: 'PATCH', body: { entries: tooMany } }),
      400,
      'validation_error',
    );
    const patched = await tenant.call(`/v1/agreements/${agreementId}/price-items`, {
      method: 'PATCH',
      body: { entries: [{ id: created[0].id, price: { type: 'amount', amount: '3.99' }, valid_until: null }] },
    });
    expect(patched.body.data[0]).toMatchObject({
      description: 'Printer paper A4',
      price: { type: 'amount', amount: '3.99' },
      valid_until: null,
    });
  });

  it('export as CSV with the same parameters, and are removed by filter or by ids', async () => {
    const tenant = await createTenant();
    const agreementId = await agreementOf(tenant);
    const created = (
      await tenant.call(`/v1/agreements/${agreementId}/price-items`, {
        method: 'POST',
        body: { entries: [paper, toner, discount] },
      })
    ).body.data;
    const csv = await tenant.call(`/v1/agreements/${agreementId}/price-items/export?search=paper`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(String(csv.body).trim().split('\n')).toEqual([
      'id,description,seller_item_id,unit,currency_code,price_type,amount,fraction,basis,valid_from,valid_until,unit_conversions',
      `${created[0].id},Printer paper A4,P-A4,EA,EUR,amount,4.2,,,,2026-12-31,`,
    ]);
    const byFilter = await tenant.call(`/v1/agreements/${agreementId}/price-items/delete`, {
      method: 'POST',
      body: { filters: [{ field: 'price.type', operator: 'equals', value: 'rate' }] },
    });
    expect(byFilter.body).toEqual({ deleted: 1 });
    const byIds = await tenant.call(`/v1/agreements/${agreementId}/price-items/delete`, {
      method: 'POST',
      body: { ids: [created[0].id] },
    });
    expect(byIds.body).toEqual({ deleted: 1 });
    expect(
      (await tenant.call(`/v1/agreements/${agreementId}/price-items`)).body.data.map((i: any) => i.description),
    ).toEqual(['Toner black']);
    // {} names no filter: like the list without filters, it is every item (spec: the same filter parameters).
    expect(
      (await tenant.call(`/v1/agreements/${agreementId}/price-items/delete`, { method: 'POST', body: {} })).body,
    ).toEqual({ deleted: 1 });
    expect((await tenant.call(`/v1/agreements/${agreementId}/price-items`)).body.data).toEqual([]);
  });

  it("are another organization's 404", async () => {
    const owner = await createTenant();
    const stranger = await createTenant();
    const agreementId = await agreementOf(owner);
    expectError(await stranger.call(`/v1/agreements/${agreementId}/price-items`), 404, 'not_found');
    expectError(
      await stranger.call(`/v1/agreements/${agreementId}/price-items`, { method: 'POST', body: { entries: [paper] } }),
      404,
      'not_found',
    );
  });
});
