import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../src/infra/defaults.js';
import { call, eventually, expectError } from '../support/api.js';
import { agreementWithPrice, peppolInvoice, rematch, settledRun, uploadedInvoice } from '../support/checks.js';
import { ingestionUpload, settledIngestionInvoice } from '../support/invoices.js';
import { createTenant, testDb, type Tenant } from '../support/tenants.js';

const CONSULTING_2017 = {
  title: 'Consulting 2017',
  status: 'active',
  effective_date: '2017-01-01',
  expiration_date: '2017-12-31',
};

async function agreementWithPrices(tenant: Tenant, supplierId: string, price = '350.00') {
  const { id, priceItemId } = await agreementWithPrice(
    tenant,
    { ...CONSULTING_2017, supplier_ids: [supplierId] },
    price,
  );
  return { agreement: { id }, priceItemId };
}

async function checked(tenant: Tenant, path: string, body: object = {}) {
  const started = await tenant.call(path, { method: 'POST', body });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  expect(started.headers.get('location')).toBe(`/v1/workflow-runs/${started.body.workflow_run_id}`);
  const run = await settledRun(tenant, started.body.workflow_run_id);
  expect(run).toMatchObject({ status: 'completed', type: 'check' });
  return started.body;
}

describe('compliance checks', () => {
  it('finds the overcharged unit price, prices it to the cent and cites the agreed price', async () => {
    const tenant = await createTenant();
    const invoice = await uploadedInvoice(tenant);
    const { agreement, priceItemId } = await agreementWithPrices(tenant, invoice.supplier.id);
    await rematch(tenant, agreement.id);

    const started = await checked(tenant, `/v1/invoices/${invoice.id}/check`);
    expect(started.checks).toBe(1);

    const checks = await tenant.call(`/v1/compliance-checks?invoice_ids=${invoice.id}`);
    expect(checks.body.data).toEqual([
      expect.objectContaining({
        invoice_id: invoice.id,
        agreement_id: agreement.id,
        status: 'completed',
        outdated: false,
        workflow_run_id: started.workflow_run_id,
      }),
    ]);
    const findings = await tenant.call(`/v1/compliance-checks/${checks.body.data[0].id}/findings`);
    const priceFinding = findings.body.data.find(
      (f: any) => f.invoice_item_id === invoice.line_items[0].id && f.impact_amount === '350.00',
    );
    expect(priceFinding).toMatchObject({
      confidence: { level: 'certain' },
      currency_code: 'EUR',
      alert_id: expect.any(String),
    });
    expect(priceFinding.citations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          citation: expect.objectContaining({
            source: expect.objectContaining({ source_type: 'agreement_prices', price_item_id: priceItemId }),
          }),
        }),
      ]),
    );
    expect(priceFinding.explanation).toMatch(/\[1\]/);

    const alert = (await tenant.call(`/v1/alerts/${priceFinding.alert_id}`)).body;
    expect(alert).toMatchObject({
      status: 'pending',
      invoice_id: invoice.id,
      agreement_id: agreement.id,
      impact_amount: '350.00',
      provenance: expect.objectContaining({ origin: 'check' }),
    });
    expect(alert.expected).toEqual([
      expect.objectContaining({ price: { type: 'amount', amount: expect.stringMatching(/^350(\.0+)?$/) } }),
    ]);

    const after = (await tenant.call(`/v1/invoices/${invoice.id}`)).body;
    expect(after.alerts).toMatchObject({ status: 'checked', agreements: { checked: 1, total: 1 } });
    expect(after.alerts.counts.pending).toBeGreaterThanOrEqual(1);
    expect(after.workflows).toMatchObject({ settled: true, alert_check: { status: 'completed' } });
  });

  it('checks an uploaded invoice by itself: the alert is there when the invoice settles, with no other call', async () => {
    const tenant = await createTenant();
    // Suppliers come from invoices: the first one makes the supplier the agreement names.
    const earlier = await uploadedInvoice(tenant);
    expect(earlier.workflows.alert_check).toMatchObject({ status: 'skipped', skip_reason: 'no_matching_agreements' });
    await agreementWithPrices(tenant, earlier.supplier.id);

    const upload = await ingestionUpload(tenant.ingestionToken, 'invoice.xml', peppolInvoice());
    const settled = await settledIngestionInvoice(tenant.ingestionToken, upload.body.invoice_id);
    const final = await eventually(
      () => call(`/v1/invoices/${upload.body.invoice_id}`, { token: tenant.ingestionToken }),
      (r) => !['pending', 'processing'].includes(r.body.alerts.processing.status),
      60_000,
    );
    expect(settled.status).toBe(200);
    expect(final.headers.get('retry-after')).toBeNull();
    expect(final.body.alerts).toMatchObject({
      processing: { status: 'completed', skip_reason: null, failure: null },
      result: 'alerts_found',
      resolution: 'open',
    });
    expect(final.body.alerts.count).toBeGreaterThanOrEqual(1);

    const alerts = (
      await tenant.call(`/v1/alerts?invoice_ids=${upload.body.invoice_id}&sort=impact_amount&direction=desc`)
    ).body.data;
    const priceAlert = alerts.find((a: any) => a.provenance.checker === 'unit_price_above_agreed');
    expect(priceAlert).toMatchObject({
      impact_amount: '350.00',
      currency_code: 'EUR',
      confidence: { level: 'certain' },
      provenance: expect.objectContaining({ origin: 'check' }),
    });
    expect(priceAlert.citations.map((c: any) => c.citation.source.source_type)).toContain('agreement_prices');
    // The earlier invoice billed the very same lines: the second bill of 7 days is a duplicate charge.
    expect(alerts.find((a: any) => a.provenance.checker === 'duplicate_charge')).toMatchObject({
      impact_amount: '2800.00',
    });
  });

  it('answers 409 with nothing started when nothing is eligible, and says why', async () => {
    const tenant = await createTenant();
    const invoice = await uploadedInvoice(tenant);
    const none = await tenant.call(`/v1/invoices/${invoice.id}/check`, { method: 'POST' });
    expectError(none, 409, 'nothing_eligible');

    // Matched, but the agreement is a draft: excluded with its readiness.
    const draft = await tenant.call('/v1/agreements', {
      method: 'POST',
      body: { title: 'Draft', supplier_ids: [invoice.supplier.id], instructions: 'x' },
    });
    await rematch(tenant, draft.body.id);
    const notReady = await tenant.call(`/v1/invoices/${invoice.id}/check`, { method: 'POST' });
    expectError(notReady, 409, 'nothing_eligible');
    expect(notReady.body.exclusions).toEqual([
      {
        invoice_id: invoice.id,
        agreement_id: draft.body.id,
        reason: 'agreement_not_ready',
        missing: ['active_status'],
      },
    ]);
    expect(await testDb().workflowRun.count({ where: { organizationId: tenant.organizationId, type: 'check' } })).toBe(
      0,
    );

    const unmatched = await tenant.call(`/v1/invoices/${invoice.id}/check`, {
      method: 'POST',
      body: { agreement_ids: [randomUUID()] },
    });
    expectError(unmatched, 400, 'validation_error');
  });

  it("checks an agreement's outstanding invoices, then nothing until something changes", async () => {
    const tenant = await createTenant();
    const invoice = await uploadedInvoice(tenant);
    const { agreement, priceItemId } = await agreementWithPrices(tenant, invoice.supplier.id);
    await rematch(tenant, agreement.id);

    const first = await checked(tenant, `/v1/agreements/${agreement.id}/check`);
    expect(first).toMatchObject({ checks: 1, has_more: false });
    const again = await tenant.call(`/v1/agreements/${agreement.id}/check`, { method: 'POST' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ workflow_run_id: null, checks: 0 });
    const alertsNow = async () =>
      (await tenant.call(`/v1/alerts?invoice_ids=${invoice.id}&sort=impact_amount`)).body.data;
    const found = await alertsNow();
    expect(found.length).toBeGreaterThan(0);
    const forced = await checked(tenant, `/v1/agreements/${agreement.id}/check`, { include_checked: true });
    expect(forced.checks).toBe(1);
    // Found again as they were, the alerts are untouched: same check, same updated_at.
    expect(await alertsNow()).toEqual(found);

    // A price change makes the check outdated; the invoice list filters on it.
    await tenant.call(`/v1/agreements/${agreement.id}/price-items`, {
      method: 'PATCH',
      body: { entries: [{ id: priceItemId, price: { type: 'amount', amount: '390.00' } }] },
    });
    const outdated = await tenant.call(`/v1/invoices?check_statuses=outdated`);
    expect(outdated.body.data.map((i: any) => i.id)).toEqual([invoice.id]);
    const checksNow = await tenant.call(
      `/v1/compliance-checks?invoice_ids=${invoice.id}&agreement_ids=${agreement.id}`,
    );
    expect(checksNow.body.data.every((c: any) => c.outdated)).toBe(true);

    const all = await checked(tenant, '/v1/agreements/check');
    expect(all.workflow_run_ids).toHaveLength(1);
    const current = await tenant.call(`/v1/invoices?check_statuses=checked`);
    expect(current.body.data.map((i: any) => i.id)).toEqual([invoice.id]);
    // The re-check kept the same alert (same problem), now priced against 390.00.
    const alerts = await tenant.call(`/v1/alerts?invoice_ids=${invoice.id}`);
    const priceAlerts = alerts.body.data.filter(
      (a: any) => a.invoice_item_id === invoice.line_items[0].id && a.expected,
    );
    expect(priceAlerts.map((a: any) => a.impact_amount)).toEqual(['70.00']);
    const before = found.find((a: any) => a.id === priceAlerts[0].id);
    expect(priceAlerts[0].provenance.check_id).not.toBe(before.provenance.check_id);
    expect(priceAlerts[0].updated_at > before.updated_at).toBe(true);
  });

  it('brings a dismissed alert back when a new check finds the problem again, and drops what it no longer finds', async () => {
    const tenant = await createTenant();
    const invoice = await uploadedInvoice(tenant);
    const { agreement, priceItemId } = await agreementWithPrices(tenant, invoice.supplier.id);
    await rematch(tenant, agreement.id);
    await checked(tenant, `/v1/invoices/${invoice.id}/check`);
    const alertOf = async () =>
      (await tenant.call(`/v1/alerts?invoice_ids=${invoice.id}&statuses=pending,dismissed`)).body.data.find(
        (a: any) => a.invoice_item_id === invoice.line_items[0].id && a.impact_amount !== '0.00' && a.expected,
      );
    const first = await alertOf();
    const dismissed = await tenant.call('/v1/alerts/dismiss', {
      method: 'POST',
      body: { alert_ids: [first.id], category: 'other', note: 'checking', suggest_instructions: false },
    });
    expect(dismissed.status).toBe(200);

    await checked(tenant, `/v1/invoices/${invoice.id}/check`);
    const back = await alertOf();
    expect(back).toMatchObject({ id: first.id, status: 'pending', dismissal: null });

    // Agreed at the invoiced price: no price finding any more, so the alert is replaced away.
    await tenant.call(`/v1/agreements/${agreement.id}/price-items`, {
      method: 'PATCH',
      body: { entries: [{ id: priceItemId, price: { type: 'amount', amount: '400.00' } }] },
    });
    await checked(tenant, `/v1/invoices/${invoice.id}/check`);
    expect((await tenant.call(`/v1/alerts/${first.id}`)).status).toBe(404);
  });

  it('converts a price agreed in another currency at the central bank rate loaded with rates:load, and says when a rate is missing', async () => {
    // An ECB file as the bank publishes it, with the invoice's day: 1 EUR = 9.5 NOK.
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'rates-')), 'eurofxref-hist.csv');
    writeFileSync(file, 'Date,USD,NOK,\n2017-11-13,1.1654,9.5,\n2017-11-10,1.1637,9.4,\n');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'src/exchange-rates/cli.ts', file],
      {
        cwd: repoRoot,
        env: { ...process.env, DATABASE_URL: inject('stackEnv').DATABASE_URL },
      },
    );
    expect(JSON.parse(stdout)).toMatchObject({ format: 'ecb_eurofxref', rates: 4, days: 2 });

    const tenant = await createTenant();
    const invoice = await uploadedInvoice(tenant);
    const agreement = (
      await tenant.call('/v1/agreements', {
        method: 'POST',
        body: { title: 'NOK prices', status: 'active', supplier_ids: [invoice.supplier.id] },
      })
    ).body;
    await tenant.call(`/v1/agreements/${agreement.id}/price-items`, {
      method: 'POST',
      body: {
        entries: [
          {
            description: 'item name',
            seller_item_id: 'SKU-1',
            unit: 'DAY',
            currency_code: 'NOK',
            price: { type: 'amount', amount: '3325.00' },
          },
          {
            description: 'item name 2',
            unit: 'DAY',
            currency_code: 'SEK',
            price: { type: 'amount', amount: '4000.00' },
          },
        ],
      },
    });
    await rematch(tenant, agreement.id);
    const started = await checked(tenant, `/v1/invoices/${invoice.id}/check`);
    const check = (await tenant.call(`/v1/compliance-checks?workflow_run_ids=${started.workflow_run_id}`)).body.data[0];
    const findings = (await tenant.call(`/v1/compliance-checks/${check.id}/findings`)).body.data;
    // 3325.00 NOK at 1/9.5 is 350.00 EUR a day; 400.00 invoiced for 7 days: 350.00 too much.
    const converted = findings.find(
      (f: any) => f.invoice_item_id === invoice.line_items[0].id && f.impact_amount === '350.00',
    );
    expect(converted).toBeDefined();
    expect(converted.explanation).toMatch(/9\.5|0\.105263/);
    // No SEK rate is loaded: a finding of its own, never a guess.
    expect(findings.find((f: any) => f.checker === 'exchange_rate_missing')).toMatchObject({ impact_amount: '0.00' });
  });
});
