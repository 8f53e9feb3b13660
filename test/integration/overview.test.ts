import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Prisma } from '../../src/db/client.js';
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
    expect(
      (
        await tenant.call(`/v1/claims/${claim.id}/refunds`, {
          method: 'POST',
          body: { amount: '4.00', currency_code: 'EUR' },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await tenant.call(`/v1/claims/${claim.id}/refunds`, {
          method: 'POST',
          body: { amount: '1.00', currency_code: 'EUR', date: daysFromNow(-20) },
        })
      ).status,
    ).toBe(201);

    // A ready, active agreement expiring in 60 days (its supplier sent nothing, so nothing is checked).
    const quietSupplier = await db.supplier.create({
      data: { id: randomUUID(), organizationId: tenant.organizationId, name: 'Quiet supplier' },
    });
    const active = await tenant.call('/v1/agreements', {
      method: 'POST',
      body: {
        title: 'Cleaning',
        status: 'active',
        supplier_ids: [quietSupplier.id],
        instructions: 'Hourly rate 50 EUR.',
        expiration_date: daysFromNow(60),
      },
    });
    expect(active.status, JSON.stringify(active.body)).toBe(201);
    // Archived agreements are neither active nor waiting to be made ready.
    expect(
      (await tenant.call('/v1/agreements', { method: 'POST', body: { title: 'Old', status: 'archived' } })).status,
    ).toBe(201);

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
      expiring_soon: {
        count: 1,
        within_days: 90,
        soonest: [{ id: active.body.id, title: 'Cleaning', expiration_date: daysFromNow(60) }],
      },
      not_ready: {
        count: 1,
        missing: { title: 0, supplier: 0, active_status: 1, usable_terms: 1, documents_processing: 0 },
      },
    });
    expect(overview.next_steps).toEqual([
      {
        kind: 'agreement_not_ready',
        message:
          '3 invoices could not be checked: agreement "Office supplies" has no price list, instructions or terms document and is not active',
        count: 3,
        link: `/v1/invoices?agreement_ids=${agreementId}`,
        agreement_id: agreementId,
      },
      {
        kind: 'review_alerts',
        message: '3 alerts wait for review',
        count: 3,
        link: '/v1/alerts?statuses=pending',
        agreement_id: null,
      },
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
    expect(afterDelete.alerts).toEqual({
      open_count: 1,
      recent_open_count: 1,
      impact: [{ currency_code: 'NOK', total: '50.00', recent: '50.00' }],
    });

    // Read level is enough; fields select parts.
    const reader = await keyFor(tenant, 'read');
    expect(
      (await call('/v1/overview?fields=claims.open_count', { token: reader, organizationId: tenant.organizationId }))
        .body,
    ).toEqual({ claims: { open_count: 1 } });
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
    await db.invoice.updateMany({
      where: { id: { in: [invoices[1]!.id, invoices[2]!.id] } },
      data: { checkStatus: 'incomplete' },
    });
    await db.invoice.update({ where: { id: invoices[3]!.id }, data: { processingStatus: 'failed' } });
    const quietSupplier = await db.supplier.create({
      data: { id: randomUUID(), organizationId: tenant.organizationId, name: 'Renewing supplier' },
    });
    const renewing = await tenant.call('/v1/agreements', {
      method: 'POST',
      body: {
        title: 'Renews',
        status: 'active',
        supplier_ids: [quietSupplier.id],
        instructions: 'Fixed fee.',
        effective_date: daysFromNow(-300),
        expiration_date: daysFromNow(20),
        renewal: { auto_renews: true, period_months: 12, notice_days: 10 },
      },
    });
    expect(renewing.status, JSON.stringify(renewing.body)).toBe(201);

    const { next_steps: steps } = (await tenant.call('/v1/overview')).body;
    const through = daysFromNow(30);
    expect(steps).toEqual([
      {
        kind: 'failed_invoices',
        message: '1 invoice could not be read',
        count: 1,
        link: '/v1/invoices?processing_statuses=failed',
        agreement_id: null,
      },
      {
        kind: 'incomplete_checks',
        message: '2 invoices could not be checked completely',
        count: 2,
        link: '/v1/invoices?check_statuses=incomplete',
        agreement_id: null,
      },
      {
        kind: 'outdated_checks',
        message: '1 invoice changed, or its agreement did, since the last check',
        count: 1,
        link: '/v1/invoices?check_statuses=outdated',
        agreement_id: null,
      },
      {
        kind: 'renewal_due',
        message: `1 agreement must be renewed or cancelled by ${through}`,
        count: 1,
        link: `/v1/agreements?statuses=active&renewal_deadline_through=${through}`,
        agreement_id: null,
      },
    ]);
    for (const step of steps) expect((await tenant.call(`${step.link}&limit=1000`)).body.data).toHaveLength(step.count);
  });

  // The totals are kept by triggers (docs/overview-and-search.md): every way an invoice or alert
  // changes, over the API or straight in the database, must leave them exactly as the records say.
  it('keeps the totals exact through every kind of change of invoices and alerts', async () => {
    const tenant = await createTenant();
    const db = testDb();
    const supplier = newSupplier('Totals');
    const line = (net: string) => [{ description: 'Paper', quantity: '1', unit_price: net, net_amount: net }];
    const a = await invoiceOf(tenant, supplier, { currency: 'EUR', lines: line('100.00') });
    const b = await invoiceOf(tenant, supplier, { currency: 'EUR', lines: line('40.50') });
    const c = await invoiceOf(tenant, supplier, { currency: 'SEK', lines: line('1000.00') });
    const d = await invoiceOf(tenant, supplier, { currency: 'EUR', lines: line('20.00') });
    const agreementId = await matchedAgreement(tenant, [a.supplier.id], 'Totals');
    const onB = [
      await alertOn(tenant, b.id, agreementId, { impact_amount: '5.25' }),
      await alertOn(tenant, b.id, agreementId, { impact_amount: '1.00' }),
    ];
    const onC = await alertOn(tenant, c.id, agreementId, { impact_amount: '30.00' });
    const figures = async () => {
      const body = (await tenant.call('/v1/overview')).body;
      const steps = Object.fromEntries(
        body.next_steps
          .filter((s: { agreement_id: string | null }) => s.agreement_id === null)
          .map((s: { kind: string; count: number }) => [s.kind, s.count]),
      );
      return {
        count: body.invoices.count,
        spend: body.invoices.spend.map(
          (m: { currency_code: string; total: string }) => `${m.currency_code} ${m.total}`,
        ),
        open: body.alerts.open_count,
        impact: body.alerts.impact.map(
          (m: { currency_code: string; total: string }) => `${m.currency_code} ${m.total}`,
        ),
        steps,
      };
    };
    expect(await figures()).toEqual({
      count: 4,
      spend: ['EUR 160.50', 'SEK 1000.00'],
      open: 3,
      impact: ['EUR 6.25', 'SEK 30.00'],
      steps: { review_alerts: 3 },
    });

    // A credit note subtracts its absolute amount, whatever sign its format writes.
    await db.invoice.update({
      where: { id: d.id },
      data: { documentType: 'credit_note', taxInclusiveAmount: new Prisma.Decimal('-20.00') },
    });
    // A changed amount, and a semantic duplicate, which does not count.
    await db.invoice.update({ where: { id: a.id }, data: { taxInclusiveAmount: new Prisma.Decimal('110.125') } });
    await db.invoice.update({ where: { id: b.id }, data: { duplicateOfInvoiceId: a.id } });
    expect(await figures()).toMatchObject({ count: 3, spend: ['EUR 90.125', 'SEK 1000.00'] });

    // Removing the original for good makes its duplicate count again (one transaction, several statements).
    expect((await tenant.call(`/v1/invoices/${a.id}?permanent=true`, { method: 'DELETE' })).status).toBe(204);
    expect(await figures()).toMatchObject({ count: 3, spend: ['EUR 20.50', 'SEK 1000.00'] });

    // A deleted invoice leaves the spend and sets its alerts aside.
    expect((await tenant.call(`/v1/invoices/${c.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await figures()).toMatchObject({ count: 2, spend: ['EUR 20.50'], open: 2, impact: ['EUR 6.25'] });

    // Failed processing and check states move invoices between the figures, in bulk too.
    await db.invoice.update({ where: { id: d.id }, data: { processingStatus: 'failed' } });
    await db.invoice.updateMany({ where: { id: { in: [b.id, d.id] } }, data: { checkStatus: 'incomplete' } });
    // A failed invoice still counts as incomplete: the link lists it.
    expect(await figures()).toMatchObject({
      count: 1,
      spend: ['EUR 40.50'],
      steps: { review_alerts: 2, failed_invoices: 1, incomplete_checks: 2 },
    });
    await db.invoice.update({ where: { id: c.id }, data: { deletedAt: null, checkStatus: 'outdated' } });
    expect(await figures()).toMatchObject({
      count: 2,
      spend: ['EUR 40.50', 'SEK 1000.00'],
      open: 3,
      steps: { review_alerts: 3, failed_invoices: 1, incomplete_checks: 2, outdated_checks: 1 },
    });

    // Alerts: a dismissal, a changed impact, a match that ends (set aside) and returns, a deletion.
    expect((await tenant.call('/v1/alerts/dismiss', { method: 'POST', body: { alert_ids: [onB[1]] } })).status).toBe(
      200,
    );
    await db.alert.update({ where: { id: onB[0] }, data: { impactAmount: new Prisma.Decimal('7.505') } });
    expect(await figures()).toMatchObject({ open: 2, impact: ['EUR 7.505', 'SEK 30.00'] });
    await db.invoiceAgreementMatch.update({
      where: { invoiceId_agreementId: { invoiceId: c.id, agreementId } },
      data: { active: false },
    });
    expect(await figures()).toMatchObject({ open: 1, impact: ['EUR 7.505'] });
    await db.invoiceAgreementMatch.update({
      where: { invoiceId_agreementId: { invoiceId: c.id, agreementId } },
      data: { active: true },
    });
    expect(await figures()).toMatchObject({ open: 2, impact: ['EUR 7.505', 'SEK 30.00'] });
    await db.alert.delete({ where: { id: onC } });
    expect(await figures()).toMatchObject({ open: 1, impact: ['EUR 7.505'] });

    // The stored totals say what the records say, per currency (a currency whose invoices all left
    // keeps a row of zeros).
    const stored = await db.$queryRaw<Record<string, string | number>[]>`
      SELECT currency_code, invoice_count::int AS counted, spend::text AS spend, failed_count::int AS failed, incomplete_count::int AS incomplete, outdated_count::int AS outdated
        FROM organization_invoice_totals
       WHERE organization_id = ${tenant.organizationId}::uuid AND (invoice_count, failed_count, incomplete_count, outdated_count) <> (0, 0, 0, 0) ORDER BY currency_code`;
    expect(stored).toEqual([
      { currency_code: 'EUR', counted: 1, spend: '40.5000', failed: 1, incomplete: 2, outdated: 0 },
      { currency_code: 'SEK', counted: 1, spend: '1000.0000', failed: 0, incomplete: 0, outdated: 1 },
    ]);
  });
  // mine / team_ids (issue 14): every figure covers only what the teams cover, computed from the
  // records with the teams' compiled filter, as the lists narrow them.
  it('narrows every figure to the records the teams cover with mine=true or team_ids', async () => {
    const tenant = await createTenant();
    const db = testDb();
    const line = (net: string) => [{ description: 'Paper', quantity: '1', unit_price: net, net_amount: net }];
    // Supplier 1: two EUR invoices (one old), a draft agreement, a pending alert and a claimed one with a refund.
    const s1 = newSupplier('Covered');
    const recent = await invoiceOf(tenant, s1, { currency: 'EUR', lines: line('100.00') });
    const old = await invoiceOf(tenant, s1, { currency: 'EUR', lines: line('40.50') });
    await db.invoice.update({ where: { id: old.id }, data: { createdAt: tenDaysAgo() } });
    const g1 = await matchedAgreement(tenant, [recent.supplier.id], 'Covered deal');
    const claimed = await alertOn(tenant, recent.id, g1, { impact_amount: '10.00' });
    await alertOn(tenant, old.id, g1, { impact_amount: '2.505' });
    const claim = await createClaim(tenant, { agreement_id: g1, alerts: { alert_ids: [claimed] } });
    expect(
      (
        await tenant.call(`/v1/claims/${claim.id}/refunds`, {
          method: 'POST',
          body: { amount: '4.00', currency_code: 'EUR' },
        })
      ).status,
    ).toBe(201);
    // Supplier 2: everything again, none of it covered.
    const s2 = newSupplier('Elsewhere');
    const nok = await invoiceOf(tenant, s2, { currency: 'NOK', lines: line('1000.00') });
    await db.invoice.update({ where: { id: nok.id }, data: { checkStatus: 'outdated' } });
    const g2 = await matchedAgreement(tenant, [nok.supplier.id], 'Other deal');
    const otherAlert = await alertOn(tenant, nok.id, g2, { impact_amount: '50.00' });
    const otherClaim = await createClaim(tenant, { agreement_id: g2, alerts: { alert_ids: [otherAlert] } });
    expect(
      (
        await tenant.call(`/v1/claims/${otherClaim.id}/refunds`, {
          method: 'POST',
          body: { amount: '9.00', currency_code: 'NOK' },
        })
      ).status,
    ).toBe(201);
    await alertOn(tenant, nok.id, g2, { impact_amount: '5.00' });

    const team = await tenant.call('/v1/teams', {
      method: 'POST',
      body: {
        name: 'Covered buyers',
        user_ids: [tenant.userId],
        filter: {
          schema_version: 1,
          root: { combinator: 'and', children: [{ field: 'supplier.id', op: 'is', value: recent.supplier.id }] },
        },
      },
    });
    expect(team.status, JSON.stringify(team.body)).toBe(201);
    const unfiltered = await tenant.call('/v1/teams', {
      method: 'POST',
      body: { name: 'No filter yet', user_ids: [], filter: null },
    });
    expect(unfiltered.status).toBe(201);

    const read = async (query: string) => {
      const response = await tenant.call(`/v1/overview?${query}`);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const { recent_since: _since, ...figures } = response.body;
      return figures;
    };
    const expected = (query: string) => ({
      invoices: { count: 2, recent_count: 1, spend: [{ currency_code: 'EUR', total: '140.50', recent: '100.00' }] },
      alerts: {
        open_count: 1,
        recent_open_count: 1,
        impact: [{ currency_code: 'EUR', total: '2.505', recent: '2.505' }],
      },
      claims: {
        open_count: 1,
        recent_open_count: 1,
        claimed: [{ currency_code: 'EUR', total: '10.00', recent: '10.00' }],
        refunded: [{ currency_code: 'EUR', total: '4.00', recent: '4.00' }],
      },
      agreements: {
        active_count: 0,
        expiring_soon: { count: 0, within_days: 90, soonest: [] },
        not_ready: {
          count: 1,
          missing: { title: 0, supplier: 0, active_status: 1, usable_terms: 1, documents_processing: 0 },
        },
      },
      next_steps: [
        {
          kind: 'agreement_not_ready',
          message:
            '2 invoices could not be checked: agreement "Covered deal" has no price list, instructions or terms document and is not active',
          count: 2,
          link: `/v1/invoices?agreement_ids=${g1}&${query}`,
          agreement_id: g1,
        },
        {
          kind: 'review_alerts',
          message: '1 alert waits for review',
          count: 1,
          link: `/v1/alerts?statuses=pending&${query}`,
          agreement_id: null,
        },
      ],
    });
    for (const query of ['mine=true', `team_ids=${team.body.id}`, `team_ids=${team.body.id},${unfiltered.body.id}`]) {
      const figures = await read(query);
      expect(figures, query).toEqual(expected(query));
      // Each link lists exactly the records its step counts, under the same teams.
      for (const step of figures.next_steps)
        expect((await tenant.call(`${step.link}&limit=1000`)).body.data, step.link).toHaveLength(step.count);
    }

    // Without teams the overview still covers everything.
    const all = await read('');
    expect(all.invoices.count).toBe(3);
    expect(all.alerts.open_count).toBe(2);
    expect(all.claims.refunded).toEqual([
      { currency_code: 'EUR', total: '4.00', recent: '4.00' },
      { currency_code: 'NOK', total: '9.00', recent: '9.00' },
    ]);

    // A team without a filter covers nothing: zeros, not an error.
    expect(await read(`team_ids=${unfiltered.body.id}`)).toEqual({
      invoices: { count: 0, recent_count: 0, spend: [] },
      alerts: { open_count: 0, recent_open_count: 0, impact: [] },
      claims: { open_count: 0, recent_open_count: 0, claimed: [], refunded: [] },
      agreements: {
        active_count: 0,
        expiring_soon: { count: 0, within_days: 90, soonest: [] },
        not_ready: {
          count: 0,
          missing: { title: 0, supplier: 0, active_status: 0, usable_terms: 0, documents_processing: 0 },
        },
      },
      next_steps: [],
    });

    // The same refusals as the lists: both at once, and a team that is not the organization's.
    const both = await tenant.call(`/v1/overview?mine=true&team_ids=${team.body.id}`);
    expectError(both, 400, 'validation_error');
    expectError(await tenant.call(`/v1/invoices?mine=true&team_ids=${team.body.id}`), 400, 'validation_error');
    const unknown = randomUUID();
    const fromOverview = await tenant.call(`/v1/overview?team_ids=${unknown}`);
    expectError(fromOverview, 404, 'not_found');
    const { request_id: _overviewRequest, ...overviewError } = fromOverview.body.error;
    const { request_id: _listRequest, ...listError } = (await tenant.call(`/v1/alerts?team_ids=${unknown}`)).body.error;
    expect(overviewError).toEqual(listError);
    const outsider = await createTenant();
    expectError(await outsider.call(`/v1/overview?team_ids=${team.body.id}`), 404, 'not_found');
  });
});
