import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, expectError } from '../support/api.js';
import { alertOn, createClaim } from '../support/claims.js';
import { invoiceOf, matchedAgreement, newSupplier } from '../support/alerts.js';
import { createTenant, keyFor, testDb } from '../support/tenants.js';

const DAY_MS = 86_400_000;
const daysFromNow = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);
const tenDaysAgo = () => new Date(Date.now() - 10 * DAY_MS);

describe('GET /v1/overview', () => {
  it('gives spend, open alerts, claims and agreements per currency with the last 7 days as recent, and next steps that link to the records', async () => {
    const tenant = await createTenant();
    const db = testDb();
    const supplier = newSupplier('Overview');
    const line = (net: string) => [{ description: 'Paper', quantity: '1', unit_price: net, net_amount: net }];
    const eurNew = await invoiceOf(tenant, supplier, { currency: 'EUR', lines: line('100.00') });
    const eurOld = await invoiceOf(tenant, supplier, { currency: 'EUR', lines: line('40.50') });
    const nok = await invoiceOf(tenant, supplier, { currency: 'NOK', lines: line('1000.00') });
    // One EUR invoice arrived before the recent window.
    await db.invoice.update({ where: { id: eurOld.id }, data: { createdAt: tenDaysAgo() } });
    // A draft agreement without terms: its three invoices cannot be checked against it.
    const agreementId = await matchedAgreement(tenant, [eurNew.supplier.id], 'Office supplies');

    const a = await alertOn(tenant, eurNew.id, agreementId, { impact_amount: '10.00' });
    await alertOn(tenant, eurOld.id, agreementId, { impact_amount: '2.505' });
    const oldAlert = await alertOn(tenant, eurOld.id, agreementId, { impact_amount: '7.00' });
    await alertOn(tenant, nok.id, agreementId, { impact_amount: '50.00' });
    await db.alert.update({ where: { id: oldAlert }, data: { createdAt: tenDaysAgo() } });
    const claim = await createClaim(tenant, { agreement_id: agreementId, alerts: { alert_ids: [a] } });
    expect((await tenant.call(`/v1/claims/${claim.id}/refunds`, { method: 'POST', body: { amount: '4.00', currency_code: 'EUR' } })).status).toBe(201);
    expect((await tenant.call(`/v1/claims/${claim.id}/refunds`, { method: 'POST', body: { amount: '1.00', currency_code: 'EUR', date: daysFromNow(-20) } })).status).toBe(201);

    // A ready, active agreement expiring in 60 days (its supplier sent nothing, so nothing is checked).
    const quietSupplier = await db.supplier.create({ data: { id: randomUUID(), organizationId: tenant.organizationId, name: 'Quiet supplier' } });
    const active = await tenant.call('/v1/agreements', {
      method: 'POST',
      body: { title: 'Cleaning', status: 'active', supplier_ids: [quietSupplier.id], instructions: 'Hourly rate 50 EUR.', expiration_date: daysFromNow(60) },
    });
    expect(active.status, JSON.stringify(active.body)).toBe(201);
    // Archived agreements are neither active nor waiting to be made ready.
    expect((await tenant.call('/v1/agreements', { method: 'POST', body: { title: 'Old', status: 'archived' } })).status).toBe(201);

    const response = await tenant.call('/v1/overview');
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const overview = response.body;
    expect(Date.now() - Date.parse(overview.recent_since)).toBeGreaterThanOrEqual(7 * DAY_MS);
    expect(Date.now() - Date.parse(overview.recent_since)).toBeLessThan(7 * DAY_MS + 60_000);
    expect(overview.invoices).toEqual({
      count: 3,
      recent_count: 2,
      spend: [
        { currency_code: 'EUR', total: '140.50', recent: '100.00' },
        { currency_code: 'NOK', total: '1000.00', recent: '1000.00' },
      ],
    });
    expect(overview.alerts).toEqual({
      open_count: 3,
      recent_open_count: 2,
      impact: [
        { currency_code: 'EUR', total: '9.505', recent: '2.505' },
        { currency_code: 'NOK', total: '50.00', recent: '50.00' },
      ],
    });
    expect(overview.claims).toEqual({
      open_count: 1,
      recent_open_count: 1,
      claimed: [{ currency_code: 'EUR', total: '10.00', recent: '10.00' }],
      refunded: [{ currency_code: 'EUR', total: '5.00', recent: '4.00' }],
    });
    expect(overview.agreements).toEqual({
      active_count: 1,
      expiring_soon: { count: 1, within_days: 90, soonest: [{ id: active.body.id, title: 'Cleaning', expiration_date: daysFromNow(60) }] },
      not_ready: { count: 1, missing: { title: 0, supplier: 0, active_status: 1, usable_terms: 1, documents_processing: 0 } },
    });
    expect(overview.next_steps).toEqual([
      {
        kind: 'agreement_not_ready',
        message: '3 invoices could not be checked: agreement "Office supplies" has no price list, instructions or terms document and is not active',
        count: 3,
        link: `/v1/invoices?agreement_ids=${agreementId}`,
        agreement_id: agreementId,
      },
      { kind: 'review_alerts', message: '3 alerts wait for review', count: 3, link: '/v1/alerts?statuses=pending', agreement_id: null },
    ]);
    // Each link lists exactly the records its step counts.
    for (const step of overview.next_steps) {
      const listed = await tenant.call(`${step.link}&limit=1000`);
      expect(listed.status).toBe(200);
      expect(listed.body.data).toHaveLength(step.count);
    }

    // A deleted invoice leaves the spend, and its alerts (set aside) leave the open alerts.
    expect((await tenant.call(`/v1/invoices/${eurOld.id}`, { method: 'DELETE' })).status).toBe(204);
    const afterDelete = (await tenant.call('/v1/overview')).body;
    expect(afterDelete.invoices.spend).toEqual([
      { currency_code: 'EUR', total: '100.00', recent: '100.00' },
      { currency_code: 'NOK', total: '1000.00', recent: '1000.00' },
    ]);
    expect(afterDelete.alerts).toEqual({ open_count: 1, recent_open_count: 1, impact: [{ currency_code: 'NOK', total: '50.00', recent: '50.00' }] });

    // Read level is enough; fields select parts.
    const reader = await keyFor(tenant, 'read');
    expect((await call('/v1/overview?fields=claims.open_count', { token: reader, organizationId: tenant.organizationId })).body).toEqual({ claims: { open_count: 1 } });
    expectError(await call('/v1/overview', { organizationId: tenant.organizationId }), 401, 'invalid_token');

    // Another organization sees none of it.
    const other = await createTenant();
    const empty = (await other.call('/v1/overview')).body;
    expect(empty).toMatchObject({
      invoices: { count: 0, recent_count: 0, spend: [] },
      alerts: { open_count: 0, recent_open_count: 0, impact: [] },
      claims: { open_count: 0, recent_open_count: 0, claimed: [], refunded: [] },
      agreements: { active_count: 0, expiring_soon: { count: 0, soonest: [] }, not_ready: { count: 0 } },
      next_steps: [],
    });
  });

  it('suggests the invoices that failed, checks that are incomplete or outdated and renewals that are due', async () => {
    const tenant = await createTenant();
    const db = testDb();
    const supplier = newSupplier('Steps');
    const invoices = [];
    for (let i = 0; i < 4; i++) invoices.push(await invoiceOf(tenant, supplier));
    // Check states are written by checks (docs/checks.md); set here to the states a check leaves.
    await db.invoice.update({ where: { id: invoices[0]!.id }, data: { checkStatus: 'outdated' } });
    await db.invoice.updateMany({ where: { id: { in: [invoices[1]!.id, invoices[2]!.id] } }, data: { checkStatus: 'incomplete' } });
    await db.invoice.update({ where: { id: invoices[3]!.id }, data: { processingStatus: 'failed' } });
    const quietSupplier = await db.supplier.create({ data: { id: randomUUID(), organizationId: tenant.organizationId, name: 'Renewing supplier' } });
    const renewing = await tenant.call('/v1/agreements', {
      method: 'POST',
      body: { title: 'Renews', status: 'active', supplier_ids: [quietSupplier.id], instructions: 'Fixed fee.', effective_date: daysFromNow(-300), expiration_date: daysFromNow(20), renewal: { auto_renews: true, period_months: 12, notice_days: 10 } },
    });
    expect(renewing.status, JSON.stringify(renewing.body)).toBe(201);

    const { next_steps: steps } = (await tenant.call('/v1/overview')).body;
    const through = daysFromNow(30);
    expect(steps).toEqual([
      { kind: 'failed_invoices', message: '1 invoice could not be read', count: 1, link: '/v1/invoices?processing_statuses=failed', agreement_id: null },
      { kind: 'incomplete_checks', message: '2 invoices could not be checked completely', count: 2, link: '/v1/invoices?check_statuses=incomplete', agreement_id: null },
      { kind: 'outdated_checks', message: '1 invoice changed, or its agreement did, since the last check', count: 1, link: '/v1/invoices?check_statuses=outdated', agreement_id: null },
      { kind: 'renewal_due', message: `1 agreement must be renewed or cancelled by ${through}`, count: 1, link: `/v1/agreements?statuses=active&renewal_deadline_through=${through}`, agreement_id: null },
    ]);
    for (const step of steps) expect((await tenant.call(`${step.link}&limit=1000`)).body.data).toHaveLength(step.count);
  });
});
