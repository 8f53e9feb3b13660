import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import {
  expectAccessible,
  launchBrowser,
  PHONE,
  screenshot,
  signInWithForm,
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

describe('signing in', () => {
  it('signs in with e-mail and password, shows the layout, and signs out', async () => {
    const user = await createWebUser({ organizationName: 'Nordic Facilities AS' });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto('/app/invoices');
    expect(new URL(page.url()).pathname).toBe('/app/sign-in');
    await expectAccessible(page, 'sign-in');
    await screenshot(page, 'sign-in');

    await page.getByLabel('E-mail address').fill(user.email);
    await page.getByLabel('Password').fill('not the password');
    await submit(page, page.getByRole('button', { name: 'Sign in' }));
    expect(await page.getByRole('alert').textContent()).toBe('The e-mail address or the password is not right.');

    await page.getByLabel('Password').fill(user.password);
    await submit(page, page.getByRole('button', { name: 'Sign in' }));
    expect(new URL(page.url()).pathname).toBe('/app/invoices');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Invoices');
    expect(
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Invoices' })
        .getAttribute('aria-current'),
    ).toBe('page');
    await expectAccessible(page, 'invoices (empty)');

    const cookie = (await context.cookies()).find((c) => c.name === 'ics_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie.value.startsWith('icss_')).toBe(true);

    await submit(page, page.getByRole('button', { name: 'Sign out' }));
    expect(new URL(page.url()).pathname).toBe('/app/sign-in');
    // The session is over on the server, not only in this browser.
    expect((await call('/v1/me', { token: cookie.value })).status).toBe(401);
    await context.close();
  });

  it('is usable on a phone', async () => {
    const user = await createWebUser();
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    await page.goto('/app/sign-in');
    await screenshot(page, 'sign-in.phone');
    await signInWithForm(page, user.email, user.password);
    await expectAccessible(page, 'invoices on a phone');
    await context.close();
  });
});
