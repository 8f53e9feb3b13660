import { describe, expect, it } from 'vitest';
import { expectError } from '../support/api.js';
import { createTenant, testDb, type Tenant } from '../support/tenants.js';

function invoiceBody(overrides: Record<string, unknown> = {}) {
  return {
    invoice_number: 'INV-1001',
    issue_date: '2026-03-15',
    currency_code: 'EUR',
    supplier: { name: 'Acme Office Supplies', org_number: '987654321', country_code: 'NO' },
    line_items: [
      {
        description: 'Printer paper A4',
        seller_item_id: 'P-A4',
        quantity: '10',
        unit_code: 'EA',
        unit_price: '4.50',
        net_amount: '45.00',
        vat_rate: '0.25',
      },
      {
        description: 'Toner',
        seller_item_id: 'T-1',
        quantity: '2',
        unit_price: '62.25',
        net_amount: '124.50',
        vat_rate: '0.25',
      },
    ],
    amounts: { excluding_vat: '169.50', vat: '42.38', including_vat: '211.88', payable: '211.88' },
    ...overrides,
  };
}

async function create(tenant: Tenant, overrides: Record<string, unknown> = {}) {
  return tenant.call('/v1/invoices', { method: 'POST', body: invoiceBody(overrides) });
}

describe('invoices sent as data', () => {
  it('creates an invoice whose lines add up, with exact decimals', async () => {
    const tenant = await createTenant();
    const response = await create(tenant);
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe(`/v1/invoices/${response.body.id}`);
    expect(response.body).toMatchObject({
      invoice_number: 'INV-1001',
      document_type: 'invoice',
      issue_date: '2026-03-15',
      amounts: {
        currency_code: 'EUR',
        line_total: '169.50',
        excluding_vat: '169.50',
        vat: '42.38',
        including_vat: '211.88',
        valid: true,
      },
      supplier: {
        name: 'Acme Office Supplies',
        invoiced_as: { name: 'Acme Office Supplies', org_number: '987654321' },
      },
      processing: { status: 'completed' },
    });
    expect(response.body.line_items[0]).toMatchObject({
      quantity: '10',
      unit_price: '4.5',
      net_amount: '45.00',
      vat_rate: '0.25',
      seller_item_id: 'P-A4',
    });
  });

  it('creates nothing when the lines do not add up, and says which', async () => {
    const tenant = await createTenant();
    const wrongLine = await create(tenant, {
      line_items: [{ description: 'Paper', quantity: '10', unit_price: '4.50', net_amount: '46.00' }],
      amounts: { excluding_vat: '46.00', vat: '11.50', including_vat: '57.50' },
    });
    expectError(wrongLine, 400, 'validation_error');
    expect(wrongLine.body.error.details[0].field).toBe('line_items.0.net_amount');
    const wrongTotal = await create(tenant, {
      amounts: { excluding_vat: '169.50', vat: '42.38', including_vat: '300.00' },
    });
    expectError(wrongTotal, 400, 'validation_error');
    expectError(await create(tenant, { amounts: { including_vat: 'twelve' } }), 400, 'validation_error');
    expectError(await create(tenant, { unknown_field: true }), 400, 'validation_error');
    expect(await testDb().invoice.count({ where: { organizationId: tenant.organizationId } })).toBe(0);
    expect(await testDb().supplier.count({ where: { organizationId: tenant.organizationId } })).toBe(0);
  });

  it('answers a repeated invoice with 409 conflict and the existing invoice', async () => {
    const tenant = await createTenant();
    const first = await create(tenant);
    const repeat = await create(tenant);
    expectError(repeat, 409, 'conflict');
    expect(repeat.body.existing_invoice_id).toBe(first.body.id);
  });

  it('links a credit note to the invoice it credits', async () => {
    const tenant = await createTenant();
    const invoice = await create(tenant);
    const creditNote = await create(tenant, {
      document_type: 'credit_note',
      invoice_number: 'CN-1',
      credited_invoice_number: 'INV-1001',
      line_items: [
        { description: 'Toner returned', quantity: '1', unit_price: '62.25', net_amount: '62.25', vat_rate: '0.25' },
      ],
      amounts: { excluding_vat: '62.25', vat: '15.56', including_vat: '77.81' },
    });
    expect(creditNote.status).toBe(201);
    expect(creditNote.body.credited_invoice_id).toBe(invoice.body.id);
    const metrics = await tenant.call('/v1/invoices/metrics');
    expect(metrics.body.spend).toEqual([
      {
        currency_code: 'EUR',
        invoiced: '211.88',
        credited: '77.81',
        net: '134.07',
        invoice_count: 1,
        credit_note_count: 1,
      },
    ]);
  });

  it('patches only sent fields, replaces line items, recomputes validity, and honours If-Match', async () => {
    const tenant = await createTenant();
    const created = await create(tenant);
    const read = await tenant.call(`/v1/invoices/${created.body.id}`);
    const etag = read.headers.get('etag')!;
    expectError(
      await tenant.call(`/v1/invoices/${created.body.id}`, {
        method: 'PATCH',
        body: { buyer_reference: 'X' },
        headers: { 'If-Match': '"old"' },
      }),
      412,
      'precondition_failed',
    );
    const patched = await tenant.call(`/v1/invoices/${created.body.id}`, {
      method: 'PATCH',
      headers: { 'If-Match': etag },
      body: {
        buyer_reference: 'PO-77',
        line_items: [
          {
            description: 'Printer paper A4',
            quantity: '10',
            unit_price: '4.50',
            net_amount: '45.00',
            vat_rate: '0.25',
          },
        ],
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      buyer_reference: 'PO-77',
      invoice_number: 'INV-1001',
      amounts: { line_total: '45.00', excluding_vat: '169.50', valid: false },
    });
    expect(patched.body.line_items).toHaveLength(1);
    expect(patched.headers.get('etag')).toBeNull();
    expect((await tenant.call(`/v1/invoices/${created.body.id}`)).headers.get('etag')).not.toBe(etag);
  });

  it('lists with date, supplier and search filters, and field selection', async () => {
    const tenant = await createTenant();
    const march = await create(tenant);
    const april = await create(tenant, {
      invoice_number: 'INV-2002',
      issue_date: '2026-04-02',
      supplier: { name: 'Other Supplier AS', org_number: '111222333' },
    });
    const ids = async (query: string) => (await tenant.call(`/v1/invoices?${query}`)).body.data.map((i: any) => i.id);
    expect(await ids('issued_from=2026-04-01')).toEqual([april.body.id]);
    expect(await ids('issued_through=2026-03-31')).toEqual([march.body.id]);
    // A range narrows the newest-first walk by its invoices' creation times: same rows, any order.
    const third = await create(tenant, { invoice_number: 'INV-3003', issue_date: '2026-04-20' });
    expect(await ids('issued_from=2026-04-01&issued_through=2026-04-30')).toEqual([third.body.id, april.body.id]);
    expect(await ids('issued_from=2026-04-01&issued_through=2026-04-30&direction=asc')).toEqual([
      april.body.id,
      third.body.id,
    ]);
    expect(await ids('issued_from=2030-01-01')).toEqual([]);
    await tenant.call(`/v1/invoices/${third.body.id}`, { method: 'DELETE' });
    expect(await ids(`supplier_ids=${march.body.supplier.id}`)).toEqual([march.body.id]);
    expect(await ids(`supplier_ids=${march.body.supplier.id}&supplier_operator=is_not`)).toEqual([april.body.id]);
    expect(await ids('search=2002')).toEqual([april.body.id]);
    // The metrics count what the list's filters keep, so a list can say how many rows match.
    const count = async (query: string) => (await tenant.call(`/v1/invoices/metrics?${query}`)).body.counts.total;
    expect(await count('search=2002')).toBe(1);
    expect(await count('search=other%20supplier')).toBe(1);
    expect(await count(`supplier_ids=${march.body.supplier.id}&supplier_operator=is_not`)).toBe(1);
    expect(await count('processing_statuses=completed&document_types=invoice')).toBe(2);
    expect(await count('processing_statuses=failed')).toBe(0);
    expect(await count('check_statuses=not_checked,checked,incomplete,outdated')).toBe(2);
    const selected = await tenant.call('/v1/invoices?fields=invoice_number,amounts.including_vat&limit=1');
    expect(selected.body.data[0]).toEqual({
      id: april.body.id,
      invoice_number: 'INV-2002',
      amounts: { including_vat: '211.88' },
    });
    expectError(await tenant.call('/v1/invoices?issued_from=2026-13-45'), 400, 'validation_error');
  });

  it('soft-deletes, and removes for good only at the admin level', async () => {
    const tenant = await createTenant({ role: 'write' });
    const created = await create(tenant);
    expectError(
      await tenant.call(`/v1/invoices/${created.body.id}?permanent=true`, { method: 'DELETE' }),
      403,
      'insufficient_level',
    );
    expect((await tenant.call(`/v1/invoices/${created.body.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await tenant.call(`/v1/invoices/${created.body.id}`, { method: 'DELETE' })).status).toBe(204);
    expectError(await tenant.call(`/v1/invoices/${created.body.id}`), 404, 'not_found');
    expect((await tenant.call('/v1/invoices')).body.data).toEqual([]);
  });
});
