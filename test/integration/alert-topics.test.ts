import { describe, expect, it } from 'vitest';
import { invoiceOf, matchedAgreement, newSupplier, postAlert } from '../support/alerts.js';
import { expectError } from '../support/api.js';
import { createTenant, testDb, type Tenant } from '../support/tenants.js';

// Two agreements of one organization, each with a matched invoice and three alerts.
async function setup(tenant: Tenant) {
  const make = async (title: string) => {
    const invoice = await invoiceOf(tenant, newSupplier(title));
    const agreementId = await matchedAgreement(tenant, [invoice.supplier.id], title);
    const alerts = [];
    for (let i = 0; i < 3; i += 1)
      alerts.push(
        (await postAlert(tenant, { invoice_id: invoice.id, agreement_id: agreementId, title: `${title} ${i}` }))
          .id as string,
      );
    return { agreementId, alerts };
  };
  return { acme: await make('Acme'), other: await make('Other') };
}

const createTopic = (tenant: Tenant, body: object) => tenant.call('/v1/alert-topics', { method: 'POST', body });
const topicsOf = async (tenant: Tenant, query = '') =>
  (await tenant.call(`/v1/alert-topics?${query}`)).body.data as any[];
const topicOf = async (tenant: Tenant, alertId: string) => (await tenant.call(`/v1/alerts/${alertId}`)).body.topic_id;

describe('alert topics', () => {
  it('are created on an agreement with its alerts, listed without empty ones unless asked, and edited', async () => {
    const tenant = await createTenant();
    const { acme, other } = await setup(tenant);
    const created = await createTopic(tenant, {
      agreement_id: acme.agreementId,
      title: 'Freight',
      description: 'Freight charges',
      alert_ids: [acme.alerts[0], acme.alerts[1]],
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      agreement_id: acme.agreementId,
      title: 'Freight',
      description: 'Freight charges',
      is_locked: false,
      alert_count: 2,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await topicOf(tenant, acme.alerts[0]!)).toBe(created.body.id);

    // Alerts of another agreement, or unknown ones, are refused and nothing is created.
    const mixed = await createTopic(tenant, {
      agreement_id: acme.agreementId,
      title: 'Mixed',
      alert_ids: [acme.alerts[2], other.alerts[0]],
    });
    expectError(mixed, 400, 'validation_error');
    expect(mixed.body.error.details).toEqual([
      { field: 'alert_ids', message: `alert ${other.alerts[0]} belongs to another agreement` },
    ]);
    expectError(await createTopic(tenant, { agreement_id: crypto.randomUUID(), title: 'X' }), 400, 'validation_error');
    expect(await testDb().alertTopic.count({ where: { organizationId: tenant.organizationId } })).toBe(1);

    const empty = (await createTopic(tenant, { agreement_id: other.agreementId, title: 'Later', is_locked: true }))
      .body;
    expect(empty).toMatchObject({ alert_count: 0, is_locked: true });
    expect((await topicsOf(tenant)).map((t) => t.id)).toEqual([created.body.id]);
    expect((await topicsOf(tenant, 'include_empty=true')).map((t) => t.id)).toEqual([empty.id, created.body.id]);
    expect((await topicsOf(tenant, `include_empty=true&agreement_ids=${other.agreementId}`)).map((t) => t.id)).toEqual([
      empty.id,
    ]);
    expect(
      (await topicsOf(tenant, 'include_empty=true&sort=title&direction=asc&fields=title')).map((t) => t.title),
    ).toEqual(['Freight', 'Later']);

    const patched = await tenant.call(`/v1/alert-topics/${created.body.id}`, {
      method: 'PATCH',
      body: { title: 'Freight and fees', is_locked: true },
    });
    expect(patched.body).toMatchObject({
      title: 'Freight and fees',
      description: 'Freight charges',
      is_locked: true,
      alert_count: 2,
    });
    expect(
      (await tenant.call(`/v1/alert-topics/${created.body.id}`, { method: 'PATCH', body: { description: null } })).body
        .description,
    ).toBeNull();
    expectError(
      await tenant.call(`/v1/alert-topics/${created.body.id}`, {
        method: 'PATCH',
        body: { agreement_id: other.agreementId },
      }),
      400,
      'validation_error',
    );
  });

  it('take alerts moved in; a topic emptied by moving stays; deleting a topic leaves its alerts uncategorized', async () => {
    const tenant = await createTenant();
    const { acme, other } = await setup(tenant);
    const first = (
      await createTopic(tenant, { agreement_id: acme.agreementId, title: 'First', alert_ids: [acme.alerts[0]] })
    ).body;
    const second = (await createTopic(tenant, { agreement_id: acme.agreementId, title: 'Second' })).body;

    const moved = await tenant.call(`/v1/alert-topics/${second.id}/alerts`, {
      method: 'POST',
      body: { alert_ids: [acme.alerts[0], acme.alerts[1]] },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ id: second.id, alert_count: 2 });
    expect(await topicOf(tenant, acme.alerts[0]!)).toBe(second.id);
    // Emptied by moving: it stays (listed with include_empty).
    expect((await topicsOf(tenant, 'include_empty=true')).find((t) => t.id === first.id)).toMatchObject({
      alert_count: 0,
    });
    expect((await topicsOf(tenant)).map((t) => t.id)).toEqual([second.id]);
    expectError(
      await tenant.call(`/v1/alert-topics/${second.id}/alerts`, {
        method: 'POST',
        body: { alert_ids: [other.alerts[0]] },
      }),
      400,
      'validation_error',
    );
    expect(await topicOf(tenant, other.alerts[0]!)).toBeNull();
    // Moving in through PATCH of the alert works as well, within the agreement.
    expect(
      (await tenant.call(`/v1/alerts/${acme.alerts[2]}`, { method: 'PATCH', body: { topic_id: first.id } })).body
        .topic_id,
    ).toBe(first.id);
    expectError(
      await tenant.call(`/v1/alerts/${other.alerts[0]}`, { method: 'PATCH', body: { topic_id: first.id } }),
      400,
      'validation_error',
    );

    expect((await tenant.call(`/v1/alert-topics/${second.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await topicOf(tenant, acme.alerts[0]!)).toBeNull();
    expect(await topicOf(tenant, acme.alerts[1]!)).toBeNull();
    expect(
      (await tenant.call(`/v1/alerts?topic_ids=null&agreement_ids=${acme.agreementId}`)).body.data
        .map((a: any) => a.id)
        .sort(),
    ).toEqual([acme.alerts[0], acme.alerts[1]].sort());
    expectError(await tenant.call(`/v1/alert-topics/${second.id}`, { method: 'DELETE' }), 404, 'not_found');
  });

  it('go when their last alerts are deleted, unless locked', async () => {
    const tenant = await createTenant();
    const { acme } = await setup(tenant);
    const unlocked = (
      await createTopic(tenant, {
        agreement_id: acme.agreementId,
        title: 'Unlocked',
        alert_ids: [acme.alerts[0], acme.alerts[1]],
      })
    ).body;
    const locked = (
      await createTopic(tenant, {
        agreement_id: acme.agreementId,
        title: 'Locked',
        is_locked: true,
        alert_ids: [acme.alerts[2]],
      })
    ).body;
    const exists = async (id: string) => (await testDb().alertTopic.count({ where: { id } })) === 1;

    expect((await tenant.call(`/v1/alerts/${acme.alerts[0]}`, { method: 'DELETE' })).status).toBe(204);
    expect(await exists(unlocked.id)).toBe(true);
    expect((await tenant.call(`/v1/alerts/${acme.alerts[1]}`, { method: 'DELETE' })).status).toBe(204);
    expect(await exists(unlocked.id)).toBe(false);

    const bulk = await tenant.call('/v1/alerts/delete', {
      method: 'POST',
      body: { filter: { topic_ids: [locked.id] } },
    });
    expect(bulk.body).toEqual({ deleted: [acme.alerts[2]], unchanged: [], skipped: [] });
    expect(await exists(locked.id)).toBe(true);
    expect((await topicsOf(tenant, 'include_empty=true')).map((t) => [t.id, t.alert_count])).toEqual([[locked.id, 0]]);
  });

  it("answers 404 for another organization's topic and lists none of them", async () => {
    const owner = await createTenant();
    const stranger = await createTenant();
    const { acme } = await setup(owner);
    const topic = (
      await createTopic(owner, { agreement_id: acme.agreementId, title: 'Mine', alert_ids: [acme.alerts[0]] })
    ).body;
    expectError(
      await stranger.call(`/v1/alert-topics/${topic.id}`, { method: 'PATCH', body: { title: 'Yours' } }),
      404,
      'not_found',
    );
    expectError(
      await stranger.call(`/v1/alert-topics/${topic.id}/alerts`, {
        method: 'POST',
        body: { alert_ids: [acme.alerts[1]] },
      }),
      404,
      'not_found',
    );
    expectError(
      await createTopic(stranger, { agreement_id: acme.agreementId, title: 'Theirs' }),
      400,
      'validation_error',
    );
    expect(await topicsOf(stranger, 'include_empty=true')).toEqual([]);
  });
});
