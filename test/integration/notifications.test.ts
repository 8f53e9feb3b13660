import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { addMember, createApiKey } from '../../src/admin/service.js';
import { connectTemporal } from '../../src/temporal/client.js';
import { eventually, expectError } from '../support/api.js';
import { agreementWithPrice, rematch, settledRun, uploadedInvoice } from '../support/checks.js';
import { dispatchesFinished } from '../support/runs.js';
import { startSmtpReceiver, type SmtpReceiver } from '../support/smtp-receiver.js';
import { createTenant, keyFor, testDb, type Tenant } from '../support/tenants.js';

// Notification preferences and delivery over HTTP against the real stack: the scheduled dispatch,
// the delivery workflows, a webhook receiver that verifies signatures with the standardwebhooks
// package, and a local SMTP server.

interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  payload: any;
  verified: boolean;
  answered: number;
}

// A webhook receiver: each path answers 500 for its first `failFirst` requests (or always), then 200.
class Receiver {
  received: Received[] = [];
  secrets = new Map<string, string>();
  failures = new Map<string, number>();
  server!: Server;
  url = '';

  async start() {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => {
        const path = request.url ?? '/';
        const body = Buffer.concat(chunks).toString('utf8');
        const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
        let verified: boolean;
        try {
          new Webhook(this.secrets.get(path) ?? 'whsec_AAAA').verify(body, headers);
          verified = true;
        } catch {
          verified = false;
        }
        const left = this.failures.get(path) ?? 0;
        const answered = left > 0 ? 500 : 200;
        if (left > 0) this.failures.set(path, left - 1);
        this.received.push({ path, headers, body, payload: JSON.parse(body), verified, answered });
        response.statusCode = answered;
        response.end();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  at(path: string) {
    return this.received.filter((r) => r.path === path);
  }
}

const receiver = new Receiver();
let smtp: SmtpReceiver;

beforeAll(async () => {
  await receiver.start();
  smtp = await startSmtpReceiver(Number(new URL(inject('stackEnv').SMTP_URL!).port));
});
afterAll(async () => {
  await new Promise((resolve) => receiver.server.close(resolve));
  await smtp?.stop();
});

async function putPreference(tenant: Tenant, preference: Record<string, unknown>, owner = 'personal', token?: string) {
  return tenant.call(`/v1/notification-preferences?owner=${owner}`, {
    method: 'PUT',
    body: { preferences: [preference] },
    ...(token ? { token } : {}),
  });
}

const readinessOf = (response: { body: any }) => response.body.preferences[0].channels.map((c: any) => c.readiness);

describe('notification preferences', () => {
  it('reads the default document, saves sources and channels, and computes every readiness value', async () => {
    const tenant = await createTenant();
    const initial = await tenant.call('/v1/notification-preferences');
    expect(initial.status).toBe(200);
    expect(initial.body).toEqual({ preferences: [{ owner: 'personal', scope: 'mine', sources: [], channels: [] }] });
    const organization = await tenant.call('/v1/notification-preferences?owner=organization');
    expect(organization.body).toEqual({
      preferences: [{ owner: 'organization', scope: 'organization', sources: [], channels: [] }],
    });

    const noSources = await putPreference(tenant, {
      owner: 'personal',
      scope: 'mine',
      sources: [],
      channels: [{ type: 'email', enabled: true, events: ['new_alert'] }],
    });
    expect(noSources.status, JSON.stringify(noSources.body)).toBe(200);
    expect(readinessOf(noSources)).toEqual(['no_sources']);

    const invoice = await uploadedInvoice(tenant);
    const gone = randomUUID();
    const source = {
      name: 'My supplier',
      filter: {
        schema_version: 1,
        references: [
          { type: 'supplier', id: invoice.supplier.id },
          { type: 'agreement', id: gone },
        ],
      },
    };
    const saved = await putPreference(tenant, {
      owner: 'personal',
      scope: 'organization',
      sources: [source],
      channels: [
        { type: 'email', enabled: true, events: ['new_alert', 'agreement_expiring'] },
        { type: 'email', enabled: false, events: ['new_alert'], address: 'someone@example.test' },
        { type: 'email', enabled: true, events: [], address: 'someone@example.test' },
        { type: 'webhook', enabled: true, events: ['new_alert'], url: 'http://169.254.169.254/latest/meta-data' },
        { type: 'webhook', enabled: true, events: ['new_alert'], url: 'https://localhost/hook' },
      ],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(readinessOf(saved)).toEqual([
      'ready',
      'disabled',
      'no_events',
      'invalid_destination',
      'invalid_destination',
    ]);
    const document = saved.body.preferences[0];
    expect(document.sources).toEqual([
      {
        id: expect.any(String),
        name: 'My supplier',
        personal: true,
        filter: source.filter,
        references: [
          { id: invoice.supplier.id, name: invoice.supplier.name, missing: false, type: 'supplier' },
          { id: gone, name: null, missing: true, type: 'agreement' },
        ],
      },
    ]);
    // A new webhook's secret is shown in the response that created it, and never again.
    expect(document.channels[3].secret).toMatch(/^whsec_/);
    const reread = await tenant.call('/v1/notification-preferences');
    expect(reread.body.preferences[0].channels[3]).toEqual(expect.objectContaining({ secret_set: true }));
    expect(reread.body.preferences[0].channels[3].secret).toBeUndefined();
    expect(reread.body.preferences[0].sources).toEqual(document.sources);

    // What was read can be sent back unchanged; channels keep their ids and secrets.
    const again = await putPreference(tenant, reread.body.preferences[0]);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.preferences[0].channels.map((c: any) => c.id)).toEqual(document.channels.map((c: any) => c.id));
    expect(again.body.preferences[0].channels[3].secret).toBeUndefined();

    // The organization's e-mail channel has no owner to fall back on: it needs an address.
    const orgPreference = await putPreference(
      tenant,
      {
        owner: 'organization',
        scope: 'organization',
        sources: [],
        channels: [
          { type: 'email', enabled: true, events: ['new_alert'] },
          { type: 'email', enabled: true, events: ['new_alert'], address: 'ap@example.test' },
        ],
      },
      'organization',
    );
    expect(orgPreference.status).toBe(200);
    expect(readinessOf(orgPreference)).toEqual(['invalid_destination', 'ready']);
  });

  it('rejects what does not validate, needs Admin for the organization, rotates secrets and keeps tenants apart', async () => {
    const tenant = await createTenant();
    const readKey = await keyFor(tenant, 'read');
    const channel = { type: 'webhook', enabled: true, events: ['new_alert'], url: 'https://hooks.example.test/in' };
    const personal = { owner: 'personal', scope: 'mine', sources: [], channels: [channel] };
    // Personal preferences need Read only; the organization's need Admin.
    const mine = await putPreference(tenant, personal, 'personal', readKey);
    expect(mine.status).toBe(200);
    expectError(
      await putPreference(
        tenant,
        { owner: 'organization', scope: 'organization', sources: [], channels: [] },
        'organization',
        readKey,
      ),
      403,
      'insufficient_level',
    );

    expectError(await putPreference(tenant, { ...personal, colour: 'red' }), 400, 'validation_error');
    expectError(
      await putPreference(tenant, { ...personal, owner: 'organization', scope: 'organization' }),
      400,
      'validation_error',
    );
    expectError(
      await putPreference(
        tenant,
        {
          owner: 'organization',
          scope: 'organization',
          sources: [{ name: 'x', filter: { schema_version: 1, references: [{ type: 'supplier', id: randomUUID() }] } }],
          channels: [],
        },
        'organization',
      ),
      400,
      'validation_error',
    );
    expectError(
      await putPreference(tenant, { ...personal, channels: [{ ...channel, events: ['new_alert', 'new_alert'] }] }),
      400,
      'validation_error',
    );
    expectError(
      await putPreference(tenant, { ...personal, channels: [{ ...channel, url: 'ftp://example.test/x' }] }),
      400,
      'validation_error',
    );
    expectError(
      await putPreference(tenant, { ...personal, channels: [{ ...channel, id: randomUUID() }] }),
      400,
      'validation_error',
    );
    const tooMany = {
      schema_version: 1,
      references: Array.from({ length: 101 }, () => ({ type: 'agreement', id: randomUUID() })),
    };
    expectError(
      await putPreference(tenant, { ...personal, sources: [{ name: 'x', filter: tooMany }] }),
      400,
      'validation_error',
    );
    // A rejected request changed nothing.
    expect(
      (await tenant.call('/v1/notification-preferences')).body.preferences[0].channels.map((c: any) => c.id),
    ).toEqual([mine.body.preferences[0].channels[0].id]);

    const channelId = mine.body.preferences[0].channels[0].id;
    const rotated = await tenant.call(`/v1/notification-channels/${channelId}/rotate-secret`, {
      method: 'POST',
      token: readKey,
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(mine.body.preferences[0].channels[0].secret);

    const other = await createTenant();
    expectError(
      await other.call(`/v1/notification-channels/${channelId}/rotate-secret`, { method: 'POST' }),
      404,
      'not_found',
    );
    expect((await other.call('/v1/notification-preferences')).body.preferences[0].channels).toEqual([]);
  });
});

describe('notification delivery', () => {
  it('sends one signed webhook and one e-mail per check run, retries a failing receiver, and replays a failed delivery', async () => {
    const tenant = await createTenant();
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

    const flaky = `/flaky-${randomUUID()}`;
    const broken = `/broken-${randomUUID()}`;
    receiver.failures.set(flaky, 2);
    receiver.failures.set(broken, 1000);
    // Scope organization: the caller is in no team (scope mine is tested below).
    const personal = await putPreference(tenant, {
      owner: 'personal',
      scope: 'organization',
      sources: [
        {
          name: 'Supplier',
          filter: { schema_version: 1, references: [{ type: 'supplier', id: invoice.supplier.id }] },
        },
      ],
      channels: [
        { type: 'webhook', enabled: true, events: ['new_alert'], url: `${receiver.url}${flaky}` },
        { type: 'email', enabled: true, events: ['new_alert'], address: `buyer-${tenant.organizationId}@example.test` },
      ],
    });
    expect(readinessOf(personal)).toEqual(['ready', 'ready']);
    receiver.secrets.set(flaky, personal.body.preferences[0].channels[0].secret);
    const organization = await putPreference(
      tenant,
      {
        owner: 'organization',
        scope: 'organization',
        sources: [],
        channels: [{ type: 'webhook', enabled: true, events: ['new_alert'], url: `${receiver.url}${broken}` }],
      },
      'organization',
    );
    receiver.secrets.set(broken, organization.body.preferences[0].channels[0].secret);

    const started = await tenant.call(`/v1/invoices/${invoice.id}/check`, { method: 'POST', body: {} });
    expect(started.status).toBe(202);
    const runId = started.body.workflow_run_id;
    expect((await settledRun(tenant, runId)).status).toBe('completed');
    const alerts = (await tenant.call(`/v1/alerts?invoice_ids=${invoice.id}`)).body.data;
    expect(alerts.length).toBeGreaterThanOrEqual(1);

    // Two 500s, then the same message (same webhook-id) accepted on the third attempt.
    await eventually(
      async () => receiver.at(flaky),
      (r) => r.some((x) => x.answered === 200),
      60_000,
    );
    const attempts = receiver.at(flaky);
    expect(attempts.map((a) => a.answered)).toEqual([500, 500, 200]);
    expect(attempts.every((a) => a.verified)).toBe(true);
    expect(new Set(attempts.map((a) => a.headers['webhook-id'])).size).toBe(1);
    const payload = attempts[2]!.payload;
    expect(payload).toMatchObject({
      type: 'new_alert',
      workflow_run_id: runId,
      organization_id: tenant.organizationId,
      alert_count: alerts.length,
    });
    expect(payload.id).toBe(attempts[2]!.headers['webhook-id']);
    expect(payload.alerts.map((a: any) => a.id).sort()).toEqual(alerts.map((a: any) => a.id).sort());
    // A receiver holding a different secret cannot verify it.
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(24, 7).toString('base64')}`).verify(attempts[2]!.body, attempts[2]!.headers),
    ).toThrow();

    const mail = await eventually(
      async () => smtp.messages.filter((m) => m.to.includes(`buyer-${tenant.organizationId}@example.test`)),
      (m) => m.length > 0,
      30_000,
    );
    expect(mail).toHaveLength(1);
    expect(mail[0]!.raw).toMatch(/Subject: \d+ new alerts?/);
    expect(mail[0]!.raw).toContain('text/plain');
    expect(mail[0]!.raw).toContain('text/html');
    expect(mail[0]!.raw.replace(/=\r?\n/g, '')).toContain(`/alerts/${alerts[0].id}`);

    // The organization's receiver always fails: after the configured attempts the delivery is failed.
    const failed = await eventually(
      () =>
        tenant.call(
          `/v1/notification-deliveries?statuses=failed&channel_ids=${organization.body.preferences[0].channels[0].id}`,
        ),
      (r) => r.body.data?.length === 1,
      60_000,
    );
    expect(failed.body.data[0]).toMatchObject({
      event: 'new_alert',
      channel_type: 'webhook',
      attempts: 4,
      last_status_code: 500,
      status: 'failed',
    });
    expect(receiver.at(broken)).toHaveLength(4);

    // The log: one delivery per channel for the run, the flaky one delivered on its third attempt.
    const log = await tenant.call('/v1/notification-deliveries?events=new_alert');
    expect(log.status).toBe(200);
    expect(log.body.data).toHaveLength(3);
    const webhookDelivery = log.body.data.find(
      (d: any) => d.channel_id === personal.body.preferences[0].channels[0].id,
    );
    expect(webhookDelivery).toMatchObject({
      status: 'delivered',
      attempts: 3,
      delivered_at: expect.any(String),
      event_id: payload.id,
    });
    expectError(
      await tenant.call(`/v1/notification-deliveries/${webhookDelivery.id}/replay`, { method: 'POST' }),
      409,
      'delivery_not_failed',
    );
    expectError(await tenant.call('/v1/notification-deliveries?statuses=lost'), 400, 'validation_error');
    const other = await createTenant();
    expectError(await other.call(`/v1/notification-deliveries/${webhookDelivery.id}`), 404, 'not_found');
    expect((await other.call('/v1/notification-deliveries')).body.data).toEqual([]);

    // Replay once the receiver works again: delivered with the same event id.
    receiver.failures.set(broken, 0);
    const replay = await tenant.call(`/v1/notification-deliveries/${failed.body.data[0].id}/replay`, {
      method: 'POST',
    });
    expect(replay.status).toBe(202);
    expect(replay.body).toMatchObject({ status: 'pending', replays: 1 });
    await eventually(
      () => tenant.call(`/v1/notification-deliveries/${failed.body.data[0].id}`),
      (r) => r.body.status === 'delivered',
      30_000,
    );
    const replayed = receiver.at(broken).at(-1)!;
    expect(replayed).toMatchObject({ answered: 200, verified: true });
    expect(replayed.headers['webhook-id']).toBe(failed.body.data[0].event_id);

    // Still one message per run and subscriber after further dispatches.
    await dispatchesFinished(2);
    expect(receiver.at(flaky).filter((r) => r.answered === 200)).toHaveLength(1);
    expect(smtp.messages.filter((m) => m.to.includes(`buyer-${tenant.organizationId}@example.test`))).toHaveLength(1);
  });

  it('scope mine: a subscriber hears of the alerts on records their teams cover, and a person in no team hears nothing', async () => {
    const tenant = await createTenant();
    const db = testDb();
    // Invoices of two suppliers (the second moved to supplier B), both matched to one agreement.
    const onA = await uploadedInvoice(tenant);
    const onB = await uploadedInvoice(tenant);
    const supplierB = await db.supplier.create({
      data: { id: randomUUID(), organizationId: tenant.organizationId, name: 'Supplier B' },
    });
    await db.invoice.update({ where: { id: onB.id }, data: { supplierId: supplierB.id } });
    const agreement = await agreementWithPrice(
      tenant,
      {
        title: 'Consulting 2017',
        status: 'active',
        effective_date: '2017-01-01',
        expiration_date: '2017-12-31',
        supplier_ids: [onA.supplier.id, supplierB.id],
      },
      '350.00',
    );
    await rematch(tenant, agreement.id);

    // The subscriber's team covers supplier A; both people follow the whole agreement.
    const team = await tenant.call('/v1/teams', {
      method: 'POST',
      body: {
        name: 'Supplier A',
        user_ids: [tenant.userId],
        filter: {
          schema_version: 1,
          root: { combinator: 'and', children: [{ field: 'supplier.id', op: 'is', value: onA.supplier.id }] },
        },
      },
    });
    expect(team.status, JSON.stringify(team.body)).toBe(201);
    const source = {
      name: 'Consulting',
      filter: { schema_version: 1, references: [{ type: 'agreement', id: agreement.id }] },
    };
    const inTeam = `/mine-${randomUUID()}`;
    const subscriber = await putPreference(tenant, {
      owner: 'personal',
      scope: 'mine',
      sources: [source],
      channels: [{ type: 'webhook', enabled: true, events: ['new_alert'], url: `${receiver.url}${inTeam}` }],
    });
    expect(readinessOf(subscriber)).toEqual(['ready']);
    receiver.secrets.set(inTeam, subscriber.body.preferences[0].channels[0].secret);
    const colleague = await addMember(db, {
      organizationId: tenant.organizationId,
      email: `${randomUUID()}@example.test`,
      role: 'read',
    });
    const colleagueKey = (
      await createApiKey(db, { organizationId: tenant.organizationId, userId: colleague.id, level: 'read' })
    ).key;
    const noTeam = `/no-team-${randomUUID()}`;
    const bystander = await putPreference(
      tenant,
      {
        owner: 'personal',
        scope: 'mine',
        sources: [source],
        channels: [{ type: 'webhook', enabled: true, events: ['new_alert'], url: `${receiver.url}${noTeam}` }],
      },
      'personal',
      colleagueKey,
    );
    expect(readinessOf(bystander)).toEqual(['ready']);

    // One check run creates alerts on both invoices.
    const started = await tenant.call(`/v1/agreements/${agreement.id}/check`, { method: 'POST', body: {} });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect((await settledRun(tenant, started.body.workflow_run_id)).status).toBe('completed');
    const alerts = (await tenant.call(`/v1/alerts?agreement_ids=${agreement.id}`)).body.data as {
      id: string;
      invoice_id: string;
    }[];
    const alertsOnA = alerts
      .filter((a) => a.invoice_id === onA.id)
      .map((a) => a.id)
      .sort();
    expect(alertsOnA.length).toBeGreaterThanOrEqual(1);
    expect(alerts.some((a) => a.invoice_id === onB.id)).toBe(true);

    // The message lists the alerts on A only; B's are not the subscriber's.
    const [message] = await eventually(
      async () => receiver.at(inTeam),
      (r) => r.length > 0,
      30_000,
    );
    expect(message).toMatchObject({ verified: true, answered: 200 });
    expect(message!.payload).toMatchObject({
      type: 'new_alert',
      workflow_run_id: started.body.workflow_run_id,
      alert_count: alertsOnA.length,
    });
    expect(message!.payload.alerts.map((a: any) => a.id).sort()).toEqual(alertsOnA);
    // The run was dispatched (one transaction for every subscriber): the person in no team got nothing.
    expect((await tenant.call('/v1/notification-deliveries', { token: colleagueKey })).body.data).toEqual([]);
    expect(receiver.at(noTeam)).toEqual([]);
  });

  it('announces an agreement expiring in 30 days once, however often the daily workflow runs', async () => {
    const tenant = await createTenant();
    const expiration = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const agreement = await tenant.call('/v1/agreements', {
      method: 'POST',
      body: { title: 'Cleaning', status: 'active', effective_date: '2020-01-01', expiration_date: expiration },
    });
    expect(agreement.status).toBe(201);
    const unrelated = await tenant.call('/v1/agreements', {
      method: 'POST',
      body: { title: 'Not followed', status: 'active', effective_date: '2020-01-01', expiration_date: expiration },
    });
    expect(unrelated.status).toBe(201);
    const path = `/expiring-${randomUUID()}`;
    const saved = await putPreference(tenant, {
      owner: 'personal',
      scope: 'organization',
      sources: [
        { name: 'Cleaning', filter: { schema_version: 1, references: [{ type: 'agreement', id: agreement.body.id }] } },
      ],
      channels: [{ type: 'webhook', enabled: true, events: ['agreement_expiring'], url: `${receiver.url}${path}` }],
    });
    receiver.secrets.set(path, saved.body.preferences[0].channels[0].secret);

    const env = inject('stackEnv');
    const temporal = await connectTemporal(env.TEMPORAL_ADDRESS!, 'default');
    try {
      for (let run = 0; run < 2; run++) {
        await temporal.workflow.execute('agreementExpiringNotificationsWorkflow', {
          taskQueue: env.TEMPORAL_TASK_QUEUE!,
          workflowId: `test-expiring-${randomUUID()}`,
          args: [],
        });
      }
    } finally {
      await temporal.connection.close();
    }
    await eventually(
      async () => receiver.at(path),
      (r) => r.length > 0,
      30_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const received = receiver.at(path);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ verified: true, answered: 200 });
    expect(received[0]!.payload).toMatchObject({
      type: 'agreement_expiring',
      days_until_expiration: 30,
      agreement: { id: agreement.body.id, title: 'Cleaning', expiration_date: expiration },
    });
  });
});
