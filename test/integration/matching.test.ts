import { describe, expect, it } from 'vitest';
import { updateOrganizationSettings } from '../../src/admin/service.js';
import { eventually, expectError } from '../support/api.js';
import { ingestionUpload, sample, settledIngestionInvoice } from '../support/invoices.js';
import { createTenant, testDb, type Tenant } from '../support/tenants.js';

async function invoiceFrom(tenant: Tenant, supplier: object, number: string, issueDate = '2026-03-15') {
  const response = await tenant.call('/v1/invoices', {
    method: 'POST',
    body: {
      invoice_number: number,
      issue_date: issueDate,
      currency_code: 'EUR',
      supplier,
      line_items: [{ description: 'Paper', quantity: '2', unit_price: '5.00', net_amount: '10.00' }],
      amounts: { excluding_vat: '10.00', vat: '0', including_vat: '10.00' },
    },
  });
  expect(response.status).toBe(201);
  return response.body;
}

async function refreshed(tenant: Tenant, path: string) {
  const started = await tenant.call(path, { method: 'POST' });
  expect(started.status).toBe(202);
  expect(started.headers.get('location')).toBe(`/v1/workflow-runs/${started.body.workflow_run_id}`);
  const run = await eventually(
    () => tenant.call(`/v1/workflow-runs/${started.body.workflow_run_id}`),
    (r) => ['completed', 'failed', 'completed_with_errors'].includes(r.body.status),
  );
  expect(run.body).toMatchObject({ status: 'completed', type: 'refresh' });
  return run.body;
}

const matchedAgreementIds = async (tenant: Tenant, invoiceId: string) =>
  (await tenant.call(`/v1/invoices/${invoiceId}/agreements`)).body.data.map((m: any) => m.id);

describe('matching', () => {
  it('matches an imported invoice to its agreement by itself, and says why', async () => {
    const tenant = await createTenant();
    const first = await ingestionUpload(
      tenant.ingestionToken,
      'base.xml',
      sample('peppol-bis3/peppol-base-example.xml'),
    );
    await settledIngestionInvoice(tenant.ingestionToken, first.body.invoice_id);
    const supplierId = (await tenant.call(`/v1/invoices/${first.body.invoice_id}`)).body.supplier.id;
    const agreement = (
      await tenant.call('/v1/agreements', {
        method: 'POST',
        body: {
          title: 'Supplies',
          status: 'active',
          supplier_ids: [supplierId],
          effective_date: '2017-01-01',
          expiration_date: '2017-12-31',
          instructions: 'x',
        },
      })
    ).body;

    const second = await ingestionUpload(
      tenant.ingestionToken,
      'allowance.xml',
      sample('peppol-bis3/peppol-allowance-example.xml'),
    );
    await settledIngestionInvoice(tenant.ingestionToken, second.body.invoice_id);
    const matches = await tenant.call(`/v1/invoices/${second.body.invoice_id}/agreements`);
    expect(matches.body.data).toEqual([
      {
        id: agreement.id,
        agreement: expect.objectContaining({ id: agreement.id, title: 'Supplies' }),
        reasons: expect.arrayContaining(['issued within the agreement period']),
        matched_at: expect.any(String),
      },
    ]);
    const invoice = await tenant.call(`/v1/invoices/${second.body.invoice_id}`);
    expect(invoice.body.alerts.agreements.total).toBe(1);
    // The first invoice came before the agreement: it matches once the agreement's invoices are refreshed.
    expect(await matchedAgreementIds(tenant, first.body.invoice_id)).toEqual([]);
    const run = await refreshed(tenant, `/v1/agreements/${agreement.id}/invoices/refresh`);
    expect(run.progress).toMatchObject({ total: 1, completed: 1 });
    expect(await matchedAgreementIds(tenant, first.body.invoice_id)).toEqual([agreement.id]);
    const filtered = await tenant.call(`/v1/invoices?agreement_ids=${agreement.id}`);
    expect(filtered.body.data.map((i: any) => i.id).sort()).toEqual(
      [first.body.invoice_id, second.body.invoice_id].sort(),
    );
  });

  it('ends a match that no longer holds, and brings it back when it holds again', async () => {
    const tenant = await createTenant();
    const invoice = await invoiceFrom(tenant, { name: 'Acme', org_number: '111222333' }, 'A-1');
    const agreement = (
      await tenant.call('/v1/agreements', {
        method: 'POST',
        body: { title: 'Acme', supplier_ids: [invoice.supplier.id], effective_date: '2026-01-01' },
      })
    ).body;
    await refreshed(tenant, `/v1/invoices/${invoice.id}/agreements/refresh`);
    expect(await matchedAgreementIds(tenant, invoice.id)).toEqual([agreement.id]);

    // PATCH does not re-match by itself; a refresh does.
    await tenant.call(`/v1/agreements/${agreement.id}`, { method: 'PATCH', body: { effective_date: '2026-06-01' } });
    expect(await matchedAgreementIds(tenant, invoice.id)).toEqual([agreement.id]);
    await refreshed(tenant, `/v1/agreements/${agreement.id}/invoices/refresh`);
    expect(await matchedAgreementIds(tenant, invoice.id)).toEqual([]);
    const ended = await testDb().invoiceAgreementMatch.findFirstOrThrow({ where: { invoiceId: invoice.id } });
    expect(ended).toMatchObject({ active: false, endedAt: expect.any(Date) });

    await tenant.call(`/v1/agreements/${agreement.id}`, { method: 'PATCH', body: { effective_date: '2026-01-01' } });
    await refreshed(tenant, `/v1/invoices/${invoice.id}/agreements/refresh`);
    expect(await matchedAgreementIds(tenant, invoice.id)).toEqual([agreement.id]);
    const restored = await testDb().invoiceAgreementMatch.findFirstOrThrow({ where: { invoiceId: invoice.id } });
    expect(restored).toMatchObject({ active: true, endedAt: null, matchedAt: ended.matchedAt });
  });

  it('with smart matching on, finds an invoice whose supplier is not linked yet by its name', async () => {
    const tenant = await createTenant();
    const known = await invoiceFrom(tenant, { name: 'Nordic Paper AS' }, 'N-1');
    const unlinked = await invoiceFrom(tenant, { name: 'NORDIC PAPER', vat_id: 'NO999888777MVA' }, 'N-2');
    expect(unlinked.supplier.id).not.toBe(known.supplier.id);
    const agreement = (
      await tenant.call('/v1/agreements', {
        method: 'POST',
        body: { title: 'Paper', supplier_ids: [known.supplier.id] },
      })
    ).body;
    await refreshed(tenant, `/v1/agreements/${agreement.id}/invoices/refresh`);
    expect(await matchedAgreementIds(tenant, unlinked.id)).toEqual([]);
    await updateOrganizationSettings(testDb(), tenant.organizationId, { smartMatching: true });
    await refreshed(tenant, `/v1/agreements/${agreement.id}/invoices/refresh`);
    const matches = await tenant.call(`/v1/invoices/${unlinked.id}/agreements`);
    expect(matches.body.data[0].reasons[0]).toContain('smart matching');
  });

  it("refuses another organization's invoice or agreement", async () => {
    const owner = await createTenant();
    const stranger = await createTenant();
    const invoice = await invoiceFrom(owner, { name: 'X' }, 'X-1');
    expectError(
      await stranger.call(`/v1/invoices/${invoice.id}/agreements/refresh`, { method: 'POST' }),
      404,
      'not_found',
    );
    expectError(await stranger.call(`/v1/invoices/${invoice.id}/agreements`), 404, 'not_found');
  });
});
