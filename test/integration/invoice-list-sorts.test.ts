import { describe, expect, it } from 'vitest';
import { call, expectError } from '../support/api.js';
import { createTenant, type Tenant } from '../support/tenants.js';

// The Organization invoice list sorts by created_at, issue_date, due_date, amounts.including_vat
// and invoice_number; keyset paging must show every invoice exactly once, in order, with ties
// (broken by id) and unknown values (null, last in either direction).

interface Spec {
  number: string;
  issue: string;
  due: string | null;
  total: string;
}

// Ties on every column and nulls among the due dates.
const SPECS: Spec[] = [
  { number: 'A300', issue: '2026-03-01', due: '2026-04-01', total: '100.00' },
  { number: 'A100', issue: '2026-03-01', due: null, total: '55.00' },
  { number: 'A200', issue: '2026-02-01', due: '2026-04-01', total: '100.00' },
  { number: 'A300', issue: '2026-01-15', due: null, total: '7.50' },
  { number: 'A050', issue: '2026-03-01', due: '2026-03-15', total: '1000.00' },
  { number: 'A400', issue: '2026-02-01', due: null, total: '55.00' },
  { number: 'A150', issue: '2026-01-15', due: '2026-05-01', total: '100.00' },
];

async function createInvoices(tenant: Tenant) {
  const created = [];
  for (const [index, spec] of SPECS.entries()) {
    const response = await tenant.call('/v1/invoices', {
      method: 'POST',
      body: {
        invoice_number: spec.number,
        issue_date: spec.issue,
        ...(spec.due ? { due_date: spec.due } : {}),
        currency_code: 'EUR',
        // Two suppliers, so that an invoice number can repeat.
        supplier: { name: `Supplier ${index % 2}`, org_number: `99900000${index % 2}` },
        line_items: [{ description: 'Service', quantity: '1', unit_price: spec.total, net_amount: spec.total }],
        amounts: { excluding_vat: spec.total, vat: '0', including_vat: spec.total },
      },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    created.push(response.body);
  }
  return created;
}

const valueOf: Record<string, (invoice: any) => string | number | null> = {
  created_at: (i) => i.created_at,
  issue_date: (i) => i.issue_date,
  due_date: (i) => i.due_date,
  'amounts.including_vat': (i) => (i.amounts.including_vat === null ? null : Number(i.amounts.including_vat)),
  invoice_number: (i) => i.invoice_number,
};

// The order the API promises: by the value in the direction asked, then by id the same way;
// nulls last either way.
function expectedOrder(invoices: any[], sort: string, direction: 'asc' | 'desc'): string[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...invoices]
    .sort((a, b) => {
      const x = valueOf[sort]!(a);
      const y = valueOf[sort]!(b);
      if (x === null && y !== null) return 1;
      if (y === null && x !== null) return -1;
      if (x !== null && y !== null && x !== y) return (x < y ? -1 : 1) * sign;
      return (a.id < b.id ? -1 : 1) * sign;
    })
    .map((i) => i.id);
}

async function pageThrough(tenant: Tenant, sort: string, direction: 'asc' | 'desc'): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor
      ? `limit=2&cursor=${encodeURIComponent(cursor)}`
      : `limit=2&sort=${sort}&direction=${direction}`;
    const response: { status: number; body: any } = await tenant.call(`/v1/invoices?${query}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    ids.push(...response.body.data.map((i: { id: string }) => i.id));
    cursor = response.body.next_cursor;
  } while (cursor);
  return ids;
}

describe('invoice list sorts', () => {
  it('pages through every sort and direction with ties and nulls, each invoice once and in order', async () => {
    const tenant = await createTenant();
    const invoices = await createInvoices(tenant);
    for (const sort of Object.keys(valueOf)) {
      for (const direction of ['asc', 'desc'] as const) {
        expect(await pageThrough(tenant, sort, direction), `${sort} ${direction}`).toEqual(
          expectedOrder(invoices, sort, direction),
        );
      }
    }
    // Without a direction the other sorts ascend; created_at stays newest first.
    const byNumber = await tenant.call('/v1/invoices?sort=invoice_number&limit=100');
    expect(byNumber.body.data.map((i: any) => i.id)).toEqual(expectedOrder(invoices, 'invoice_number', 'asc'));
    const cursor = (await tenant.call('/v1/invoices?sort=due_date&limit=2')).body.next_cursor;
    expectError(
      await tenant.call(`/v1/invoices?sort=issue_date&cursor=${encodeURIComponent(cursor)}`),
      400,
      'validation_error',
    );
  });

  it('keeps the Ingestion list to created_at', async () => {
    const tenant = await createTenant();
    expectError(await call('/v1/invoices?sort=issue_date', { token: tenant.ingestionToken }), 400, 'validation_error');
    expect((await call('/v1/invoices?sort=created_at', { token: tenant.ingestionToken })).status).toBe(200);
  });
});
