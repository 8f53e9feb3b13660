import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { uploadedInvoice } from '../support/checks.js';
import { peppolDocument, pricedLine, type PeppolDocument, type PeppolSupplier } from '../support/peppol.js';
import { createTenant, type Tenant } from '../support/tenants.js';

// Issue 29, items 4-7, over HTTP: repeat orders are not duplicates, fees and document charges the
// agreement does not allow are claimed in full, and rate terms are read in the supplier's language.

function supplier(): PeppolSupplier {
  const digits = String(Math.floor(Math.random() * 1e9)).padStart(9, '1');
  return { name: `Kontorleverandøren ${digits} AS`, vat: `NO${digits}MVA`, country: 'NO', city: 'Oslo' };
}

const PAPER = () => pricedLine('Kopipapir A4 80g', 'KP-100', '20', 'PK', '45.00');
const TONER = () => pricedLine('Toner sort', 'TN-200', '2', 'EA', '500.00');

function invoice(from: PeppolSupplier, overrides: Partial<PeppolDocument>): Buffer {
  return peppolDocument({
    number: `F-${randomUUID().slice(0, 6)}`,
    issueDate: '2026-03-02',
    currency: 'NOK',
    supplier: from,
    lines: [PAPER(), TONER()],
    ...overrides,
  });
}

// The supplier comes from its first invoice; then an active agreement with its prices.
async function agreementFor(tenant: Tenant, from: PeppolSupplier, entries: object[]) {
  const first = await uploadedInvoice(
    tenant,
    invoice(from, {
      number: 'FIRST-1',
      issueDate: '2026-01-05',
      lines: [pricedLine('Kaffe', 'KF-1', '1', 'EA', '99.00')],
    }),
  );
  const created = await tenant.call('/v1/agreements', {
    method: 'POST',
    body: {
      title: 'Kontorrekvisita 2026',
      status: 'active',
      supplier_ids: [first.supplier.id],
      effective_date: '2026-01-01',
      expiration_date: '2026-12-31',
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const items = await tenant.call(`/v1/agreements/${created.body.id}/price-items`, {
    method: 'POST',
    body: {
      entries: [
        {
          description: 'Kopipapir A4 80g',
          seller_item_id: 'KP-100',
          unit: 'PK',
          currency_code: 'NOK',
          price: { type: 'amount', amount: '45.00' },
        },
        {
          description: 'Toner sort',
          seller_item_id: 'TN-200',
          unit: 'stk',
          currency_code: 'NOK',
          price: { type: 'amount', amount: '500.00' },
        },
        ...entries,
      ],
    },
  });
  expect(items.status, JSON.stringify(items.body)).toBe(201);
  return created.body.id as string;
}

async function alertsOf(tenant: Tenant, bytes: Buffer) {
  const checked = await uploadedInvoice(tenant, bytes);
  expect(checked.workflows.alert_check.status).toBe('completed');
  return (await tenant.call(`/v1/alerts?invoice_ids=${checked.id}`)).body.data as any[];
}

const byChecker = (alerts: any[], checker: string) => alerts.filter((alert) => alert.provenance.checker === checker);

describe('alert rules of issue 29', () => {
  it('leaves repeat orders 7 and 14 days apart alone, and finds a re-sent order as a duplicate, naming the evidence', async () => {
    const tenant = await createTenant();
    const from = supplier();
    await agreementFor(tenant, from, []);
    await alertsOf(
      tenant,
      invoice(from, { number: '10001', issueDate: '2026-03-02', orderReference: 'PO-501', deliveryDate: '2026-03-01' }),
    );
    const weekLater = await alertsOf(
      tenant,
      invoice(from, { number: '10002', issueDate: '2026-03-09', orderReference: 'PO-502', deliveryDate: '2026-03-08' }),
    );
    const fortnight = await alertsOf(
      tenant,
      invoice(from, { number: '10003', issueDate: '2026-03-16', orderReference: 'PO-503', deliveryDate: '2026-03-15' }),
    );
    expect(weekLater).toEqual([]);
    expect(fortnight).toEqual([]);

    // The same order billed again under a new invoice number.
    const resent = await alertsOf(
      tenant,
      invoice(from, { number: '10004', issueDate: '2026-03-18', orderReference: 'PO-503', deliveryDate: '2026-03-15' }),
    );
    const duplicates = byChecker(resent, 'duplicate_charge');
    expect(duplicates.map((alert) => alert.impact_amount).sort()).toEqual(['1000.00', '900.00']);
    expect(duplicates[0].confidence.level).toBe('high');
    expect(duplicates[0].explanation).toContain('for the same order reference PO-503');
  });

  it('claims a fee line and a document charge the agreement does not allow in full', async () => {
    const tenant = await createTenant();
    const from = supplier();
    await agreementFor(tenant, from, []);
    const alerts = await alertsOf(
      tenant,
      invoice(from, {
        lines: [PAPER(), TONER(), pricedLine('Fakturagebyr', null, '1', 'EA', '49.00')],
        charges: [{ isCharge: true, amount: '149.00', reason: 'Frakt' }],
      }),
    );
    const fees = byChecker(alerts, 'fee_not_agreed');
    expect(fees.map((alert) => [alert.title, alert.impact_amount]).sort()).toEqual([
      ['Charge not in the agreement: Fakturagebyr', '49.00'],
      ['Charge not in the agreement: Frakt', '149.00'],
    ]);
    expect(fees.every((alert) => alert.confidence.level !== 'certain')).toBe(true);
    expect(byChecker(alerts, 'item_not_in_agreement')).toEqual([]);
    expect(alerts).toHaveLength(2);
  });

  it('reads a Danish freight rate and checks freight charged as a document charge or a line against it', async () => {
    const tenant = await createTenant();
    const from = supplier();
    await agreementFor(tenant, from, [
      { description: 'Fragttillæg', price: { type: 'rate', fraction: '0.02', basis: 'af fakturabeløb' } },
    ]);
    // Goods 1900.00: 2 % is 38.00.
    const above = await alertsOf(
      tenant,
      invoice(from, { charges: [{ isCharge: true, amount: '66.50', reason: 'Frakt' }] }),
    );
    expect(above).toHaveLength(1);
    expect(above[0]).toMatchObject({
      impact_amount: '28.50',
      provenance: expect.objectContaining({ checker: 'fee_above_agreed' }),
    });
    expect(above[0].explanation).toContain('"Frakt" is read as freight, like the agreed "Fragttillæg"');
    expect(above[0].confidence.level).not.toBe('certain');

    const asLine = await alertsOf(
      tenant,
      invoice(from, { number: 'L-2', lines: [PAPER(), TONER(), pricedLine('Freight', null, '1', 'EA', '66.50')] }),
    );
    expect(asLine.map((alert) => [alert.provenance.checker, alert.impact_amount])).toEqual([
      ['fee_above_agreed', '28.50'],
    ]);

    const within = await alertsOf(
      tenant,
      invoice(from, { number: 'W-3', charges: [{ isCharge: true, amount: '38.00', reasonCode: 'FC' }] }),
    );
    expect(within).toEqual([]);
  });
});
