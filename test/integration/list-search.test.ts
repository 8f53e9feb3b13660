import { describe, expect, it } from 'vitest';
import { invoiceOf } from '../support/alerts.js';
import { createTenant, type Tenant } from '../support/tenants.js';

// A list's `search` is the text the user typed, in any case: LIKE's wildcards in it (% and _)
// are plain characters, and an invoice's supplier name matches whatever its case.
const idsOf = async (tenant: Tenant, path: string) => {
  const page = await tenant.call(path);
  expect(page.status, JSON.stringify(page.body)).toBe(200);
  return (page.body.data as { id: string }[]).map((row) => row.id).sort();
};

describe('search on the invoice and agreement lists', () => {
  it('matches the invoice number and the supplier name in any case, wildcards taken literally', async () => {
    const tenant = await createTenant();
    const underscore = await invoiceOf(
      tenant,
      { name: 'Ærlig_Papir 100% AS', org_number: '912345670' },
      { number: 'LS_7' },
    );
    const letter = await invoiceOf(
      tenant,
      { name: 'Ærligx Papir 1000 AS', org_number: '912345689' },
      { number: 'LSX7' },
    );
    const search = (text: string) => idsOf(tenant, `/v1/invoices?search=${encodeURIComponent(text)}`);

    expect(await search('ls_7')).toEqual([underscore.id]);
    expect(await search('ls')).toEqual([underscore.id, letter.id].sort());
    expect(await search('ÆRLIG_PAPIR')).toEqual([underscore.id]);
    expect(await search('100%')).toEqual([underscore.id]);
    expect(await search('%')).toEqual([underscore.id]);
    expect(await search('ærlig%papir')).toEqual([]);
  });

  it('matches an agreement title in any case, wildcards taken literally', async () => {
    const tenant = await createTenant();
    const create = async (title: string) => {
      const created = await tenant.call('/v1/agreements', { method: 'POST', body: { title } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.id as string;
    };
    const half = await create('Freight 50% off');
    const heavy = await create('Freight 500 kg');
    const search = (text: string) => idsOf(tenant, `/v1/agreements?search=${encodeURIComponent(text)}`);

    expect(await search('FREIGHT')).toEqual([half, heavy].sort());
    expect(await search('50%')).toEqual([half]);
    expect(await search('freight_50')).toEqual([]);
  });
});
