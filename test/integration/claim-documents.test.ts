import { parse } from 'csv-parse/sync';
import { describe, expect, inject, it } from 'vitest';
import { call, expectError } from '../support/api.js';
import { agreementWithPrice, peppolInvoice, rematch, settledRun, uploadedInvoice } from '../support/checks.js';
import { alertOf, alertOn, claimOf, claimSetup, createClaim, setStatus } from '../support/claims.js';
import { createTenant, keyFor, testDb, type Tenant } from '../support/tenants.js';

// An uploaded invoice (so it has a file), checked against an active agreement that prices its
// first line at 350.00 EUR a DAY where the invoice charges 400.00: one alert of 350.00.
async function checkedInvoice(tenant: Tenant) {
  const bytes = peppolInvoice();
  const invoice = await uploadedInvoice(tenant, bytes);
  const agreement = await agreementWithPrice(
    tenant,
    {
      title: 'Consulting 2017',
      status: 'active',
      effective_date: '2017-01-01',
      expiration_date: '2017-12-31',
      supplier_ids: [invoice.supplier.id],
    },
    '350.00',
  );
  await rematch(tenant, agreement.id);
  await check(tenant, invoice.id);
  const alerts = (await tenant.call(`/v1/alerts?invoice_ids=${invoice.id}&agreement_ids=${agreement.id}`)).body.data;
  const price = alerts.find((a: any) => a.impact_amount === '350.00');
  expect(price, JSON.stringify(alerts)).toBeDefined();
  return { bytes, invoice, agreementId: agreement.id, alertId: price.id as string };
}

async function check(tenant: Tenant, invoiceId: string) {
  const started = await tenant.call(`/v1/invoices/${invoiceId}/check`, { method: 'POST' });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  expect((await settledRun(tenant, started.body.workflow_run_id)).status).toBe('completed');
}

describe('claim documents, export and checks', () => {
  it('lists the files behind a claim with download links, exports the letter, and holds its pairs from re-checks while open', async () => {
    const tenant = await createTenant();
    const { bytes, invoice, agreementId, alertId } = await checkedInvoice(tenant);
    const claim = await createClaim(tenant, {
      agreement_id: agreementId,
      title: 'Consulting overcharged',
      supplier_contact: { name: 'Jørgen Öberg', email: null },
      alerts: { alert_ids: [alertId] },
    });
    expect(claim.summary.claimed).toEqual([{ currency_code: 'EUR', amount: '350.00' }]);

    // Documents: the invoice's file, downloadable straight from storage with the link.
    const documents = await tenant.call(`/v1/claims/${claim.id}/documents`);
    expect(documents.status).toBe(200);
    expect(documents.body.data).toEqual([
      expect.objectContaining({
        role: 'invoice',
        invoice_id: invoice.id,
        invoice_number: invoice.invoice_number,
        file_name: 'invoice.xml',
        file_size: bytes.length,
        download_url: expect.any(String),
        expires_at: expect.any(String),
      }),
    ]);
    const expiresIn = Date.parse(documents.body.data[0].expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(10 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(15 * 60_000);
    const download = await fetch(documents.body.data[0].download_url);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    expect(download.headers.get('content-disposition')).toContain('invoice.xml');

    // Export: the letter's rows, one per claimed alert; PDF and XLSX as files with names.
    const csv = await tenant.call(`/v1/claims/${claim.id}/export?format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="${claim.reference}.csv"`);
    const rows: string[][] = parse(String(csv.body), { bom: true, relax_column_count: true });
    const dataRows = rows.slice(1);
    expect(dataRows).toHaveLength(1);
    expect(dataRows[0]).toEqual(expect.arrayContaining([invoice.invoice_number, '350.00', 'EUR', alertId, 'claimed']));
    for (const [format, type, magic] of [
      ['pdf', 'application/pdf', '%PDF'],
      ['xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'PK'],
    ] as const) {
      const response = await fetch(`${inject('apiUrl')}/v1/claims/${claim.id}/export?format=${format}`, {
        headers: { Authorization: `Bearer ${tenant.apiKey}`, 'X-Organization-Id': tenant.organizationId },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(type);
      expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${claim.reference}.${format}"`);
      expect(
        Buffer.from(await response.arrayBuffer())
          .subarray(0, magic.length)
          .toString('latin1'),
      ).toBe(magic);
    }
    expectError(await tenant.call(`/v1/claims/${claim.id}/export?format=docx`), 400, 'validation_error');

    // Open claim: its pair is not checked again, and says why.
    const held = await tenant.call(`/v1/invoices/${invoice.id}/check`, { method: 'POST' });
    expectError(held, 409, 'nothing_eligible');
    expect(held.body.exclusions).toEqual([
      expect.objectContaining({ invoice_id: invoice.id, agreement_id: agreementId, reason: 'held_by_open_claim' }),
    ]);
    const preview = await tenant.call('/v1/check-selections/preview', {
      method: 'POST',
      body: { scope: { agreement_ids: [agreementId] }, mode: 'again', invoices: { invoice_ids: [invoice.id] } },
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.exclusions).toEqual([expect.objectContaining({ reason: 'held_by_open_claim', count: 1 })]);

    // Completed: checked again, and the claimed alert is kept as it is.
    await setStatus(tenant, claim.id, 'completed');
    await check(tenant, invoice.id);
    expect(await alertOf(tenant, alertId)).toMatchObject({ status: 'claimed', claim_id: claim.id });

    // Cancelled: a new check replaces what the claim left; the same problem keeps its alert, pending.
    await setStatus(tenant, claim.id, 'cancelled');
    expect(await alertOf(tenant, alertId)).toMatchObject({
      status: 'dismissed',
      dismissal: { category: 'claim_cancelled' },
    });
    await check(tenant, invoice.id);
    expect(await alertOf(tenant, alertId)).toMatchObject({ status: 'pending', claim_id: null, dismissal: null });
  });

  it("exports pending and credited alerts of the claim's invoices only when asked", async () => {
    const tenant = await createTenant();
    const { agreementId, invoices } = await claimSetup(tenant, [{}]);
    const invoiceId = invoices[0]!.id;
    const lineId = invoices[0]!.line_items[0]!.id;
    const claimed = await alertOn(tenant, invoiceId, agreementId, {
      invoice_item_id: lineId,
      expected: [{ description: 'Paper', unit: 'EA', currency_code: 'EUR', price: { type: 'amount', amount: '5.00' } }],
    });
    const pending = await alertOn(tenant, invoiceId, agreementId, { impact_amount: '1.25', title: 'Freight' });
    const credited = await alertOn(tenant, invoiceId, agreementId, { impact_amount: '2.00' });
    await tenant.call('/v1/alerts/credit', { method: 'POST', body: { alert_ids: [credited] } });
    const claim = await createClaim(tenant, { agreement_id: agreementId, alerts: { alert_ids: [claimed] } });
    await tenant.call(`/v1/claims/${claim.id}/refunds`, {
      method: 'POST',
      body: { amount: '1.00', currency_code: 'EUR' },
    });

    const exported = async (query: string) => {
      const response = await tenant.call(`/v1/claims/${claim.id}/export?format=csv${query}`);
      expect(response.status).toBe(200);
      const rows: string[][] = parse(String(response.body), { bom: true, relax_column_count: true });
      return rows.slice(1);
    };
    const only = await exported('');
    expect(only).toHaveLength(1);
    expect(only[0]).toEqual(expect.arrayContaining([claimed, '10.00', 'Paper', '1', 'claimed']));
    const withPending = await exported('&include_pending=true');
    expect(withPending.map((row) => row.find((cell) => [claimed, pending, credited].includes(cell))).sort()).toEqual(
      [claimed, pending].sort(),
    );
    const everything = await exported('&include_pending=true&include_credited=true');
    expect(everything).toHaveLength(3);
    expect(everything.find((row) => row.includes(credited))).toEqual(expect.arrayContaining(['credited']));
  });

  it('needs Read to read claims and Write to change them; another organization gets 404 and changes nothing', async () => {
    const owner = await createTenant();
    const { agreementId, invoices } = await claimSetup(owner, [{}]);
    const alert = await alertOn(owner, invoices[0]!.id, agreementId);
    const claim = await createClaim(owner, { agreement_id: agreementId, alerts: { alert_ids: [alert] } });
    const refundId = (
      await owner.call(`/v1/claims/${claim.id}/refunds`, {
        method: 'POST',
        body: { amount: '1.00', currency_code: 'EUR' },
      })
    ).body.refunds[0].id;

    const readKey = await keyFor(owner, 'read');
    const asReader = (path: string, options: { method?: string; body?: unknown } = {}) =>
      call(path, { token: readKey, organizationId: owner.organizationId, ...options });
    for (const path of [
      '/v1/claims',
      `/v1/claims/${claim.id}`,
      '/v1/claims/metrics',
      `/v1/claims/${claim.id}/documents`,
      `/v1/claims/${claim.id}/export?format=csv`,
    ]) {
      expect((await asReader(path)).status, path).toBe(200);
    }
    const writes: [string, string, unknown][] = [
      ['POST', '/v1/claims', { agreement_id: agreementId, title: 'T' }],
      ['PATCH', `/v1/claims/${claim.id}`, { status: 'cancelled' }],
      ['DELETE', `/v1/claims/${claim.id}`, undefined],
      ['POST', `/v1/claims/${claim.id}/alerts`, { alert_ids: [alert] }],
      ['POST', `/v1/claims/${claim.id}/alerts/remove`, { alert_ids: [alert] }],
      ['POST', `/v1/claims/${claim.id}/refunds`, { amount: '1.00', currency_code: 'EUR' }],
      ['PATCH', `/v1/claims/${claim.id}/refunds/${refundId}`, { amount: '2.00' }],
      ['DELETE', `/v1/claims/${claim.id}/refunds/${refundId}`, undefined],
      ['POST', `/v1/claims/${claim.id}/credit-notes`, { invoice_id: invoices[0]!.id }],
      ['DELETE', `/v1/claims/${claim.id}/credit-notes/${invoices[0]!.id}`, undefined],
    ];
    for (const [method, path, body] of writes)
      expectError(await asReader(path, { method, body }), 403, 'insufficient_level');

    const stranger = await createTenant();
    expectError(await stranger.call(`/v1/claims/${claim.id}`), 404, 'not_found');
    expect((await stranger.call('/v1/claims')).body.data).toEqual([]);
    expect((await stranger.call('/v1/claims/metrics')).body.counts.total).toBe(0);
    expectError(
      await stranger.call(`/v1/claims/${claim.id}`, { method: 'PATCH', body: { status: 'cancelled' } }),
      404,
      'not_found',
    );
    expectError(await stranger.call(`/v1/claims/${claim.id}`, { method: 'DELETE' }), 404, 'not_found');
    expectError(
      await stranger.call(`/v1/claims/${claim.id}/alerts/remove`, { method: 'POST', body: { alert_ids: [alert] } }),
      404,
      'not_found',
    );
    expectError(
      await stranger.call(`/v1/claims/${claim.id}/refunds/${refundId}`, { method: 'DELETE' }),
      404,
      'not_found',
    );
    expectError(await stranger.call(`/v1/claims/${claim.id}/export?format=csv`), 404, 'not_found');
    expectError(await stranger.call(`/v1/claims/${claim.id}/documents`), 404, 'not_found');
    // The owner's alerts cannot be taken into the stranger's claim: to the stranger they do not exist.
    const strangers = await claimSetup(stranger, [{}]);
    const own = await createClaim(stranger, { agreement_id: strangers.agreementId });
    expectError(
      await stranger.call(`/v1/claims/${own.id}/alerts`, {
        method: 'POST',
        body: { alert_ids: [alert], move_from_open_claims: true },
      }),
      400,
      'validation_error',
    );
    expectError(
      await stranger.call('/v1/claims', { method: 'POST', body: { agreement_id: agreementId, title: 'Mine' } }),
      400,
      'validation_error',
    );

    const after = await claimOf(owner, claim.id);
    expect(after).toMatchObject({
      status: 'pending',
      summary: { counts: { claimed: 1 } },
      refunds: [expect.objectContaining({ id: refundId, amount: '1.00' })],
    });
    expect(await alertOf(owner, alert)).toMatchObject({ status: 'claimed', claim_id: claim.id });
    expect(await testDb().claim.count({ where: { organizationId: stranger.organizationId } })).toBe(1);
  });
});
