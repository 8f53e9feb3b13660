import { describe, expect, it } from 'vitest';
import { releaseSignal } from '../../workflows/testing.js';
import { eventually, expectError } from '../support/api.js';
import { startTestRun, testTemporal } from '../support/runs.js';
import { createTenant, testDb, type Tenant } from '../support/tenants.js';

async function supplier(tenant: Tenant, name: string): Promise<string> {
  const created = await tenant.call('/v1/invoices', {
    method: 'POST',
    body: {
      invoice_number: `S-${name}`,
      issue_date: '2026-01-10',
      currency_code: 'EUR',
      supplier: { name, org_number: String(Math.floor(Math.random() * 1e9)) },
      line_items: [{ description: 'x', quantity: '1', unit_price: '10', net_amount: '10' }],
      amounts: { excluding_vat: '10', vat: '0', including_vat: '10' },
    },
  });
  return created.body.supplier.id;
}

const create = (tenant: Tenant, body: object) => tenant.call('/v1/agreements', { method: 'POST', body });

describe('agreements', () => {
  it('are drafts by default, and say what they still miss before checks can run', async () => {
    const tenant = await createTenant();
    const response = await create(tenant, {});
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe(`/v1/agreements/${response.body.id}`);
    expect(response.body).toMatchObject({
      status: 'draft',
      title: null,
      supplier_ids: [],
      recipient_ids: [],
      tag_ids: [],
      renewal_action: { kind: null, deadline: null },
      readiness: { ready: false, missing: ['title', 'supplier', 'active_status', 'usable_terms'] },
    });
    const acme = await supplier(tenant, 'Acme');
    const ready = await create(tenant, {
      title: 'Office supplies 2026',
      status: 'active',
      supplier_ids: [acme],
      instructions: 'Paper at 4.20 per ream.',
    });
    expect(ready.body.readiness).toEqual({ ready: true, missing: [] });
  });

  it('refuses what cannot be right and stores nothing', async () => {
    const tenant = await createTenant();
    expectError(await create(tenant, { status: 'active' }), 400, 'validation_error');
    const dates = await create(tenant, { effective_date: '2026-05-01', expiration_date: '2026-04-01' });
    expectError(dates, 400, 'validation_error');
    expect(dates.body.error.details[0].field).toBe('expiration_date');
    const unknown = await create(tenant, { title: 'X', supplier_ids: [crypto.randomUUID()] });
    expectError(unknown, 400, 'validation_error');
    expect(unknown.body.error.details[0].field).toBe('supplier_ids');
    expectError(
      await create(tenant, { applicability: { delivery_country_codes: ['Norway'] } }),
      400,
      'validation_error',
    );
    expectError(await create(tenant, { colour: 'blue' }), 400, 'validation_error');
    expect(await testDb().agreement.count({ where: { organizationId: tenant.organizationId } })).toBe(0);
  });

  it('patches only sent fields, replaces lists and objects whole, and honours If-Match', async () => {
    const tenant = await createTenant();
    const [a, b] = [await supplier(tenant, 'A'), await supplier(tenant, 'B')];
    const created = await create(tenant, {
      title: 'Cleaning',
      supplier_ids: [a],
      applicability: { buyer_references: ['R1'], delivery_country_codes: ['NO'] },
      instructions: 'Weekly cleaning at a fixed fee.',
    });
    const read = await tenant.call(`/v1/agreements/${created.body.id}`);
    const etag = read.headers.get('etag')!;
    expectError(
      await tenant.call(`/v1/agreements/${created.body.id}`, {
        method: 'PATCH',
        body: { title: 'X' },
        headers: { 'If-Match': '"stale"' },
      }),
      412,
      'precondition_failed',
    );
    const patched = await tenant.call(`/v1/agreements/${created.body.id}`, {
      method: 'PATCH',
      headers: { 'If-Match': etag },
      body: { supplier_ids: [b], applicability: { currency_codes: ['EUR'] } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      title: 'Cleaning',
      instructions: 'Weekly cleaning at a fixed fee.',
      supplier_ids: [b],
      applicability: { currency_codes: ['EUR'] },
    });
    expect(patched.body.applicability.buyer_references).toBeUndefined();
    expectError(
      await tenant.call(`/v1/agreements/${created.body.id}`, {
        method: 'PATCH',
        body: { status: 'active', title: null },
      }),
      400,
      'validation_error',
    );
  });

  it('shows and acts on the renewal due next, filtering and sorting by it', async () => {
    const tenant = await createTenant();
    const autoRenewing = await create(tenant, {
      title: 'Auto',
      expiration_date: '2026-12-31',
      renewal: { auto_renews: true, period_months: 12, notice_days: 90 },
    });
    expect(autoRenewing.body.renewal_action).toEqual({ kind: 'cancel_by', deadline: '2026-10-02' });
    const fixedTerm = await create(tenant, {
      title: 'Fixed',
      expiration_date: '2026-08-31',
      renewal: { period_months: 6, notice_days: 30 },
    });
    expect(fixedTerm.body.renewal_action).toEqual({ kind: 'renew_by', deadline: '2026-08-01' });
    const open = await create(tenant, { title: 'Open-ended' });

    const byDeadline = await tenant.call('/v1/agreements?sort=renewal_deadline&limit=2');
    expect(byDeadline.body.data.map((a: any) => a.id)).toEqual([fixedTerm.body.id, autoRenewing.body.id]);
    const rest = await tenant.call(
      `/v1/agreements?sort=renewal_deadline&limit=2&cursor=${encodeURIComponent(byDeadline.body.next_cursor)}`,
    );
    expect(rest.body.data.map((a: any) => a.id)).toEqual([open.body.id]);
    const cancelBy = await tenant.call(
      '/v1/agreements?renewal_action_kinds=cancel_by&renewal_deadline_through=2026-12-01',
    );
    expect(cancelBy.body.data.map((a: any) => a.id)).toEqual([autoRenewing.body.id]);

    const extended = await tenant.call(`/v1/agreements/${fixedTerm.body.id}`, {
      method: 'PATCH',
      body: { renewal_action: { type: 'extend' } },
    });
    expect(extended.body).toMatchObject({
      expiration_date: '2027-02-28',
      renewal_action: { kind: 'renew_by', deadline: '2027-01-29' },
    });
    const cancelled = await tenant.call(`/v1/agreements/${autoRenewing.body.id}`, {
      method: 'PATCH',
      body: { renewal_action: { type: 'cancel', expiration_date: '2026-11-30' } },
    });
    expect(cancelled.body).toMatchObject({
      expiration_date: '2026-11-30',
      renewal: { auto_renews: false },
      renewal_action: { kind: 'renew_by' },
    });
    expectError(
      await tenant.call(`/v1/agreements/${open.body.id}`, {
        method: 'PATCH',
        body: { renewal_action: { type: 'extend' } },
      }),
      400,
      'validation_error',
    );
  });

  it('has tags, unique by name, and filters by them', async () => {
    const tenant = await createTenant();
    const it1 = await tenant.call('/v1/agreements/tags', { method: 'POST', body: { name: 'IT' } });
    expect(it1.status).toBe(201);
    const duplicate = await tenant.call('/v1/agreements/tags', { method: 'POST', body: { name: 'IT' } });
    expectError(duplicate, 409, 'tag_exists');
    expect(duplicate.body.existing_tag_id).toBe(it1.body.id);
    const tagged = await create(tenant, { title: 'Laptops', tag_ids: [it1.body.id] });
    await create(tenant, { title: 'Coffee' });
    expect((await tenant.call('/v1/agreements/tags')).body.data.map((t: any) => t.name)).toEqual(['IT']);
    expect((await tenant.call(`/v1/agreements?tag_ids=${it1.body.id}`)).body.data.map((a: any) => a.id)).toEqual([
      tagged.body.id,
    ]);
    expect((await tenant.call('/v1/agreements?search=coff')).body.data.map((a: any) => a.title)).toEqual(['Coffee']);
    const other = await createTenant();
    expectError(await create(other, { title: 'X', tag_ids: [it1.body.id] }), 400, 'validation_error');
  });

  it('deletes permanently, but not while a run still works on the agreement', async () => {
    const tenant = await createTenant();
    const agreement = await create(tenant, { title: 'Temporary' });
    const runId = await startTestRun(
      tenant,
      { items: [{ key: 'a', behaviour: 'succeed' }], holdUntilReleased: true },
      'test_items',
      { type: 'agreement', id: agreement.body.id },
    );
    const busy = await tenant.call(`/v1/agreements/${agreement.body.id}`, { method: 'DELETE' });
    expectError(busy, 409, 'agreement_busy');
    expect(busy.body.workflow_run_ids).toEqual([runId]);
    await (await testTemporal()).workflow.getHandle(runId).signal(releaseSignal);
    await eventually(
      () => tenant.call(`/v1/workflow-runs/${runId}`),
      (r) => r.body.status === 'completed',
    );
    expect((await tenant.call(`/v1/agreements/${agreement.body.id}`, { method: 'DELETE' })).status).toBe(204);
    expectError(await tenant.call(`/v1/agreements/${agreement.body.id}`), 404, 'not_found');
  });

  it('lets a read key read agreements but not change them', async () => {
    const tenant = await createTenant({ role: 'read' });
    expect((await tenant.call('/v1/agreements')).status).toBe(200);
    expectError(await create(tenant, { title: 'No' }), 403, 'insufficient_level');
  });
});
