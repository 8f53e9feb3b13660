import { describe, expect, it } from 'vitest';
import { allRoutes } from '../../src/routes.js';
import { matchedAgreement, postAlert } from '../support/alerts.js';
import { eventually, expectError } from '../support/api.js';
import { importDocument, sample, settledImport, uploadDocument } from '../support/invoices.js';
import { startTestRun } from '../support/runs.js';
import { createTenant, testDb } from '../support/tenants.js';

// Every route that names a record by id, called with another organization's credential, answers
// 404 — never 403, never the record. The list comes from the route table, so no route is missed.

describe('tenancy', () => {
  it("answers 404 for another organization's records on every route with an id", async () => {
    const owner = await createTenant();
    const stranger = await createTenant();
    const documentId = await uploadDocument(owner, 'base.xml', sample('peppol-bis3/peppol-base-example.xml'));
    const started = await importDocument(owner, documentId);
    const imported = await settledImport(owner, started.body.id);
    const supplierId = (await owner.call(`/v1/invoices/${imported.invoice_id}`)).body.supplier.id;
    const agreementId = await matchedAgreement(owner, [supplierId], 'Alerts');
    await owner.call(`/v1/agreements/${agreementId}`, {
      method: 'PATCH',
      body: { status: 'active', instructions: 'Prices as agreed.' },
    });
    const check = await owner.call(`/v1/invoices/${imported.invoice_id}/check`, { method: 'POST' });
    await eventually(
      () => owner.call(`/v1/workflow-runs/${check.body.workflow_run_id}`),
      (r) => r.body.status === 'completed',
    );
    const checkId = (await owner.call(`/v1/compliance-checks?invoice_ids=${imported.invoice_id}`)).body.data[0].id;
    const alert = await postAlert(owner, { invoice_id: imported.invoice_id, agreement_id: agreementId });
    const topic = await owner.call('/v1/alert-topics', {
      method: 'POST',
      body: { agreement_id: agreementId, title: 'Topic', alert_ids: [alert.id] },
    });
    // A webhook channel of the owner and a delivery to it (written directly: no event needed to exist).
    const preference = await owner.call('/v1/notification-preferences', {
      method: 'PUT',
      body: {
        preferences: [
          {
            owner: 'personal',
            scope: 'organization',
            sources: [],
            channels: [
              { type: 'webhook', enabled: false, events: ['new_alert'], url: 'https://hooks.example.test/in' },
            ],
          },
        ],
      },
    });
    const channelId = preference.body.preferences[0].channels[0].id;
    const event = await testDb().notificationEvent.create({
      data: {
        id: crypto.randomUUID(),
        organizationId: owner.organizationId,
        preferenceId: crypto.randomUUID(),
        kind: 'new_alert',
        payload: {},
      },
    });
    const delivery = await testDb().notificationDelivery.create({
      data: {
        id: crypto.randomUUID(),
        organizationId: owner.organizationId,
        eventId: event.id,
        channelId,
        channelType: 'webhook',
        kind: 'new_alert',
        status: 'failed',
      },
    });
    // One record of the owner per collection, keyed by the path up to its {id}.
    const records: Record<string, string> = {
      '/v1/alerts/': alert.id,
      '/v1/teams/': (
        await owner.call('/v1/teams', { method: 'POST', body: { name: 'Owner team', user_ids: [], filter: null } })
      ).body.id,
      '/v1/compliance-checks/': checkId,
      '/v1/alert-topics/': topic.body.id,
      '/v1/workflow-runs/': await startTestRun(owner, { items: [] }),
      '/v1/documents/': documentId,
      '/v1/invoices/imports/': imported.id,
      '/v1/invoices/': imported.invoice_id,
      '/v1/agreements/': (await owner.call('/v1/agreements', { method: 'POST', body: { title: 'Owner agreement' } }))
        .body.id,
      '/v1/notification-channels/': channelId,
      '/v1/notification-deliveries/': delivery.id,
      '/v1/claims/': (
        await owner.call('/v1/claims', {
          method: 'POST',
          body: { agreement_id: agreementId, title: 'Owner claim', alerts: { alert_ids: [alert.id] } },
        })
      ).body.id,
      '/v1/integrations/': (
        await owner.call('/v1/integrations', {
          method: 'POST',
          body: {
            provider: 's3_inbox',
            name: 'Inbox',
            credentials: { endpoint: 'http://127.0.0.1:9', bucket: 'owner-inbox', access_key: 'a', secret_key: 'b' },
          },
        })
      ).body.id,
      '/v1/comments/': (
        await owner.call('/v1/comments', {
          method: 'POST',
          body: { entity_type: 'alert', entity_id: alert.id, body: 'Owner comment' },
        })
      ).body.id,
    };
    const routes = allRoutes.filter((route) => route.path.includes('{id}'));
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) {
      const collection = route.path.slice(0, route.path.indexOf('{id}'));
      expect(records[collection], `no record fixture for ${route.path}`).toBeDefined();
      const request = (id: string) =>
        stranger.call(
          route.path.replace('{id}', id).replace(/\{\w+\}/g, () => crypto.randomUUID()),
          { method: route.method.toUpperCase(), body: route.method === 'get' ? undefined : {} },
        );
      const foreign = await request(records[collection]!);
      const missing = await request(crypto.randomUUID());
      // Answered exactly as an id that does not exist: 404, or the body's validation_error first.
      expect([foreign.status, foreign.body?.error?.code], `${route.method} ${route.path}`).toEqual([
        missing.status,
        missing.body?.error?.code,
      ]);
      if (route.method === 'get' || !route.body) expectError(foreign, 404, 'not_found');
      else expect([400, 404]).toContain(foreign.status);
    }
  });

  it("never lists another organization's records", async () => {
    const owner = await createTenant();
    const stranger = await createTenant();
    await startTestRun(owner, { items: [] });
    const list = await stranger.call('/v1/workflow-runs');
    expect(list.body.data).toEqual([]);
  });
});
