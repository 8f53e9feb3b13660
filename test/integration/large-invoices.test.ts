import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, eventually } from '../support/api.js';
import { ingestionUpload, settledIngestionInvoice } from '../support/invoices.js';
import { largePeppolInvoice, priceItemEntries, smallPeppolInvoice } from '../support/large-invoice.js';
import { createTenant, type Tenant } from '../support/tenants.js';

// An invoice of tens of thousands of lines goes the whole way: parsed, stored, matched, checked
// with its alerts, read, and removed. Every statement along the way must work at any line count
// (PostgreSQL allows 65,535 bind parameters per statement).

const LINES = 70_000;
const ITEMS = 1_000;
const OVERCHARGE_EVERY = 1_000;

async function agreementOfTheSupplier(tenant: Tenant): Promise<string> {
  const first = await ingestionUpload(
    tenant.ingestionToken,
    'first.xml',
    smallPeppolInvoice(`FIRST-${randomUUID().slice(0, 8)}`),
  );
  expect(first.status).toBe(201);
  await settledIngestionInvoice(tenant.ingestionToken, first.body.invoice_id);
  const supplierId = (await tenant.call(`/v1/invoices/${first.body.invoice_id}`)).body.supplier?.id;
  expect(supplierId).toEqual(expect.any(String));
  const agreement = await tenant.call('/v1/agreements', {
    method: 'POST',
    body: {
      title: 'Supplies 2026',
      status: 'active',
      supplier_ids: [supplierId],
      effective_date: '2026-01-01',
      expiration_date: '2026-12-31',
    },
  });
  expect(agreement.status, JSON.stringify(agreement.body)).toBe(201);
  const items = await tenant.call(`/v1/agreements/${agreement.body.id}/price-items`, {
    method: 'POST',
    body: { entries: priceItemEntries(0, ITEMS) },
  });
  expect(items.status, JSON.stringify(items.body).slice(0, 500)).toBe(201);
  return agreement.body.id;
}

describe('large invoices', () => {
  it(`imports, matches and checks an invoice of ${LINES} lines to settled, reads it and deletes it`, async () => {
    const tenant = await createTenant();
    const agreementId = await agreementOfTheSupplier(tenant);
    const { bytes, overcharged } = largePeppolInvoice({
      number: `LARGE-${randomUUID().slice(0, 8)}`,
      lines: LINES,
      items: ITEMS,
      overchargeEvery: OVERCHARGE_EVERY,
    });

    const upload = await ingestionUpload(tenant.ingestionToken, 'large.xml', bytes);
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    const invoiceId = upload.body.invoice_id;
    const settled = await eventually(
      () => call(`/v1/invoices/${invoiceId}`, { token: tenant.ingestionToken }),
      (r) =>
        ![r.body?.processing?.status, r.body?.alerts?.processing?.status].some((status) =>
          ['pending', 'processing'].includes(status),
        ),
      240_000,
    );
    expect(settled.body.processing).toMatchObject({ status: 'completed', failure: null });
    expect(settled.body.alerts.processing).toMatchObject({ status: 'completed', failure: null });
    expect(settled.body.alerts.count).toBe(overcharged);

    const invoice = (await tenant.call(`/v1/invoices/${invoiceId}`)).body;
    expect(invoice.line_items).toHaveLength(LINES);
    expect(invoice.workflows).toMatchObject({ settled: true, alert_check: { status: 'completed' } });
    expect(invoice.alerts).toMatchObject({ status: 'checked', agreements: { checked: 1, total: 1 } });

    const alerts = await tenant.call(`/v1/alerts?invoice_ids=${invoiceId}&limit=1000`);
    expect(alerts.status).toBe(200);
    expect(alerts.body.data).toHaveLength(overcharged);
    expect(
      alerts.body.data.every((alert: any) => alert.agreement_id === agreementId && alert.impact_amount !== '0'),
    ).toBe(true);

    // Checking it again replaces the alerts in place (same fingerprints: same ids).
    const again = await tenant.call(`/v1/invoices/${invoiceId}/check`, { method: 'POST', body: {} });
    expect(again.status, JSON.stringify(again.body)).toBe(202);
    const run = await eventually(
      () => tenant.call(`/v1/workflow-runs/${again.body.workflow_run_id}`),
      (r) => !['queued', 'running'].includes(r.body.status),
      240_000,
    );
    expect(run.body.status).toBe('completed');
    const after = await tenant.call(`/v1/alerts?invoice_ids=${invoiceId}&limit=1000`);
    expect(after.body.data.map((alert: any) => alert.id).sort()).toEqual(
      alerts.body.data.map((alert: any) => alert.id).sort(),
    );

    const removed = await tenant.call(`/v1/invoices/${invoiceId}?permanent=true`, { method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect((await tenant.call(`/v1/invoices/${invoiceId}`)).status).toBe(404);
  }, 600_000);
});
