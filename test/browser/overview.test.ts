import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceOf, newSupplier } from '../support/alerts.js';
import { alertOn, claimSetup, createClaim } from '../support/claims.js';
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
import { createWebUser, type WebUser } from './support/users.js';

// The home page: the API's overview with charts drawn on the server (SVG, one per currency, each
// with its data table), and the header's search. axe-core on each page; desktop and phone.

let browser: TestBrowser;
let tenant: Tenant;
let user: WebUser;
let sekInvoiceId: string;
let acmeName: string;
const nordic = newSupplier('Nordic Paper');

beforeAll(async () => {
  browser = await launchBrowser();
  tenant = await createTenant({ name: 'Fjord Logistics AS' });
  const setup = await claimSetup(tenant, [
    { number: 'OVR-EUR-1', currency: 'EUR' },
    { number: 'OVR-SEK-1', currency: 'SEK' },
  ]);
  sekInvoiceId = setup.invoices[1]!.id;
  acmeName = setup.supplier.name;
  // A second supplier in EUR only, with more spend than the first: ranked above it in the EUR chart,
  // absent from the SEK one. Its credit note subtracts from its spend.
  const line = (net: string) => ({ description: 'Copy paper', quantity: '1', unit_price: net, net_amount: net });
  await invoiceOf(tenant, nordic, { number: 'NP-1', lines: [line('120.40')] });
  await invoiceOf(tenant, nordic, { number: 'NP-2', lines: [line('80.00')] });
  const eurAlert = await alertOn(tenant, setup.invoices[0]!.id, setup.agreementId, {
    title: 'Paper above the agreed price',
    impact_amount: '12.50',
  });
  await alertOn(tenant, sekInvoiceId, setup.agreementId, {
    title: 'Freight not in the agreement',
    impact_amount: '70.00',
  });
  const claim = await createClaim(tenant, { agreement_id: setup.agreementId, alerts: { alert_ids: [eurAlert] } });
  const refund = await tenant.call(`/v1/claims/${claim.id}/refunds`, {
    method: 'POST',
    body: { amount: '5.00', currency_code: 'EUR' },
  });
  expect(refund.status, JSON.stringify(refund.body)).toBe(201);
  const expires = new Date(Date.now() + 45 * 86_400_000).toISOString().slice(0, 10);
  const cleaning = await tenant.call('/v1/agreements', {
    method: 'POST',
    body: {
      title: 'Office cleaning',
      status: 'active',
      supplier_ids: [setup.supplierId],
      instructions: 'Hourly rate 50 EUR.',
      expiration_date: expires,
    },
  });
  expect(cleaning.status, JSON.stringify(cleaning.body)).toBe(201);
  user = await createWebUser({ role: 'write', organizationId: tenant.organizationId, name: 'Ingrid Hansen' });
});

afterAll(async () => {
  await browser?.close();
});

async function signedIn(viewport?: { width: number; height: number }): Promise<Page> {
  const page = await (await browser.newContext(viewport)).newPage();
  await signIn(page, user.email, user.password);
  // Where signing in leads.
  await page.goto('/app');
  return page;
}

const chart = (page: Page, name: string) => page.getByRole('img', { name, exact: true });
const dataTable = (page: Page, name: string) => page.getByRole('table', { name, exact: true, includeHidden: true });

describe('overview and search', () => {
  it('opens on the overview: figures, next steps and charts per currency with their data tables', async () => {
    const page = await signedIn();
    expect(new URL(page.url()).pathname).toBe('/app');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Overview');
    await expectAccessible(page, 'overview');

    // Exact amounts per currency, never summed across them.
    const figures = await page.locator('.figures').textContent();
    expect(figures).toContain('SEK');
    expect(figures).toContain('€');
    expect(await page.getByRole('link', { name: /waits? for review/ }).getAttribute('href')).toBe(
      '/app/alerts?statuses=pending',
    );

    // Found vs recovered: one chart per currency.
    await expect.poll(() => chart(page, 'Overcharges found vs recovered per month (EUR)').count()).toBe(1);
    expect(await chart(page, 'Overcharges found vs recovered per month (SEK)').count()).toBe(1);
    const month = new Date().toISOString().slice(0, 7);
    const eurRows = dataTable(page, 'Overcharges found vs recovered per month (EUR)').getByRole('row', {
      includeHidden: true,
    });
    expect(await eurRows.count()).toBe(7);
    const thisMonth = eurRows.filter({ hasText: month });
    expect(await thisMonth.textContent()).toContain('€12.50');
    expect(await thisMonth.textContent()).toContain('€5.00');
    const sekTable = await dataTable(page, 'Overcharges found vs recovered per month (SEK)').textContent();
    expect(sekTable).toContain('70.00');
    expect(sekTable).not.toContain('€');

    // Spend by supplier: one chart per currency, largest net spend first, exact amounts.
    expect(await chart(page, 'Spend by supplier (EUR)').count()).toBe(1);
    expect(await chart(page, 'Spend by supplier (SEK)').count()).toBe(1);
    const cellsOf = async (currency: string) => {
      const rows = await dataTable(page, `Spend by supplier (${currency})`)
        .getByRole('row', { includeHidden: true })
        .all();
      return Promise.all(rows.slice(1).map((row) => row.locator('th, td').allTextContents()));
    };
    expect(await cellsOf('EUR')).toEqual([
      [nordic.name, '€200.40', '2'],
      [acmeName, '€55.00', '1'],
    ]);
    const sekSpend = await dataTable(page, 'Spend by supplier (SEK)').textContent();
    expect(sekSpend).toContain(acmeName);
    expect(sekSpend).toContain('55.00');
    expect(sekSpend).not.toContain(nordic.name);
    expect(sekSpend).not.toContain('€');

    // Open impact: only the pending SEK alert (the EUR one is claimed).
    expect(await chart(page, 'Open impact by agreement (SEK)').count()).toBe(1);
    expect(await chart(page, 'Open impact by agreement (EUR)').count()).toBe(0);
    expect(await dataTable(page, 'Open impact by agreement (SEK)').textContent()).toContain('Supplies');
    expect(await chart(page, 'Open impact by topic (SEK)').count()).toBe(1);
    expect(await dataTable(page, 'Open impact by topic (SEK)').textContent()).toContain('Uncategorized');

    // Alerts by the check that found them: counts, not money; these two were added by people.
    expect(await chart(page, 'Alerts by check type').count()).toBe(1);
    const byCheck = dataTable(page, 'Alerts by check type').getByRole('row', { includeHidden: true });
    expect(await byCheck.nth(1).textContent()).toBe('Added by people2');

    // Agreements expiring: days left, not money.
    expect(await chart(page, 'Agreements expiring in the next 90 days').count()).toBe(1);
    const expiring = dataTable(page, 'Agreements expiring in the next 90 days');
    expect(await expiring.getByRole('row', { includeHidden: true }).nth(1).textContent()).toMatch(
      /^Office cleaning\d{4}-\d{2}-\d{2}45$/,
    );

    // The data table opens from the keyboard.
    const summary = page.locator('#found-vs-recovered summary').first();
    await summary.focus();
    await page.keyboard.press('Enter');
    expect(await dataTable(page, 'Overcharges found vs recovered per month (EUR)').isVisible()).toBe(true);
    await screenshot(page, 'overview');

    // Drawn on the server: the charts are in the HTML, no script needed.
    const html = await (await page.request.get('/app')).text();
    expect(html).toContain('<svg role="img" aria-label="Overcharges found vs recovered per month (EUR)"');
    expect(html).toContain('<svg role="img" aria-label="Spend by supplier (SEK)"');
  });

  it('works on a phone', async () => {
    const page = await signedIn(PHONE);
    await expectAccessible(page, 'overview (phone)');
    const width = await page.evaluate('document.documentElement.scrollWidth');
    expect(width).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'overview.phone');
  });

  it('searches from the header on any page, results grouped by kind, keyboard only', async () => {
    const page = await signedIn();
    await page.goto('/app/claims');
    const box = page
      .getByRole('search')
      .filter({ has: page.locator('#header-search') })
      .getByRole('searchbox', { name: 'Search' });
    await box.fill('OVR-SEK');
    await Promise.all([page.waitForNavigation(), box.press('Enter')]);
    expect(new URL(page.url()).pathname).toBe('/app/search');
    await expectAccessible(page, 'search results');
    expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual(['Invoices (1)']);
    const result = page.getByRole('link', { name: 'OVR-SEK-1', exact: false });
    expect(await result.getAttribute('href')).toBe(`/app/invoices/${sekInvoiceId}`);
    await screenshot(page, 'search');

    // Agreements and alerts are found too, each in its group; Tab reaches a result and Enter opens it.
    await page.goto('/app/search?query=Freight');
    expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual(['Alerts (1)']);
    const link = page.locator('.search-results a').first();
    for (let i = 0; i < 40 && !(await link.evaluate((el) => el === (el.ownerDocument as any).activeElement)); i++)
      await page.keyboard.press('Tab');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    expect(new URL(page.url()).pathname).toMatch(/^\/app\/alerts\/[0-9a-f-]{36}$/);

    await page.goto('/app/search?query=nothing-like-this');
    expect(await page.getByText('Nothing found.').count()).toBe(1);
    await submit(page, page.getByRole('button', { name: 'Search' }).last());
  });
});
