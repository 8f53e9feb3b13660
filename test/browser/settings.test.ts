import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { testDb } from '../support/tenants.js';
import {
  expectAccessible,
  launchBrowser,
  PHONE,
  screenshot,
  screenshotBothWidths,
  signIn,
  submit,
  type TestBrowser,
} from './support/browser.js';
import { createWebUser } from './support/users.js';

let browser: TestBrowser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('personal settings', () => {
  it('creates an API key shown once, which then works against the API, and revokes it', async () => {
    const user = await createWebUser({ role: 'write', organizationName: 'Fjord Logistics' });
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, user.email, user.password);
    await page.goto('/app/settings');
    await expectAccessible(page, 'settings');
    // A Write member may not ask for an admin key, and is not offered one.
    expect(await page.getByLabel('Level').locator('option').allTextContents()).toEqual(['Read', 'Write']);
    // Members and ingestion tokens are for admins.
    expect(await page.getByRole('heading', { name: 'Members' }).count()).toBe(0);

    await page.getByLabel('Name').fill('ERP export');
    await page.getByLabel('Level').selectOption('write');
    await submit(page, page.getByRole('button', { name: 'Create API key' }));
    const key = (await page.getByTestId('secret').textContent())!.trim();
    expect(key.startsWith('icsk_')).toBe(true);
    await expectAccessible(page, 'API key created');

    const me = await call('/v1/me', { token: key, organizationId: user.organizationId });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      email: user.email,
      organization_id: user.organizationId,
      api_key: { name: 'ERP export', level: 'write' },
    });

    // The key is listed by its prefix only; the plaintext is never shown again.
    await page.goto('/app/settings');
    expect(await page.content()).not.toContain(key);
    await screenshotBothWidths(page, 'settings');
    page.on('dialog', (dialog) => void dialog.accept());
    await submit(page, page.getByRole('button', { name: 'Revoke API key ERP export' }));
    expect(await page.getByRole('status').textContent()).toBe('The API key is revoked.');
    expect((await call('/v1/me', { token: key, organizationId: user.organizationId })).status).toBe(403);
    await context.close();
  });

  it('lets an admin invite a member, who sets a password through the link and signs in', async () => {
    const admin = await createWebUser({ role: 'admin', organizationName: 'Harbour Energy' });
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, admin.email, admin.password);
    await page.goto('/app/settings');
    const email = `new-${Date.now()}@example.test`;
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Role', { exact: true }).selectOption('read');
    await submit(page, page.getByRole('button', { name: 'Invite' }));
    const link = (await page.getByTestId('secret').textContent())!.trim();
    expect(link).toMatch(/\/app\/set-password\?token=icsp_/);

    const invited = await browser.newContext(PHONE);
    const invitedPage = await invited.newPage();
    await invitedPage.goto(link);
    await expectAccessible(invitedPage, 'set password');
    expect(await invitedPage.getByRole('heading', { level: 1 }).textContent()).toBe('Join Harbour Energy');
    await invitedPage.getByLabel('Password', { exact: true }).fill('a long enough password');
    await invitedPage.getByLabel('Repeat the password').fill('a long enough password');
    await submit(invitedPage, invitedPage.getByRole('button', { name: 'Join and sign in' }));
    expect(new URL(invitedPage.url()).pathname).toBe('/app');
    // The link works once.
    await invitedPage.goto(link);
    expect(await invitedPage.getByRole('alert').textContent()).toContain('not valid any more');

    // The admin sees the member with the role given; their membership is real.
    await page.goto('/app/settings');
    await screenshot(page, 'settings.admin');
    await expectAccessible(page, 'settings (admin)');
    const user = await testDb().user.findUniqueOrThrow({ where: { email }, include: { memberships: true } });
    expect(user.memberships).toMatchObject([{ organizationId: admin.organizationId, role: 'read' }]);
    await invited.close();
    await context.close();
  });

  it('refuses a forged form: without the CSRF token nothing is created', async () => {
    const user = await createWebUser({ role: 'admin' });
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, user.email, user.password);
    const response = await page.request.post('/app/settings/api-keys', { form: { name: 'forged', level: 'read' } });
    expect(response.status()).toBe(403);
    expect(await testDb().apiKey.count({ where: { userId: user.userId, name: 'forged' } })).toBe(0);
    await context.close();
  });
});
