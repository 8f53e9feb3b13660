import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { expectError } from '../support/api.js';
import { alertOn, claimOf, claimSetup, createClaim, setStatus } from '../support/claims.js';
import { createTenant, testDb, type Tenant } from '../support/tenants.js';

const refund = (tenant: Tenant, claimId: string, body: object, headers: Record<string, string> = {}) =>
  tenant.call(`/v1/claims/${claimId}/refunds`, { method: 'POST', body, headers });

async function creditNote(
  tenant: Tenant,
  supplier: { name: string; org_number: string },
  amount: string,
  currency = 'EUR',
) {
  const created = await tenant.call('/v1/invoices', {
    method: 'POST',
    body: {
      document_type: 'credit_note',
      invoice_number: `CN-${randomUUID().slice(0, 8)}`,
      issue_date: '2026-04-02',
      currency_code: currency,
      supplier,
      line_items: [
        { description: 'Credit for overcharged paper', quantity: '1', unit_price: amount, net_amount: amount },
      ],
      amounts: { excluding_vat: amount, vat: '0', including_vat: amount },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body as { id: string; invoice_number: string };
}

describe('claim refunds, credit notes and metrics', () => {
  it('records, corrects and deletes refunds; only refunds count as money received', async () => {
    const tenant = await createTenant();
    const { agreementId, invoices } = await claimSetup(tenant, [{}]);
    const alert = await alertOn(tenant, invoices[0]!.id, agreementId, { impact_amount: '40.00' });
    const claim = await createClaim(tenant, { agreement_id: agreementId, alerts: { alert_ids: [alert] } });

    const first = await refund(tenant, claim.id, {
      amount: '15.50',
      currency_code: 'EUR',
      date: '2026-04-01',
      reference: 'Bank 1',
      note: 'Partial',
    });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.refunds).toEqual([
      expect.objectContaining({
        amount: '15.50',
        currency_code: 'EUR',
        date: '2026-04-01',
        reference: 'Bank 1',
        note: 'Partial',
        credit_note_invoice_id: null,
        recorded_by: { user_id: tenant.userId, api_key_id: tenant.apiKeyId },
      }),
    ]);
    const today = new Date().toISOString().slice(0, 10);
    // A refund is in a currency the claim claims (its alerts' currencies): the contract's refund has
    // no exchange rate, so a SEK refund could not say what part of a EUR claim it settles.
    const foreign = await refund(tenant, claim.id, { amount: '200.00', currency_code: 'SEK' });
    expectError(foreign, 400, 'validation_error');
    expect(foreign.body.error.details).toEqual([{ field: 'currency_code', message: expect.stringContaining('EUR') }]);
    expect(await testDb().claimRefund.count({ where: { claimId: claim.id } })).toBe(1);
    const second = await refund(tenant, claim.id, { amount: '0.0001', currency_code: 'EUR' });
    expect(second.body.refunds[1]).toMatchObject({
      amount: '0.0001',
      currency_code: 'EUR',
      date: today,
      reference: null,
    });
    expect(second.body.refund_summary).toEqual([{ currency_code: 'EUR', amount: '15.5001' }]);

    // A replayed create records one refund.
    const headers = { 'Idempotency-Key': `refund-${randomUUID()}` };
    await refund(tenant, claim.id, { amount: '1.00', currency_code: 'EUR' }, headers);
    const replay = await refund(tenant, claim.id, { amount: '1.00', currency_code: 'EUR' }, headers);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await testDb().claimRefund.count({ where: { claimId: claim.id } })).toBe(3);

    for (const amount of ['0', '0.00', '-5.00', '1e3', '12.34567', '', 12]) {
      expectError(await refund(tenant, claim.id, { amount, currency_code: 'EUR' }), 400, 'validation_error');
    }
    expectError(await refund(tenant, claim.id, { amount: '1.00', currency_code: 'eur' }), 400, 'validation_error');
    expectError(
      await refund(tenant, claim.id, { amount: '1.00', currency_code: 'EUR', date: '2026-02-30' }),
      400,
      'validation_error',
    );
    expectError(await refund(tenant, randomUUID(), { amount: '1.00', currency_code: 'EUR' }), 404, 'not_found');
    expect(await testDb().claimRefund.count({ where: { claimId: claim.id } })).toBe(3);

    const refundId = first.body.refunds[0].id;
    const corrected = await tenant.call(`/v1/claims/${claim.id}/refunds/${refundId}`, {
      method: 'PATCH',
      body: { amount: '16.50', reference: null },
    });
    expect(corrected.status).toBe(200);
    expect(corrected.body.refunds.find((r: any) => r.id === refundId)).toMatchObject({
      amount: '16.50',
      reference: null,
      note: 'Partial',
      date: '2026-04-01',
    });
    expect(corrected.body.refund_summary[0]).toEqual({ currency_code: 'EUR', amount: '17.5001' });
    // A correction to a currency the claim does not claim is refused the same way.
    expectError(
      await tenant.call(`/v1/claims/${claim.id}/refunds/${refundId}`, {
        method: 'PATCH',
        body: { currency_code: 'NOK' },
      }),
      400,
      'validation_error',
    );
    expectError(
      await tenant.call(`/v1/claims/${claim.id}/refunds/${randomUUID()}`, {
        method: 'PATCH',
        body: { amount: '1.00' },
      }),
      404,
      'not_found',
    );

    const tiny = second.body.refunds[1].id;
    expect((await tenant.call(`/v1/claims/${claim.id}/refunds/${tiny}`, { method: 'DELETE' })).status).toBe(204);
    expect((await tenant.call(`/v1/claims/${claim.id}/refunds/${tiny}`, { method: 'DELETE' })).status).toBe(204);
    const after = await claimOf(tenant, claim.id);
    expect(after.refund_summary).toEqual([{ currency_code: 'EUR', amount: '17.50' }]);
    // Refunds do not change the alerts: the claimed amount stays what was claimed.
    expect(after.summary.claimed).toEqual([{ currency_code: 'EUR', amount: '40.00' }]);

    // More refunded than claimed: the letter shows nothing outstanding, never a negative amount.
    await refund(tenant, claim.id, { amount: '30.00', currency_code: 'EUR' });
    const letter = await fetch(`${inject('apiUrl')}/v1/claims/${claim.id}/export?format=pdf`, {
      headers: { Authorization: `Bearer ${tenant.apiKey}` },
    });
    expect(letter.status).toBe(200);
    const text = execFileSync('pdftotext', ['-layout', '-', '-'], { input: Buffer.from(await letter.arrayBuffer()) })
      .toString('utf8')
      .replace(/\s+/g, ' ');
    expect(text).toContain('The refunds already received cover the claim in full.');
    expect(text).not.toMatch(/(^|\s)[-−]\s?\d/);
  });

  it("attaches the supplier's credit notes as evidence, with a refund only when asked, once", async () => {
    const tenant = await createTenant();
    const { agreementId, supplier, invoices } = await claimSetup(tenant, [{}]);
    const alert = await alertOn(tenant, invoices[0]!.id, agreementId, { impact_amount: '40.00' });
    const claim = await createClaim(tenant, { agreement_id: agreementId, alerts: { alert_ids: [alert] } });
    const note = await creditNote(tenant, supplier, '25.00');
    const evidenceOnly = await creditNote(tenant, supplier, '5.00');
    const otherSupplier = await creditNote(
      tenant,
      { name: `Other ${randomUUID().slice(0, 6)}`, org_number: '987654321' },
      '5.00',
    );
    const attach = (body: object) => tenant.call(`/v1/claims/${claim.id}/credit-notes`, { method: 'POST', body });

    const attached = await attach({ invoice_id: note.id, create_refund: true });
    expect(attached.status, JSON.stringify(attached.body)).toBe(201);
    expect(attached.body.credit_notes).toEqual([
      expect.objectContaining({
        invoice_id: note.id,
        invoice_number: note.invoice_number,
        issue_date: '2026-04-02',
        amount: '25.00',
        currency_code: 'EUR',
        attached_by: { user_id: tenant.userId, api_key_id: tenant.apiKeyId },
      }),
    ]);
    expect(attached.body.refunds).toEqual([
      expect.objectContaining({
        amount: '25.00',
        currency_code: 'EUR',
        date: '2026-04-02',
        reference: note.invoice_number,
        credit_note_invoice_id: note.id,
      }),
    ]);
    const again = await attach({ invoice_id: note.id, create_refund: true });
    expect(again.status).toBe(200);
    expect(again.body.credit_notes).toHaveLength(1);
    expect(again.body.refunds).toHaveLength(1);

    // A credit note alone is evidence, not money received.
    const evidence = await attach({ invoice_id: evidenceOnly.id });
    expect(evidence.body.credit_notes).toHaveLength(2);
    expect(evidence.body.refund_summary).toEqual([{ currency_code: 'EUR', amount: '25.00' }]);

    expectError(await attach({ invoice_id: otherSupplier.id }), 400, 'validation_error');
    expectError(await attach({ invoice_id: invoices[0]!.id }), 400, 'validation_error');
    expectError(await attach({ invoice_id: randomUUID() }), 400, 'validation_error');
    // A refund from a credit note in a currency the claim does not claim is refused like any other.
    const inKroner = await creditNote(tenant, supplier, '5.00', 'NOK');
    expectError(await attach({ invoice_id: inKroner.id, create_refund: true }), 400, 'validation_error');
    expect(await testDb().claimCreditNote.count({ where: { claimId: claim.id } })).toBe(2);

    // Detaching keeps the refund recorded from it.
    expect((await tenant.call(`/v1/claims/${claim.id}/credit-notes/${note.id}`, { method: 'DELETE' })).status).toBe(
      204,
    );
    expect((await tenant.call(`/v1/claims/${claim.id}/credit-notes/${note.id}`, { method: 'DELETE' })).status).toBe(
      204,
    );
    const after = await claimOf(tenant, claim.id);
    expect(after.credit_notes.map((c: any) => c.invoice_id)).toEqual([evidenceOnly.id]);
    expect(after.refunds).toHaveLength(1);
  });

  it('totals claims per status and currency for the list filters; refunded_from and refunded_through restrict refund_summary', async () => {
    const tenant = await createTenant();
    const { agreementId, supplierId, invoices } = await claimSetup(tenant, [{}, { currency: 'NOK' }]);
    const other = await claimSetup(tenant, [{}]);
    const eur = await alertOn(tenant, invoices[0]!.id, agreementId, { impact_amount: '10.00' });
    const nok = await alertOn(tenant, invoices[1]!.id, agreementId, { impact_amount: '200.00' });
    const elsewhere = await alertOn(tenant, other.invoices[0]!.id, other.agreementId, { impact_amount: '7.25' });
    const a = await createClaim(tenant, { agreement_id: agreementId, alerts: { alert_ids: [eur, nok] } });
    const b = await createClaim(tenant, { agreement_id: other.agreementId, alerts: { alert_ids: [elsewhere] } });
    await createClaim(tenant, { agreement_id: other.agreementId, title: 'Empty' });
    await setStatus(tenant, b.id, 'completed');
    await refund(tenant, a.id, { amount: '4.00', currency_code: 'EUR', date: '2026-03-01' });
    await refund(tenant, a.id, { amount: '6.00', currency_code: 'EUR', date: '2026-04-15' });
    await refund(tenant, b.id, { amount: '7.25', currency_code: 'EUR', date: '2026-04-30' });
    const metrics = async (query: string) => (await tenant.call(`/v1/claims/metrics?${query}`)).body;

    const all = await metrics('');
    expect(all.counts).toEqual({ total: 3, pending: 2, in_progress: 0, completed: 1, cancelled: 0 });
    expect(all.claimed).toEqual([
      {
        currency_code: 'EUR',
        total: '17.25',
        pending: '10.00',
        in_progress: '0.00',
        completed: '7.25',
        cancelled: '0.00',
      },
      {
        currency_code: 'NOK',
        total: '200.00',
        pending: '200.00',
        in_progress: '0.00',
        completed: '0.00',
        cancelled: '0.00',
      },
    ]);
    expect(all.refund_summary).toEqual([
      {
        currency_code: 'EUR',
        total: '17.25',
        pending: '10.00',
        in_progress: '0.00',
        completed: '7.25',
        cancelled: '0.00',
      },
    ]);

    expect((await metrics('refunded_from=2026-04-01')).refund_summary[0]).toMatchObject({
      total: '13.25',
      pending: '6.00',
    });
    expect((await metrics('refunded_from=2026-03-01&refunded_through=2026-04-15')).refund_summary[0]).toMatchObject({
      total: '10.00',
      completed: '0.00',
    });
    expect((await metrics('refunded_through=2026-02-28')).refund_summary).toEqual([]);
    const ofSupplier = await metrics(`supplier_ids=${supplierId}`);
    expect(ofSupplier.counts.total).toBe(1);
    expect(ofSupplier.claimed.map((c: any) => c.currency_code)).toEqual(['EUR', 'NOK']);
    expect((await metrics('statuses=completed')).claimed).toEqual([
      {
        currency_code: 'EUR',
        total: '7.25',
        pending: '0.00',
        in_progress: '0.00',
        completed: '7.25',
        cancelled: '0.00',
      },
    ]);
    expectError(await tenant.call('/v1/claims/metrics?refunded_from=2026-13-01'), 400, 'validation_error');

    // The same refunds per calendar month (the overview's chart), with the same filters.
    const byMonth = async (query: string) => (await tenant.call(`/v1/claims/metrics/refunds-by-month?${query}`)).body;
    expect(await byMonth('')).toEqual({
      months: [
        { month: '2026-03', refunds: [{ currency_code: 'EUR', amount: '4.00' }] },
        { month: '2026-04', refunds: [{ currency_code: 'EUR', amount: '13.25' }] },
      ],
    });
    expect(await byMonth('refunded_from=2026-04-01&refunded_through=2026-04-29')).toEqual({
      months: [{ month: '2026-04', refunds: [{ currency_code: 'EUR', amount: '6.00' }] }],
    });
    expect(await byMonth('statuses=completed')).toEqual({
      months: [{ month: '2026-04', refunds: [{ currency_code: 'EUR', amount: '7.25' }] }],
    });
    expect(await byMonth('refunded_through=2026-02-28')).toEqual({ months: [] });
    expect((await (await createTenant()).call('/v1/claims/metrics/refunds-by-month')).body).toEqual({ months: [] });
    expectError(
      await tenant.call('/v1/claims/metrics/refunds-by-month?refunded_from=2026-13-01'),
      400,
      'validation_error',
    );
  });
});
