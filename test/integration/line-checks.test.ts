import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { updateOrganizationSettings } from '../../src/admin/service.js';
import { expectError } from '../support/api.js';
import { settledRun } from '../support/checks.js';
import { ingestionUpload, settledIngestionInvoice } from '../support/invoices.js';
import { smallPeppolInvoice } from '../support/large-invoice.js';
import { peppolInvoiceWithLines, type XmlLine } from '../support/line-invoices.js';
import { createTenant, testDb, type Tenant } from '../support/tenants.js';

// Issue 29, the line-level rules: line allowances, units as people write them (and the price
// item's unit conversions), one-cent rounding, and a price's start (valid_from). Each test uploads
// Peppol BIS 3 invoices built here against an agreement with price items, as a user would.

const AGREEMENT = {
  title: 'Supplies 2026',
  status: 'active',
  effective_date: '2026-01-01',
  expiration_date: '2026-12-31',
};

// A tenant whose supplier exists (suppliers come from invoices), with an agreement holding `entries`.
async function supplierWithAgreement(
  entries: Record<string, unknown>[],
): Promise<{ tenant: Tenant; agreementId: string; priceItems: any[] }> {
  const tenant = await createTenant();
  const first = await upload(tenant, smallPeppolInvoice(`FIRST-${randomUUID().slice(0, 8)}`));
  const agreement = await tenant.call('/v1/agreements', {
    method: 'POST',
    body: { ...AGREEMENT, supplier_ids: [first.supplier.id] },
  });
  expect(agreement.status, JSON.stringify(agreement.body)).toBe(201);
  const items = await tenant.call(`/v1/agreements/${agreement.body.id}/price-items`, {
    method: 'POST',
    body: { entries },
  });
  expect(items.status, JSON.stringify(items.body)).toBe(201);
  return { tenant, agreementId: agreement.body.id, priceItems: items.body.data };
}

async function upload(tenant: Tenant, bytes: Buffer) {
  const uploaded = await ingestionUpload(tenant.ingestionToken, 'invoice.xml', bytes);
  expect(uploaded.status).toBe(201);
  await settledIngestionInvoice(tenant.ingestionToken, uploaded.body.invoice_id);
  return (await tenant.call(`/v1/invoices/${uploaded.body.invoice_id}`)).body;
}

// Uploads the invoice; it is checked by itself when it settles. Answers the invoice and its findings.
async function checkedInvoice(tenant: Tenant, number: string, issueDate: string, lines: XmlLine[]) {
  const invoice = await upload(tenant, peppolInvoiceWithLines(number, issueDate, lines));
  expect(invoice.workflows.alert_check.status, JSON.stringify(invoice.workflows)).toBe('completed');
  return { invoice, findings: await findingsOf(tenant, invoice.id) };
}

// The findings of the invoice's check, or of the one a given run made (a check run again keeps the earlier one).
async function findingsOf(tenant: Tenant, invoiceId: string, workflowRunId?: string): Promise<any[]> {
  const checks = (await tenant.call(`/v1/compliance-checks?invoice_ids=${invoiceId}`)).body.data.filter(
    (check: any) => !workflowRunId || check.workflow_run_id === workflowRunId,
  );
  expect(checks).toHaveLength(1);
  return (await tenant.call(`/v1/compliance-checks/${checks[0].id}/findings?limit=100`)).body.data;
}

const onLine = (findings: any[], invoice: any, index: number) =>
  findings.filter((f) => f.invoice_item_id === invoice.line_items[index].id);

describe('line allowances (issue 29, item 1)', () => {
  it('reads a line discount onto the line and checks the net price: a discount down to the agreed price is no alert', async () => {
    const { tenant } = await supplierWithAgreement([
      {
        description: 'Pork loin',
        seller_item_id: 'PORK-1',
        unit: 'kg',
        currency_code: 'EUR',
        price: { type: 'amount', amount: '3.95' },
      },
      {
        description: 'Beef mince',
        seller_item_id: 'BEEF-1',
        unit: 'kg',
        currency_code: 'EUR',
        price: { type: 'amount', amount: '3.95' },
      },
    ]);
    const { invoice, findings } = await checkedInvoice(tenant, `DISC-${randomUUID().slice(0, 8)}`, '2026-03-02', [
      // 20 kg at list 5.27, less 26.40: 79.00 = 20 x 3.95.
      {
        name: 'Pork loin',
        sellerItemId: 'PORK-1',
        quantity: '20',
        unitCode: 'KGM',
        price: '5.27',
        allowances: [{ amount: '26.40', reason: 'Customer discount' }],
      },
      // 10 kg at 5.27 less 10.00 is 42.70: 3.20 above 10 x 3.95.
      {
        name: 'Beef mince',
        sellerItemId: 'BEEF-1',
        quantity: '10',
        unitCode: 'KGM',
        price: '5.27',
        allowances: [{ amount: '10.00', reason: 'Customer discount' }],
      },
    ]);

    expect(invoice.line_items[0]).toMatchObject({
      net_amount: '79.00',
      unit_price: '5.27',
      allowance_charges: [
        { is_charge: false, amount: '26.40', base_amount: '105.40', reason: 'Customer discount', reason_code: '95' },
      ],
    });
    expect(onLine(findings, invoice, 0)).toEqual([]);
    const [overcharge, ...others] = onLine(findings, invoice, 1);
    expect(others).toEqual([]);
    expect(overcharge).toMatchObject({
      checker: 'unit_price_above_agreed',
      impact_amount: '3.20',
      confidence: { level: 'certain' },
    });
    expect(overcharge.explanation).toContain('4.27 EUR per kg after its line allowances');
  });

  it('takes line allowances in an invoice sent as data and sends them back as read', async () => {
    const tenant = await createTenant();
    const line = {
      description: 'Pork loin',
      quantity: '20',
      unit_code: 'KGM',
      unit_price: '5.27',
      net_amount: '79.00',
      allowance_charges: [{ is_charge: false, amount: '26.40', reason: 'Discount' }],
    };
    const created = await tenant.call('/v1/invoices', {
      method: 'POST',
      body: {
        invoice_number: `DATA-${randomUUID().slice(0, 8)}`,
        issue_date: '2026-03-02',
        currency_code: 'EUR',
        supplier: { name: 'Meat AS' },
        line_items: [line],
        amounts: { including_vat: '98.75', vat: '19.75', excluding_vat: '79.00' },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.line_items[0].allowance_charges).toEqual([
      { is_charge: false, amount: '26.40', base_amount: null, reason: 'Discount', reason_code: null },
    ]);
    const patched = await tenant.call(`/v1/invoices/${created.body.id}`, {
      method: 'PATCH',
      body: { line_items: created.body.line_items },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.line_items[0].allowance_charges).toEqual(created.body.line_items[0].allowance_charges);
    const negative = await tenant.call(`/v1/invoices/${created.body.id}`, {
      method: 'PATCH',
      body: { line_items: [{ ...line, allowance_charges: [{ is_charge: false, amount: '-1' }] }] },
    });
    expectError(negative, 400, 'validation_error');
  });
});

describe('units as people write them (issue 29, item 2)', () => {
  it('reads förp, Paar, Rolle and stk as the codes invoices send, prices through a pack size, and finds what hides behind a unit', async () => {
    const { tenant } = await supplierWithAgreement([
      {
        description: 'Gloves',
        seller_item_id: 'GLV',
        unit: 'Paar',
        currency_code: 'EUR',
        price: { type: 'amount', amount: '4.00' },
      },
      {
        description: 'Tape',
        seller_item_id: 'TAPE',
        unit: 'Rolle',
        currency_code: 'EUR',
        price: { type: 'amount', amount: '2.50' },
      },
      {
        description: 'Screws',
        seller_item_id: 'SCR',
        unit: 'stk',
        currency_code: 'EUR',
        price: { type: 'amount', amount: '0.20' },
      },
      {
        description: 'Wipes',
        seller_item_id: 'WIPE',
        unit: 'förp',
        currency_code: 'EUR',
        price: { type: 'amount', amount: '50.00' },
        unit_conversions: [{ from_unit: 'förp', quantity: '10', to_unit: 'EA' }],
      },
    ]);
    const { invoice, findings } = await checkedInvoice(tenant, `UNIT-${randomUUID().slice(0, 8)}`, '2026-03-02', [
      { name: 'Gloves', sellerItemId: 'GLV', quantity: '10', unitCode: 'PR', price: '4.50' },
      { name: 'Tape', sellerItemId: 'TAPE', quantity: '4', unitCode: 'RO', price: '2.50' },
      { name: 'Screws', sellerItemId: 'SCR', quantity: '100', unitCode: 'H87', price: '0.20' },
      { name: 'Wipes', sellerItemId: 'WIPE', quantity: '20', unitCode: 'EA', price: '5.50' },
      { name: 'Wipes', sellerItemId: 'WIPE', quantity: '3', unitCode: 'PK', price: '50.00' },
    ]);

    // Nothing is "billed in a unit the agreement does not price".
    expect(findings.filter((f) => f.checker === 'item_not_in_agreement')).toEqual([]);
    const [gloves] = onLine(findings, invoice, 0);
    expect(gloves).toMatchObject({
      checker: 'unit_price_above_agreed',
      impact_amount: '5.00',
      confidence: { level: 'high' },
    });
    expect(gloves.explanation).toContain('"Paar" read as PR (pair)');
    expect(onLine(findings, invoice, 1)).toEqual([]);
    expect(onLine(findings, invoice, 2)).toEqual([]);
    // 50.00 per förp is 5.00 per EA at 1 förp = 10 EA: 0.50 too much on 20 EA. The agreement
    // states the conversion in the units the invoice uses: nothing is guessed.
    const [wipes] = onLine(findings, invoice, 3);
    expect(wipes).toMatchObject({
      checker: 'unit_price_above_agreed',
      impact_amount: '10.00',
      confidence: { level: 'certain' },
    });
    expect(wipes.explanation).toContain('1 förp = 10 EA');
    // 3 PK at 50.00: "förp" is read as PK, at the agreed price.
    expect(onLine(findings, invoice, 4)).toEqual([]);
  });

  it("keeps, shows and validates a price item's unit conversions", async () => {
    const { tenant, agreementId, priceItems } = await supplierWithAgreement([
      {
        description: 'Wipes',
        unit: 'förp',
        currency_code: 'EUR',
        price: { type: 'amount', amount: '50.00' },
        unit_conversions: [{ from_unit: 'förp', quantity: '10', to_unit: 'EA' }],
      },
    ]);
    expect(priceItems[0].unit_conversions).toEqual([{ from_unit: 'förp', quantity: '10', to_unit: 'EA' }]);
    const zero = await tenant.call(`/v1/agreements/${agreementId}/price-items`, {
      method: 'POST',
      body: {
        entries: [
          {
            description: 'X',
            price: { type: 'amount', amount: '1' },
            unit_conversions: [{ from_unit: 'box', quantity: '0', to_unit: 'EA' }],
          },
        ],
      },
    });
    expectError(zero, 400, 'validation_error');
    // A conversion that does not involve the item's own unit could never be used.
    const unrelated = await tenant.call(`/v1/agreements/${agreementId}/price-items`, {
      method: 'PATCH',
      body: {
        entries: [{ id: priceItems[0].id, unit_conversions: [{ from_unit: 'box', quantity: '12', to_unit: 'EA' }] }],
      },
    });
    expectError(unrelated, 400, 'validation_error');
    expect(unrelated.body.error.details).toEqual([expect.objectContaining({ field: 'entries.0.unit_conversions.0' })]);
    const patched = await tenant.call(`/v1/agreements/${agreementId}/price-items`, {
      method: 'PATCH',
      body: { entries: [{ id: priceItems[0].id, unit_conversions: null }] },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data[0].unit_conversions).toEqual([]);
  });
});

describe('one-cent rounding (issue 29, item 3)', () => {
  it("takes a line one cent off as rounding, by the organization's setting, and reports more than that", async () => {
    const { tenant } = await supplierWithAgreement([
      {
        description: 'Consulting',
        seller_item_id: 'CONS',
        unit: 'HUR',
        currency_code: 'EUR',
        price: { type: 'amount', amount: '145.00' },
      },
    ]);
    const lines: XmlLine[] = [
      { name: 'Consulting', sellerItemId: 'CONS', quantity: '7', unitCode: 'HUR', price: '145.00', net: '1015.01' },
      { name: 'Consulting', sellerItemId: 'CONS', quantity: '2', unitCode: 'HUR', price: '145.00', net: '290.05' },
    ];
    const { invoice, findings } = await checkedInvoice(
      tenant,
      `ROUND-${randomUUID().slice(0, 8)}`,
      '2026-03-02',
      lines,
    );
    expect(onLine(findings, invoice, 0)).toEqual([]);
    const [wrong] = onLine(findings, invoice, 1);
    expect(wrong).toMatchObject({ checker: 'line_arithmetic', impact_amount: '0.05' });
    expect(wrong.explanation).toContain('up to 0.01 a line is taken as rounding');

    const organization = await tenant.call('/v1/organization');
    expect(organization.body.settings).toEqual({ line_rounding_minor_units: 1 });

    // Without tolerance the cent is an arithmetic error again.
    await updateOrganizationSettings(testDb(), tenant.organizationId, { lineRoundingMinorUnits: 0 });
    const started = await tenant.call(`/v1/invoices/${invoice.id}/check`, { method: 'POST' });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect((await settledRun(tenant, started.body.workflow_run_id)).status).toBe('completed');
    const strict = await findingsOf(tenant, invoice.id, started.body.workflow_run_id);
    expect(onLine(strict, invoice, 0)).toEqual([
      expect.objectContaining({ checker: 'line_arithmetic', impact_amount: '0.01' }),
    ]);
  });
});

describe('price validity start (issue 29, item 8)', () => {
  it('stores, filters, sorts and exports valid_from, and checks the price valid on the invoice date', async () => {
    const { tenant, agreementId, priceItems } = await supplierWithAgreement([
      {
        description: 'Coffee',
        seller_item_id: 'COF',
        unit: 'KGM',
        currency_code: 'EUR',
        price: { type: 'amount', amount: '10.00' },
        valid_until: '2026-02-28',
      },
      {
        description: 'Coffee',
        seller_item_id: 'COF',
        unit: 'KGM',
        currency_code: 'EUR',
        price: { type: 'amount', amount: '12.00' },
        valid_from: '2026-03-01',
      },
    ]);
    expect(priceItems.map((item) => [item.valid_from, item.valid_until])).toEqual([
      [null, '2026-02-28'],
      ['2026-03-01', null],
    ]);
    const filters = encodeURIComponent(
      JSON.stringify([{ field: 'valid_from', operator: 'greater_than_or_equal', value: '2026-03-01' }]),
    );
    const filtered = await tenant.call(`/v1/agreements/${agreementId}/price-items?filters=${filters}`);
    expect(filtered.body.data.map((item: any) => item.id)).toEqual([priceItems[1].id]);
    const sorted = await tenant.call(`/v1/agreements/${agreementId}/price-items?sort=valid_from&direction=desc`);
    expect(sorted.status).toBe(200);
    const exported = await tenant.call(`/v1/agreements/${agreementId}/price-items/export`);
    expect(exported.status).toBe(200);
    const text = typeof exported.body === 'string' ? exported.body : String(exported.body);
    expect(text.split('\n')[0]).toContain('valid_from');
    expect(text).toContain('2026-03-01');
    const backwards = await tenant.call(`/v1/agreements/${agreementId}/price-items`, {
      method: 'POST',
      body: {
        entries: [
          {
            description: 'X',
            price: { type: 'amount', amount: '1' },
            valid_from: '2026-05-01',
            valid_until: '2026-04-01',
          },
        ],
      },
    });
    expectError(backwards, 400, 'validation_error');
    // The same through a PATCH of the start alone: the item as it would be is checked.
    const laterStart = await tenant.call(`/v1/agreements/${agreementId}/price-items`, {
      method: 'PATCH',
      body: { entries: [{ id: priceItems[0].id, valid_from: '2026-03-15' }] },
    });
    expectError(laterStart, 400, 'validation_error');

    // March: the new price applies, 12.00 is agreed. February: the old one, 12.00 is 2.00 too much.
    const line: XmlLine = { name: 'Coffee', sellerItemId: 'COF', quantity: '5', unitCode: 'KGM', price: '12.00' };
    const march = await checkedInvoice(tenant, `MAR-${randomUUID().slice(0, 8)}`, '2026-03-10', [line]);
    expect(onLine(march.findings, march.invoice, 0)).toEqual([]);
    const february = await checkedInvoice(tenant, `FEB-${randomUUID().slice(0, 8)}`, '2026-02-10', [line]);
    expect(onLine(february.findings, february.invoice, 0)).toEqual([
      expect.objectContaining({ checker: 'unit_price_above_agreed', impact_amount: '10.00' }),
    ]);
  });
});
