import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertOf, alertOn, claimSetup, createClaim } from '../support/claims.js';
import { createTenant, type Tenant } from '../support/tenants.js';
import { appUrl, DESKTOP, launchBrowser, PHONE, signIn, submit, type TestBrowser } from './support/browser.js';
import { createWebUser, type WebUser } from './support/users.js';

// Texts per language (issue 28): a person who chose Norwegian (the ics_lang cookie the settings
// page sets) reads an agreement, the alerts list with its bulk form, an alert and a claim in
// bokmål, the code words (statuses, the alert's summary) included, and the page says lang="nb".
// The notice after a bulk action is Norwegian too: words chosen in the action, not only in views.

let browser: TestBrowser;
let tenant: Tenant;
let writer: WebUser;
let agreementId: string;
let claimId: string;
const alerts: Record<string, string> = {};

beforeAll(async () => {
  browser = await launchBrowser();
  tenant = await createTenant({ name: 'Fjordmat AS' });
  const setup = await claimSetup(tenant, [
    { number: 'NB-1', currency: 'NOK' },
    { number: 'NB-2', currency: 'NOK' },
  ]);
  agreementId = setup.agreementId;
  const [first, second] = setup.invoices.map((invoice) => invoice.id);
  for (const [title, invoiceId, impact] of [
    ['Frakt fakturert to ganger', first!, '400.00'],
    ['Pallgebyr ikke avtalt', first!, '120.00'],
    ['Papir over avtalt pris', second!, '75.50'],
  ] as const)
    alerts[title] = await alertOn(tenant, invoiceId, agreementId, { title, impact_amount: impact });
  const claim = await createClaim(tenant, {
    agreement_id: agreementId,
    title: 'Overfakturering Q1',
    alerts: { alert_ids: [alerts['Papir over avtalt pris']] },
  });
  claimId = claim.id;
  writer = await createWebUser({ role: 'write', organizationId: tenant.organizationId, name: 'Kari Nordmann' });
});

afterAll(async () => {
  await browser?.close();
});

// Signed in first (the sign-in page is not what this test reads), then Norwegian chosen the way
// the language picker stores it.
async function norwegianPage(viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext(viewport);
  const page = await context.newPage();
  await signIn(page, writer.email, writer.password);
  await context.addCookies([{ name: 'ics_lang', value: 'nb', domain: new URL(appUrl()).hostname, path: '/app' }]);
  return page;
}

const mainText = async (page: Page) => (await page.locator('main').textContent()) ?? '';

describe('the application in Norwegian', () => {
  it('shows an agreement in bokmål, its status and readiness included', async () => {
    const page = await norwegianPage();
    await page.goto(`/app/agreements/${agreementId}`);
    expect(await page.locator('html').getAttribute('lang')).toBe('nb');
    await expect.poll(() => page.getByRole('heading', { name: 'Prisposter' }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Klar for kontroller: nei' }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Varsler etter tema' }).count()).toBe(1);
    expect(await page.locator('.page-head .status').textContent()).toBe('Utkast');
    const text = await mainText(page);
    expect(text).toContain('Den er ikke aktiv: kontroller kjøres bare mot aktive avtaler.');
    expect(text).not.toContain('Price items');
    expect(text).not.toContain('Ready for checks');
    await page.context().close();
  });

  it('lists the alerts with the bulk form in bokmål and says what a bulk dismissal did', async () => {
    const page = await norwegianPage();
    await page.goto(`/app/alerts?agreement_ids=${agreementId}`);
    expect(await page.locator('html').getAttribute('lang')).toBe('nb');
    expect(await page.getByRole('heading', { level: 1, name: 'Varsler' }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Behandle varsler' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Avvis', exact: true }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Legg til i krav' }).count()).toBe(1);
    const reasons = await page.locator('#bulk-category option').allTextContents();
    expect(reasons).toContain('For lite til å forfølge');
    await page.getByRole('checkbox', { name: 'Velg “Pallgebyr ikke avtalt”' }).check();
    await page.locator('#bulk-category').selectOption('too_small');
    await submit(page, page.getByRole('button', { name: 'Avvis', exact: true }));
    expect(await page.locator('#outcome').textContent()).toContain('1 varsel avvist.');
    expect((await alertOf(tenant, alerts['Pallgebyr ikke avtalt']!)).status).toBe('dismissed');
    expect(await mainText(page)).not.toContain('Act on alerts');
    await page.context().close();
  });

  it('shows an alert with its decisions and the summary of what was charged in bokmål', async () => {
    const page = await norwegianPage();
    await page.goto(`/app/alerts/${alerts['Frakt fakturert to ganger']}`);
    expect(await page.locator('html').getAttribute('lang')).toBe('nb');
    expect(await page.getByRole('heading', { name: 'Avgjør' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Avvis varselet' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Marker som kreditert' }).count()).toBe(1);
    expect(await page.locator('.page-head .status').textContent()).toBe('Åpent');
    const text = await mainText(page);
    expect(text).toContain('fakturert mer enn avtalt');
    expect(text).not.toContain('Dismiss alert');
    await page.context().close();
  });

  it('shows a claim with its refunds, letter and credit notes in bokmål', async () => {
    const page = await norwegianPage();
    await page.goto(`/app/claims/${claimId}`);
    expect(await page.locator('html').getAttribute('lang')).toBe('nb');
    for (const heading of ['Totaler', 'Brev til leverandøren', 'Refusjoner', 'Kreditnotaer'])
      expect(await page.getByRole('heading', { name: heading }).count(), heading).toBe(1);
    expect(await page.getByRole('button', { name: 'Registrer refusjon' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Last ned brevet (PDF)' }).count()).toBe(1);
    expect(await page.locator('.page-head .status').textContent()).toBe('Venter');
    const text = await mainText(page);
    expect(text).toContain('1 varsel');
    expect(text).not.toContain('Record refund');
    await page.context().close();
  });

  // Norwegian words are longer than English ones: the pages still fit a phone.
  it('fits a phone in bokmål: the agreement, the alerts list, an alert and a claim never scroll sideways', async () => {
    const page = await norwegianPage(PHONE);
    for (const path of [
      `/app/agreements/${agreementId}`,
      `/app/alerts?agreement_ids=${agreementId}&statuses=any`,
      `/app/alerts/${alerts['Frakt fakturert to ganger']}`,
      `/app/claims/${claimId}`,
    ]) {
      await page.goto(path);
      expect(await page.locator('html').getAttribute('lang')).toBe('nb');
      const width = await page.evaluate<number>('document.documentElement.scrollWidth');
      expect(width, `${path} is ${width} px wide`).toBeLessThanOrEqual(PHONE.width);
    }
    await page.context().close();
  });
});
