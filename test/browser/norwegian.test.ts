import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAV } from '../../src/web/render.js';
import { textsFor } from '../../src/web/texts/index.js';
import {
  appUrl,
  DESKTOP,
  expectAccessible,
  launchBrowser,
  screenshot,
  signIn,
  submit,
  type TestBrowser,
} from './support/browser.js';
import { createWebUser, type WebUser } from './support/users.js';

// The application in Norwegian (issue 28): chosen on the settings page (a cookie of the browser),
// or before signing in on the sign-in page, or by the browser's own language. Every page of the
// header then speaks Norwegian: <html lang="nb">, the navigation, the page's heading.

const english = textsFor('en');
const norwegian = textsFor('nb');

let browser: TestBrowser;
let user: WebUser;

beforeAll(async () => {
  browser = await launchBrowser();
  user = await createWebUser({ role: 'admin', organizationName: 'Fjordkraft Innkjøp AS' });
});
afterAll(async () => {
  await browser?.close();
});

const htmlLang = (page: Page) => page.locator('html').getAttribute('lang');
const heading = async (page: Page) => (await page.getByRole('heading', { level: 1 }).first().textContent())?.trim();
const navLabels = (page: Page) => page.locator('header.site-header nav a').allTextContents();

async function chooseLanguage(page: Page, label: string, button: string): Promise<void> {
  await page.goto('/app/settings');
  await page.locator('#language').selectOption({ label });
  await submit(page, page.getByRole('button', { name: button }));
  expect(new URL(page.url()).pathname).toBe('/app/settings');
}

describe('Norwegian', () => {
  it('is chosen in settings, shown on every page of the header, and left again', async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    await signIn(page, user.email, user.password);

    // The headings in English first, to tell that each page changed language.
    const englishHeadings = new Map<string, string | undefined>();
    for (const item of NAV) {
      await page.goto(item.path);
      englishHeadings.set(item.id, await heading(page));
    }
    expect(await navLabels(page)).toEqual(NAV.map((item) => english.shell.nav[item.id]));

    await chooseLanguage(page, 'Norsk (bokmål)', english.settings.chooseLanguage);
    expect(await page.getByRole('status').textContent()).toBe(norwegian.settings.languageChanged);
    expect(await htmlLang(page)).toBe('nb');

    for (const item of NAV) {
      const response = await page.goto(item.path);
      expect(response?.status(), item.path).toBe(200);
      expect(await htmlLang(page), item.path).toBe('nb');
      expect(await navLabels(page), item.path).toEqual(NAV.map((entry) => norwegian.shell.nav[entry.id]));
      const shown = await heading(page);
      // Soft: every page is visited and shot even while another's heading is still English (each
      // area of the catalog is filled on its own; the failure lists every page still in English).
      expect.soft(shown, `${item.path}: the heading is still the English one`).not.toBe(englishHeadings.get(item.id));
      // The document's title names the same page as its heading.
      expect(await page.title(), item.path).toContain(' · Invoice Compliance');
      await screenshot(page, `nb-${item.id}`);
    }

    // The pages whose words are in this part of the catalog, word for word.
    await page.goto('/app');
    expect(await heading(page)).toBe(norwegian.overview.title);
    expect(await page.getByRole('heading', { name: norwegian.overview.nextSteps }).count()).toBe(1);
    await expectAccessible(page, 'overview in Norwegian');
    await page.goto('/app/integrations');
    expect(await heading(page)).toBe(norwegian.integrations.title);
    await page.goto('/app/search?query=faktura');
    expect(await heading(page)).toBe(norwegian.search.resultsForQuery('faktura'));
    // The header's search and the page's own.
    expect(await page.getByRole('button', { name: norwegian.shell.searchButton, exact: true }).count()).toBe(2);
    await page.goto('/app/settings');
    expect(await heading(page)).toBe(norwegian.settings.title);
    expect(await page.getByRole('heading', { name: norwegian.settings.apiKeys }).count()).toBe(1);
    await expectAccessible(page, 'settings in Norwegian');
    // A page that does not exist says so in Norwegian too.
    await page.goto('/app/invoices/00000000-0000-4000-8000-000000000000');
    expect(await htmlLang(page)).toBe('nb');
    expect(await heading(page)).toBe(norwegian.shell.errorTitles.notFound);

    // Back to English: the notice in English, every word as before.
    await chooseLanguage(page, 'English', norwegian.settings.chooseLanguage);
    expect(await page.getByRole('status').textContent()).toBe(english.settings.languageChanged);
    expect(await htmlLang(page)).toBe('en');
    expect(await heading(page)).toBe('Settings');
    await page.goto('/app');
    expect(await navLabels(page)).toEqual(NAV.map((item) => english.shell.nav[item.id]));
    expect(await heading(page)).toBe(englishHeadings.get('overview'));
    await context.close();
  });

  it('is offered on the sign-in page, and follows the browser language of a signed-out visitor', async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    await page.goto('/app/sign-in');
    expect(await htmlLang(page)).toBe('en');
    await submit(page, page.getByRole('button', { name: 'Norsk (bokmål)' }));
    expect(await htmlLang(page)).toBe('nb');
    expect(await heading(page)).toBe(norwegian.auth.signInTitle);
    await expectAccessible(page, 'sign-in in Norwegian', { every: true });
    await screenshot(page, 'nb-sign-in');
    await page.getByLabel(norwegian.auth.email).fill(user.email);
    await page.getByLabel(norwegian.auth.password).fill('not the password');
    await submit(page, page.getByRole('button', { name: norwegian.auth.signIn, exact: true }));
    expect(await page.getByRole('alert').textContent()).toBe(norwegian.auth.signInFailed);
    await page.getByLabel(norwegian.auth.password).fill(user.password);
    await submit(page, page.getByRole('button', { name: norwegian.auth.signIn, exact: true }));
    expect(new URL(page.url()).pathname).toBe('/app');
    expect(await heading(page)).toBe(norwegian.overview.title);
    await context.close();

    // A browser that asks for Norwegian gets it before choosing anything.
    const norwegianBrowser = await browser.browser.newContext({
      viewport: DESKTOP,
      baseURL: appUrl(),
      locale: 'nb-NO',
      timezoneId: 'UTC',
    });
    const visitor = await norwegianBrowser.newPage();
    await visitor.goto('/app/sign-in');
    expect(await htmlLang(visitor)).toBe('nb');
    expect(await heading(visitor)).toBe(norwegian.auth.signInTitle);
    // English is offered in its place.
    expect(await visitor.getByRole('button', { name: 'English' }).count()).toBe(1);
    await norwegianBrowser.close();
  });
});
