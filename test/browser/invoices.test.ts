import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertOn, claimSetup } from '../support/claims.js';
import { createTenant, testDb } from '../support/tenants.js';
import {
  appUrl,
  expectAccessible,
  launchBrowser,
  PHONE,
  screenshot,
  signIn,
  submit,
  type TestBrowser,
} from './support/browser.js';
import { createWebUser, givePassword, PASSWORD } from './support/users.js';

let browser: TestBrowser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('invoice pages', () => {
  it("follows an invoice's url from the API to its page, with lines, alerts, impact and matches", async () => {
    const tenant = await createTenant({ name: 'Nordlys Facilities AS' });
    const setup = await claimSetup(tenant, [{ number: 'INV-2026-0042' }, { number: 'INV-2026-0043', currency: 'NOK' }]);
    const [invoice] = setup.invoices;
    const lineAlert = await alertOn(tenant, invoice!.id, setup.agreementId, {
      title: 'Paper above the agreed price',
      explanation: 'The agreement sets 5.00 per pack [1]',
      invoice_item_id: invoice!.line_items[0]!.id,
      impact_amount: '5.00',
      expected: [
        { description: 'Copy paper', unit: 'pack', currency_code: 'EUR', price: { type: 'amount', amount: '5.00' } },
      ],
      citations: [
        {
          source_ref: 1,
          citation: { source: { source_type: 'agreement_prices' }, quote: 'Copy paper A4: 5.00 EUR per pack' },
        },
      ],
    });
    await alertOn(tenant, invoice!.id, setup.agreementId, { title: 'Freight charged twice', impact_amount: '1234.5' });

    const read = await tenant.call(`/v1/invoices/${invoice!.id}`);
    const url = read.body.url as string;
    expect(url).toBe(`${appUrl()}/app/invoices/${invoice!.id}`);

    const email = await givePassword(tenant.userId);
    const context = await browser.newContext();
    const page = await context.newPage();
    // Signed out, the link leads through sign-in back to the invoice.
    await page.goto(url);
    expect(new URL(page.url()).pathname).toBe('/app/sign-in');
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await submit(page, page.getByRole('button', { name: 'Sign in' }));
    expect(page.url()).toBe(url);

    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Invoice INV-2026-0042');
    const text = (await page.textContent('main'))!;
    expect(text).toContain('Paper above the agreed price');
    expect(text).toContain('Copy paper A4: 5.00 EUR per pack');
    // Exact amounts, per currency: 5.00 + 1,234.50 open.
    expect(text).toContain('€1,239.50');
    expect(text).toContain('€1,234.50');
    expect(text).toContain('Supplies');
    // The line's alert sits under its line.
    const lineRow = page.locator('tr.line-alerts');
    expect(await lineRow.textContent()).toContain('Paper above the agreed price');
    expect(await page.locator(`a[href="/app/alerts/${lineAlert}"]`).count()).toBe(1);
    const timing = (await page.request.get(url)).headers()['server-timing'];
    expect(timing).toMatch(/^app;dur=\d+(\.\d+)?$/);
    await expectAccessible(page, 'invoice');
    await screenshot(page, 'invoice');

    await page.goto('/app/invoices');
    expect(await page.getByRole('link', { name: 'INV-2026-0043' }).count()).toBe(1);
    expect((await page.textContent('main'))!).toContain('NOK');
    await expectAccessible(page, 'invoice list');
    await screenshot(page, 'invoices');
    // The API's filters: search narrows to one.
    await page.getByLabel('Search', { exact: true }).fill('0043');
    await submit(page, page.getByRole('button', { name: 'Filter' }));
    expect(await page.locator('table.list tbody tr').count()).toBe(1);

    const phone = await browser.newContext(PHONE);
    const phonePage = await phone.newPage();
    await signIn(phonePage, email, PASSWORD);
    await phonePage.goto('/app/invoices');
    await screenshot(phonePage, 'invoices.phone');
    await phonePage.goto(url);
    await expectAccessible(phonePage, 'invoice on a phone');
    await screenshot(phonePage, 'invoice.phone');
    await phone.close();
    await context.close();
  });

  it("answers 404 for another organization's invoice", async () => {
    const other = await createTenant();
    const { invoices } = await claimSetup(other, [{}]);
    const user = await createWebUser();
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, user.email, user.password);
    const response = await page.goto(`/app/invoices/${invoices[0]!.id}`);
    expect(response!.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Not found');
    expect((await page.textContent('main'))!).not.toContain(invoices[0]!.id.slice(0, 8) + 'x');
    expect((await page.goto('/app/invoices/not-an-id'))!.status()).toBe(404);
    expect((await page.goto(`/app/invoices/${invoices[0]!.id}/original`))!.status()).toBe(404);
    await expectAccessible(page, 'not found');
    await context.close();
  });

  it('shows a Read member no actions, and the server refuses them anyway', async () => {
    const admin = await createWebUser({ role: 'admin' });
    const reader = await createWebUser({ role: 'read', organizationId: admin.organizationId });
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, reader.email, reader.password);
    await page.goto('/app/settings');
    // A reader may create read keys for themself, nothing else.
    expect(await page.getByLabel('Level').locator('option').allTextContents()).toEqual(['Read']);
    expect(await page.getByRole('button', { name: 'Invite' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Create token' }).count()).toBe(0);
    // Forged with a valid CSRF token: refused by level, nothing changes.
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const invite = await page.request.post('/app/settings/members', {
      form: { _csrf: csrf, email: 'forged@example.test', role: 'admin' },
    });
    expect(invite.status()).toBe(403);
    const token = await page.request.post('/app/settings/ingestion-tokens', {
      form: { _csrf: csrf, name: 'forged', scopes: 'invoices:write' },
    });
    expect(token.status()).toBe(403);
    const key = await page.request.post('/app/settings/api-keys', {
      form: { _csrf: csrf, name: 'forged', level: 'admin' },
    });
    expect(key.status()).toBe(400);
    expect(await testDb().user.count({ where: { email: 'forged@example.test' } })).toBe(0);
    expect(await testDb().ingestionToken.count({ where: { organizationId: admin.organizationId } })).toBe(0);
    expect(await testDb().apiKey.count({ where: { userId: reader.userId } })).toBe(0);
    await context.close();
  });
});
