import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/api.js';
import { claimSetup } from '../support/claims.js';
import { createTenant, keyFor, type Tenant } from '../support/tenants.js';

// Two operations the application's forms use, over HTTP: what a team would cover before it is
// saved (POST /v1/teams/preview, the spec's preview convention), and a test message to a
// notification channel (POST /v1/notification-channels/{id}/test). Both stay in the caller's
// organization.

let tenant: Tenant;
let other: Tenant;
let ours: Awaited<ReturnType<typeof claimSetup>>;

const received: { path: string; body: string }[] = [];
let server: Server;
let receiverUrl = '';

beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
  ours = await claimSetup(tenant, [{ number: 'PV-1' }, { number: 'PV-2' }]);
  await claimSetup(tenant, [{ number: 'PV-3', currency: 'SEK' }]);
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({ path: request.url ?? '/', body });
      response.statusCode = 200;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

const supplierFilter = (supplierId: string) => ({
  schema_version: 1,
  root: { combinator: 'and', children: [{ field: 'supplier.id', op: 'is', value: supplierId }] },
});

describe('POST /v1/teams/preview', () => {
  it("counts the invoices a team's filter would cover, per currency, and saves nothing", async () => {
    const preview = await tenant.call('/v1/teams/preview', {
      method: 'POST',
      body: { name: 'Paper buyers', user_ids: [], filter: supplierFilter(ours.supplierId) },
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.counts.total).toBe(2);
    expect(JSON.stringify(preview.body)).not.toContain('SEK');

    const everything = await tenant.call('/v1/teams/preview', {
      method: 'POST',
      body: {
        filter: {
          schema_version: 1,
          root: { combinator: 'or', children: [{ field: 'invoice.currency', op: 'is_any_of', value: ['EUR', 'SEK'] }] },
        },
      },
    });
    expect(everything.status, JSON.stringify(everything.body)).toBe(200);
    expect(everything.body.counts.total).toBe(3);

    expect((await tenant.call('/v1/teams')).body.data).toEqual([]);
  });

  it("counts nothing of another organization's invoices", async () => {
    const preview = await other.call('/v1/teams/preview', {
      method: 'POST',
      body: { filter: supplierFilter(ours.supplierId) },
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.counts.total).toBe(0);
  });

  it('refuses a filter that does not validate, naming the property', async () => {
    const refused = await tenant.call('/v1/teams/preview', {
      method: 'POST',
      body: {
        filter: { schema_version: 1, root: { combinator: 'and', children: [{ field: 'supplier.id', op: 'is' }] } },
      },
    });
    expectError(refused, 400, 'validation_error');
    expect(JSON.stringify(refused.body.error.details)).toContain('filter.root.children.0');
    const missing = await tenant.call('/v1/teams/preview', { method: 'POST', body: { filter: null } });
    expectError(missing, 400, 'validation_error');
  });
});

describe('POST /v1/notification-channels/{id}/test', () => {
  async function webhookChannel(owner: 'personal' | 'organization', path: string): Promise<string> {
    const response = await tenant.call(`/v1/notification-preferences?owner=${owner}`, {
      method: 'PUT',
      body: {
        preferences: [
          {
            owner,
            scope: 'organization',
            sources: [],
            channels: [{ type: 'webhook', enabled: true, events: ['new_alert'], url: `${receiverUrl}${path}` }],
          },
        ],
      },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.preferences[0].channels[0].id as string;
  }

  it('sends one test message, seen in the delivery log', async () => {
    const channelId = await webhookChannel('personal', '/mine');
    const sent = await tenant.call(`/v1/notification-channels/${channelId}/test`, { method: 'POST' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    await expect.poll(() => received.filter((r) => r.path === '/mine').length, { timeout: 30_000 }).toBe(1);
    expect(JSON.parse(received.find((r) => r.path === '/mine')!.body)).toMatchObject({
      type: 'test',
      organization_id: tenant.organizationId,
    });
    await expect
      .poll(async () => (await tenant.call(`/v1/notification-deliveries/${sent.body.id}`)).body.status, {
        timeout: 30_000,
      })
      .toBe('delivered');
  });

  it("is another organization's 404, and the organization's channel needs Write", async () => {
    const channelId = await webhookChannel('organization', '/theirs');
    expectError(await other.call(`/v1/notification-channels/${channelId}/test`, { method: 'POST' }), 404, 'not_found');
    const readKey = await keyFor(tenant, 'read');
    expectError(
      await tenant.call(`/v1/notification-channels/${channelId}/test`, { method: 'POST', token: readKey }),
      403,
      'insufficient_level',
    );
    expect(received.filter((r) => r.path === '/theirs')).toHaveLength(0);
  });
});
