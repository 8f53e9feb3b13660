import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSupplier, invoiceOf } from '../support/alerts.js';
import { createTenant, type Tenant } from '../support/tenants.js';
import {
  expectAccessible,
  launchBrowser,
  PHONE,
  screenshot,
  signIn,
  submit,
  type TestBrowser,
} from './support/browser.js';
import { createWebUser, givePassword, PASSWORD } from './support/users.js';

// Notifications in the application: a source and a webhook channel added through the forms, the
// secret shown once, a test delivery reaching a receiver this test runs (a third party: a plain
// HTTP server on 127.0.0.1, allowed by the test stack), signed with that secret, and seen in the
// delivery log; a failing receiver's delivery replayed; the organization's channels for Admins only.

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

let browser: TestBrowser;
let tenant: Tenant;
let email: string;
let server: Server;
let receiverUrl: string;
let answer = 200;
const received: Received[] = [];
const supplier = newSupplier('Office');

beforeAll(async () => {
  browser = await launchBrowser();
  tenant = await createTenant({ name: 'Notifications Test AS' });
  email = await givePassword(tenant.userId);
  await invoiceOf(tenant, supplier, { currency: 'EUR' });
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

async function signedIn(viewport?: { width: number; height: number }, who = email): Promise<Page> {
  const page = await (await browser.newContext(viewport)).newPage();
  await signIn(page, who, PASSWORD);
  return page;
}

const logRows = (page: Page) => page.locator('#delivery-log tbody tr');

describe('notifications', () => {
  let secret: string;

  it('adds a source and a webhook channel, shows its secret once, and sends a signed test seen in the log', async () => {
    const page = await signedIn();
    await page.goto('/app/settings');
    await submit(page, page.getByRole('link', { name: 'Notifications' }));
    expect(new URL(page.url()).pathname).toBe('/app/settings/notifications');
    await expectAccessible(page, 'notifications (empty)');

    await page.getByLabel('Name (or id)').fill(supplier.name);
    await page.getByLabel('Source name').fill('Office supplies');
    await submit(page, page.getByRole('button', { name: 'Add source' }));
    expect(await page.getByText('Source added.').count()).toBe(1);

    await page.locator('#personal-new-type').selectOption('webhook');
    await page.locator('#personal-new-destination').fill(receiverUrl);
    await submit(page, page.locator('form[action$="/personal/channels"] button[type=submit]'));
    secret = (await page.getByTestId('secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);

    const document = (await tenant.call('/v1/notification-preferences')).body.preferences[0];
    expect(document.sources).toHaveLength(1);
    expect(document.sources[0].references[0]).toMatchObject({ type: 'supplier', name: supplier.name });
    expect(document.channels).toHaveLength(1);
    expect(document.channels[0]).toMatchObject({ type: 'webhook', url: receiverUrl, readiness: 'ready' });
    expect(document.channels[0].secret).toBeUndefined();

    await page.goto('/app/settings/notifications');
    expect(await page.content()).not.toContain(secret);
    await submit(page, page.getByRole('button', { name: /^Send a test/ }));
    expect(await page.getByText('Test message sent').count()).toBe(1);
    // The receiver gets the test, signed with the secret shown once.
    await expect.poll(() => received.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
    const message = received[0]!;
    const payload = new Webhook(secret).verify(message.body, message.headers as Record<string, string>) as {
      type: string;
    };
    expect(payload.type).toBe('test');
    // The log shows it delivered (reload: the log is read when the page is).
    await expect
      .poll(
        async () => {
          await page.goto('/app/settings/notifications');
          return logRows(page).first().getAttribute('data-status');
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toBe('delivered');
    expect(await logRows(page).first().textContent()).toContain('Test');
    await expectAccessible(page, 'notifications');
    await screenshot(page, 'notifications');
    const phone = await signedIn(PHONE);
    await phone.goto('/app/settings/notifications');
    await expectAccessible(phone, 'notifications (phone)');
    await screenshot(phone, 'notifications.phone');
    expect(await phone.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);

    await submit(page, page.getByRole('link', { name: /^Details/ }).first());
    expect(await page.locator('pre.payload').textContent()).toContain('"type": "test"');
    await expectAccessible(page, 'notification delivery');
  });

  it('logs a failing receiver, replays the delivery, edits the channel and rotates its secret', async () => {
    answer = 500;
    const page = await signedIn();
    await page.goto('/app/settings/notifications');
    await submit(page, page.getByRole('button', { name: /^Send a test/ }));
    await expect
      .poll(
        async () => {
          await page.goto('/app/settings/notifications');
          return logRows(page).first().getAttribute('data-status');
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toBe('failed');
    expect(await logRows(page).first().textContent()).toContain('500');
    answer = 200;
    const before = received.length;
    await submit(page, page.getByRole('button', { name: /^Send again/ }).first());
    await expect.poll(() => received.length, { timeout: 60_000 }).toBeGreaterThan(before);

    // Turn the channel off and follow only expiring agreements.
    const form = page.locator('form[action*="/personal/channels/"]').first();
    await form.getByLabel('On').uncheck();
    await form.getByLabel('New alerts').uncheck();
    await submit(page, form.getByRole('button', { name: /^Save channel/ }));
    const channel = (await tenant.call('/v1/notification-preferences')).body.preferences[0].channels[0];
    expect(channel).toMatchObject({ enabled: false, events: ['agreement_expiring'], readiness: 'disabled' });

    await submit(page, page.getByRole('button', { name: /^New secret/ }));
    const rotated = (await page.getByTestId('secret').textContent())!.trim();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
  });

  it("keeps the organization's channels to Admins, and refuses a Read member's forged change", async () => {
    const reader = await createWebUser({ role: 'read', organizationId: tenant.organizationId });
    const page = await signedIn(undefined, reader.email);
    await page.goto('/app/settings/notifications');
    expect(await page.getByRole('heading', { name: "The organization's notifications" }).count()).toBe(0);
    // Their own preference is theirs to change (Read), the organization's is not.
    const headers = JSON.parse((await page.locator('body').getAttribute('hx-headers')) ?? '{}') as Record<
      string,
      string
    >;
    const forged = await page.request.post('/app/settings/notifications/organization/channels', {
      form: { _csrf: headers['X-CSRF-Token'] ?? '', type: 'webhook', destination: receiverUrl, events: 'new_alert' },
    });
    expect(forged.status()).toBe(403);
    const organization = await tenant.call('/v1/notification-preferences?owner=organization');
    expect(organization.body.preferences[0].channels).toEqual([]);
  });
});
