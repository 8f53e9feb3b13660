import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addMember, createApiKey } from '../../src/admin/service.js';
import { createSession } from '../../src/auth/sessions.js';
import { eventually, expectError } from '../support/api.js';
import { agreementWithPrice, rematch, settledRun, uploadedInvoice } from '../support/checks.js';
import { dispatchesFinished } from '../support/runs.js';
import { createTenant, testDb, type Tenant } from '../support/tenants.js';

// The organization's channels over HTTP against the real stack: an Admin lists and turns off any
// of them, a removed member's personal channels end with the membership (a check run after the
// removal reaches the organization's receiver only), and a webhook receiver that trickles its
// answer is cut off at the delivery deadline (WEBHOOK_TIMEOUT_SECONDS, 3 s in the test stack).

interface Seen {
  path: string;
  at: number;
}

// Answers 200 at once, except under /trickle/: a 200 status line, then one byte every 300 ms,
// never ending; `closed` records when the sender hung up.
class Receiver {
  seen: Seen[] = [];
  closed: Seen[] = [];
  server!: Server;
  url = '';

  async start() {
    this.server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        const path = request.url ?? '/';
        this.seen.push({ path, at: Date.now() });
        if (!path.startsWith('/trickle/')) {
          response.statusCode = 200;
          response.end();
          return;
        }
        response.writeHead(200, { 'content-type': 'text/plain' });
        const drip = setInterval(() => response.write('.'), 300);
        response.on('close', () => {
          clearInterval(drip);
          this.closed.push({ path, at: Date.now() });
        });
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  at(path: string) {
    return this.seen.filter((s) => s.path === path);
  }
}

const receiver = new Receiver();
beforeAll(() => receiver.start());
afterAll(async () => {
  receiver.server.closeAllConnections();
  await new Promise((resolve) => receiver.server.close(resolve));
});

async function putPreference(tenant: Tenant, preference: Record<string, unknown>, owner = 'personal', token?: string) {
  const response = await tenant.call(`/v1/notification-preferences?owner=${owner}`, {
    method: 'PUT',
    body: { preferences: [preference] },
    ...(token ? { token } : {}),
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.preferences[0];
}

// An invoice matched to an agreement whose price it exceeds: a check of it creates alerts.
async function checkablePair(tenant: Tenant) {
  const invoice = await uploadedInvoice(tenant);
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
  return invoice;
}

async function checkCreatingAlerts(tenant: Tenant, invoiceId: string) {
  const started = await tenant.call(`/v1/invoices/${invoiceId}/check`, { method: 'POST', body: {} });
  expect(started.status).toBe(202);
  expect((await settledRun(tenant, started.body.workflow_run_id)).status).toBe('completed');
  expect((await tenant.call(`/v1/alerts?invoice_ids=${invoiceId}`)).body.data.length).toBeGreaterThanOrEqual(1);
}

// The web application's member removal, as an Admin's browser sends it (session cookie and the
// session's CSRF token).
async function removeMemberInTheApplication(admin: Tenant, userId: string) {
  const { token, session } = await createSession(
    testDb(),
    { SESSION_IDLE_HOURS: 12, SESSION_MAX_DAYS: 30 },
    { userId: admin.userId, organizationId: admin.organizationId },
  );
  const response = await fetch(`${inject('apiUrl')}/app/settings/members/${userId}/remove`, {
    method: 'POST',
    redirect: 'manual',
    headers: { Cookie: `ics_session=${token}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: session.csrfSecret }).toString(),
  });
  expect([302, 303]).toContain(response.status);
}

describe('notification channels of the organization', () => {
  it('are listed and turned off by an Admin; a removed member hears nothing more, the organization still does', async () => {
    const admin = await createTenant();
    const member = await addMember(testDb(), {
      organizationId: admin.organizationId,
      email: `${randomUUID()}@example.test`,
      name: 'Member',
      role: 'write',
    });
    const memberKey = (
      await createApiKey(testDb(), { organizationId: admin.organizationId, userId: member.id, level: 'write' })
    ).key;
    const invoice = await checkablePair(admin);

    const mine = `/member-${randomUUID()}`;
    const theirs = `/organization-${randomUUID()}`;
    const personal = await putPreference(
      admin,
      {
        owner: 'personal',
        scope: 'organization',
        sources: [
          {
            name: 'Supplier',
            filter: { schema_version: 1, references: [{ type: 'supplier', id: invoice.supplier.id }] },
          },
        ],
        channels: [
          { type: 'webhook', enabled: true, events: ['new_alert'], url: `${receiver.url}${mine}` },
          {
            type: 'email',
            enabled: true,
            events: ['new_alert'],
            address: `member-${admin.organizationId}@example.test`,
          },
        ],
      },
      'personal',
      memberKey,
    );
    const [memberWebhook, memberEmail] = personal.channels;
    const organization = await putPreference(
      admin,
      {
        owner: 'organization',
        scope: 'organization',
        sources: [],
        channels: [{ type: 'webhook', enabled: true, events: ['new_alert'], url: `${receiver.url}${theirs}` }],
      },
      'organization',
    );
    const organizationWebhook = organization.channels[0];

    // An Admin sees every channel: whose it is and where it sends, never a secret.
    const listed = await admin.call('/v1/notification-channels');
    expect(listed.status).toBe(200);
    expect(listed.body.next_cursor).toBeNull();
    // Oldest first; the member's two channels were added together (either order).
    const ids = listed.body.data.map((c: { id: string }) => c.id);
    expect([ids.slice(0, 2).sort(), ids[2]]).toEqual([
      [memberWebhook.id, memberEmail.id].sort(),
      organizationWebhook.id,
    ]);
    expect(listed.body.data.find((c: { id: string }) => c.id === memberWebhook.id)).toEqual({
      id: memberWebhook.id,
      owner: 'personal',
      user_id: member.id,
      type: 'webhook',
      enabled: true,
      events: ['new_alert'],
      readiness: 'ready',
      url: `${receiver.url}${mine}`,
      secret_set: true,
      created_at: expect.any(String),
    });
    expect(listed.body.data[2]).toMatchObject({ owner: 'organization', user_id: null, secret_set: true });
    expect(JSON.stringify(listed.body)).not.toContain(memberWebhook.secret);
    expect(
      (await admin.call(`/v1/notification-channels?user_ids=${member.id}&types=email`)).body.data.map(
        (c: { id: string }) => c.id,
      ),
    ).toEqual([memberEmail.id]);
    expect((await admin.call('/v1/notification-channels?owner=organization&fields=url')).body.data).toEqual([
      { id: organizationWebhook.id, url: `${receiver.url}${theirs}` },
    ]);
    const paged = await admin.call('/v1/notification-channels?limit=2');
    expect(paged.body.data).toHaveLength(2);
    expect(
      (
        await admin.call(`/v1/notification-channels?limit=2&cursor=${encodeURIComponent(paged.body.next_cursor)}`)
      ).body.data.map((c: { id: string }) => c.id),
    ).toEqual([organizationWebhook.id]);
    // Below Admin: no list, and nobody else's channel; one's own can be turned off and on.
    expectError(await admin.call('/v1/notification-channels', { token: memberKey }), 403, 'insufficient_level');
    expectError(
      await admin.call(`/v1/notification-channels/${organizationWebhook.id}`, {
        method: 'PATCH',
        body: { enabled: false },
        token: memberKey,
      }),
      403,
      'insufficient_level',
    );
    const adminsOwn = await putPreference(admin, {
      owner: 'personal',
      scope: 'organization',
      sources: [],
      channels: [{ type: 'email', enabled: true, events: ['new_alert'] }],
    });
    expectError(
      await admin.call(`/v1/notification-channels/${adminsOwn.channels[0].id}`, { token: memberKey }),
      404,
      'not_found',
    );
    expect(
      (
        await admin.call(`/v1/notification-channels/${memberEmail.id}`, {
          method: 'PATCH',
          body: { enabled: false },
          token: memberKey,
        })
      ).body.enabled,
    ).toBe(false);
    expect(
      (
        await admin.call(`/v1/notification-channels/${memberEmail.id}`, {
          method: 'PATCH',
          body: { enabled: true },
          token: memberKey,
        })
      ).body.enabled,
    ).toBe(true);

    // The Admin turns the member's e-mail channel off: the member's own document shows it.
    const read = await admin.call(`/v1/notification-channels/${memberEmail.id}`);
    expect(read.headers.get('etag')).toMatch(/^".+"$/);
    expectError(
      await admin.call(`/v1/notification-channels/${memberEmail.id}`, {
        method: 'PATCH',
        body: { enabled: false },
        headers: { 'If-Match': '"stale"' },
      }),
      412,
      'precondition_failed',
    );
    const refused = await admin.call(`/v1/notification-channels/${memberEmail.id}`, {
      method: 'PATCH',
      body: { ...read.body, enabled: false, address: 'admin@example.test' },
    });
    expectError(refused, 400, 'validation_error');
    expect(refused.body.error.details).toEqual([expect.objectContaining({ field: 'address' })]);
    const off = await admin.call(`/v1/notification-channels/${memberEmail.id}`, {
      method: 'PATCH',
      body: { ...read.body, enabled: false },
      headers: { 'If-Match': read.headers.get('etag')! },
    });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ enabled: false, readiness: 'disabled' });
    const memberView = await admin.call('/v1/notification-preferences', { token: memberKey });
    expect(memberView.body.preferences[0].channels.map((c: { readiness: string }) => c.readiness)).toEqual([
      'ready',
      'disabled',
    ]);

    // A delivery still waiting for the member's webhook when they are removed.
    const event = await testDb().notificationEvent.create({
      data: {
        id: randomUUID(),
        organizationId: admin.organizationId,
        preferenceId: randomUUID(),
        kind: 'new_alert',
        payload: {},
      },
    });
    const waiting = await testDb().notificationDelivery.create({
      data: {
        id: randomUUID(),
        organizationId: admin.organizationId,
        eventId: event.id,
        channelId: memberWebhook.id,
        channelType: 'webhook',
        kind: 'new_alert',
        status: 'pending',
        attempts: 1,
      },
    });

    await removeMemberInTheApplication(admin, member.id);
    expect((await admin.call('/v1/notification-channels')).body.data.map((c: { id: string }) => c.id)).toEqual([
      organizationWebhook.id,
      adminsOwn.channels[0].id,
    ]);
    expectError(await admin.call(`/v1/notification-channels/${memberWebhook.id}`), 404, 'not_found');
    expect(await testDb().notificationDelivery.findUniqueOrThrow({ where: { id: waiting.id } })).toMatchObject({
      status: 'failed',
      lastError: "the channel's owner left the organization",
    });

    // A check after the removal: the organization's receiver hears of it, the member's does not.
    await checkCreatingAlerts(admin, invoice.id);
    await eventually(
      async () => receiver.at(theirs),
      (seen) => seen.length === 1,
      60_000,
    );
    // Two more dispatches, so a message to the member would have been sent by now.
    await dispatchesFinished(2);
    expect(receiver.at(mine)).toEqual([]);
    expect(
      await testDb().notificationDelivery.count({
        where: { channelId: { in: [memberWebhook.id, memberEmail.id] }, id: { not: waiting.id } },
      }),
    ).toBe(0);
  });

  it('cuts a webhook attempt off at the deadline while the receiver trickles its answer, and tries again', async () => {
    const tenant = await createTenant();
    const invoice = await checkablePair(tenant);
    const slow = `/trickle/${randomUUID()}`;
    const organization = await putPreference(
      tenant,
      {
        owner: 'organization',
        scope: 'organization',
        sources: [],
        channels: [{ type: 'webhook', enabled: true, events: ['new_alert'], url: `${receiver.url}${slow}` }],
      },
      'organization',
    );
    await checkCreatingAlerts(tenant, invoice.id);

    // Each attempt ends at the deadline (3 s) although bytes keep coming, and is retried.
    const retried = await eventually(
      () => tenant.call(`/v1/notification-deliveries?channel_ids=${organization.channels[0].id}`),
      (r) => r.body.data?.[0]?.attempts >= 2,
      60_000,
    );
    expect(retried.body.data[0]).toMatchObject({
      last_error: 'the receiver did not answer within 3 s',
      last_status_code: null,
    });
    const first = receiver.at(slow)[0]!;
    const hungUp = receiver.closed.find((c) => c.path === slow)!;
    expect(hungUp).toBeDefined();
    // Hung up at the deadline: not before it, and long before the activity's own 1-minute timeout.
    expect(hungUp.at - first.at).toBeGreaterThanOrEqual(2500);
    expect(hungUp.at - first.at).toBeLessThan(20_000);
  });
});
