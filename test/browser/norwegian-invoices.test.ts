import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimSetup } from '../support/claims.js';
import { samplesRoot } from '../support/invoices.js';
import { startTestRun } from '../support/runs.js';
import { createTenant, type Tenant } from '../support/tenants.js';
import { appUrl, expectAccessible, launchBrowser, signIn, type TestBrowser } from './support/browser.js';
import { givePassword, PASSWORD } from './support/users.js';

// The invoice, upload, review, run, team and notification pages in Norwegian (issue 28): with the
// language cookie the settings page sets, each page says `lang="nb"` and its headings, buttons and
// messages are bokmål, the upload script's words included (they come from the page).

const XML = path.join(samplesRoot, 'peppol-bis3', 'peppol-allowance-example.xml');
// An import reads the file in the worker; under load that takes a while.
const SETTLED_MS = 90_000;

let browser: TestBrowser;
let tenant: Tenant;
let context: BrowserContext;
let page: Page;
let invoiceId: string;

beforeAll(async () => {
  browser = await launchBrowser();
  tenant = await createTenant({ name: 'Fjellvann Drift AS' });
  const setup = await claimSetup(tenant, [{ number: 'NB-2026-0007' }]);
  invoiceId = setup.invoices[0]!.id;
  context = await browser.newContext();
  page = await context.newPage();
  // Signed in first (the sign-in page is not part of these pages), then the language chosen.
  await signIn(page, await givePassword(tenant.userId), PASSWORD);
  await context.addCookies([{ name: 'ics_lang', value: 'nb', domain: new URL(appUrl()).hostname, path: '/app' }]);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

const heading = async () => (await page.getByRole('heading', { level: 1 }).textContent())?.trim();
const lang = () => page.getAttribute('html', 'lang');

describe('the invoice and work pages in Norwegian', () => {
  it('shows the invoice list, its filters and the upload in Norwegian', async () => {
    await page.goto('/app/invoices');
    expect(await lang()).toBe('nb');
    expect(await heading()).toBe('Fakturaer');
    expect(await page.getByRole('heading', { name: 'Last opp fakturaer' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Filtrer' }).count()).toBe(1);
    expect(await page.getAttribute('#search', 'placeholder')).toBe('Fakturanummer eller leverandør');
    // The count in its sentence, in Norwegian word order and number.
    expect(await page.locator('p.summary').textContent()).toBe('Viser 1–1 av 1 faktura');
    expect(await page.locator('table.list tbody tr td').first().textContent()).toContain('NB-2026-0007');
    await expectAccessible(page, 'invoices in Norwegian');
  });

  it('uploads an invoice with the words of the page, the script included', async () => {
    await page.goto('/app/invoices');
    await page.getByLabel('Velg filer').setInputFiles([XML]);
    await page.getByRole('button', { name: 'Last opp', exact: true }).click();
    const line = page.locator('li.upload-row', {
      has: page.locator('.upload-name', { hasText: path.basename(XML) }),
    });
    await line.locator('xpath=self::*[@data-upload-state="completed"]').waitFor({ timeout: SETTLED_MS });
    expect(await line.locator('.status').textContent()).toBe('Importert');
    expect(await line.getByRole('link', { name: /Åpne fakturaen/ }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Vis de nye fakturaene i listen' }).isVisible()).toBe(true);
    // The form carries the script's words (a static file) in the page's language.
    expect(await page.locator('form[data-upload]').getAttribute('data-text-uploading')).toBe('Laster opp');
  });

  it("shows an invoice's page in Norwegian", async () => {
    await page.goto(`/app/invoices/${invoiceId}`);
    expect(await lang()).toBe('nb');
    expect(await heading()).toBe('Faktura NB-2026-0007');
    expect(await page.title()).toContain('Faktura NB-2026-0007');
    for (const name of ['Sammendrag', 'Linjer', 'Avtaler', 'Kontroller', 'Kommentarer', 'Aktivitet'])
      expect(await page.getByRole('heading', { name, exact: true }).count(), name).toBe(1);
    expect(await page.getByRole('button', { name: 'Legg til kommentar' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Lagre', exact: true }).count()).toBe(1);
    expect(await page.getByLabel('Fakturanummer').count()).toBe(1);
    await expectAccessible(page, 'invoice in Norwegian');
  });

  it('shows the review queue and an invoice to review in Norwegian', async () => {
    await page.goto('/app/review');
    expect(await lang()).toBe('nb');
    expect(await heading()).toBe('Gjennomgang');
    expect(await page.getByRole('heading', { name: 'Fakturaer til gjennomgang' }).count()).toBe(1);
    expect(await page.getByText('Ingenting å gå gjennom: alle avlesninger går opp.').count()).toBe(1);
    await page.goto(`/app/review/invoices/${invoiceId}`);
    expect(await heading()).toBe('Gå gjennom faktura NB-2026-0007');
    expect(await page.getByRole('heading', { name: 'Originaldokument' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Lagre og gå til neste' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Fakturasiden' }).count()).toBe(1);
    await expectAccessible(page, 'review item in Norwegian');
  });

  it('shows the runs and a run in Norwegian', async () => {
    const runId = await startTestRun(tenant, { items: [{ key: 'a', behaviour: 'succeed' }] });
    await page.goto('/app/runs');
    expect(await lang()).toBe('nb');
    expect(await heading()).toBe('Kjøringer');
    expect(await page.getByRole('button', { name: 'Filtrer' }).count()).toBe(1);
    await page.goto(`/app/runs/${runId}`);
    expect(await lang()).toBe('nb');
    for (const name of ['Fremdrift', 'Kjøring', 'Elementer'])
      expect(await page.getByRole('heading', { name, exact: true }).count(), name).toBe(1);
    const progress = page.locator('section[aria-labelledby="progress-heading"] p').first();
    expect(await progress.textContent()).toMatch(/^\d+ av .+ elementer ferdige: \d+ fullført, /);
    await expectAccessible(page, 'run in Norwegian');
  });

  it('shows the teams and a new team in Norwegian', async () => {
    await page.goto('/app/teams');
    expect(await lang()).toBe('nb');
    expect(await heading()).toBe('Team');
    expect(await page.getByText('Ingen team ennå.').count()).toBe(1);
    await page.getByRole('link', { name: 'Nytt team' }).click();
    await page.waitForURL('**/app/teams/new');
    expect(await heading()).toBe('Nytt team');
    expect(await page.getByRole('button', { name: 'Opprett team' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Legg til betingelse' }).count()).toBe(1);
    // The filter's fields and comparisons.
    expect(await page.locator('select[name="n.0.field"] option:checked').textContent()).toBe('Leverandør');
    expect(await page.locator('select[name="n.0.op"] option:checked').textContent()).toBe('er');
    await expectAccessible(page, 'new team in Norwegian');
  });

  it('shows the notifications in Norwegian', async () => {
    await page.goto('/app/settings/notifications');
    expect(await lang()).toBe('nb');
    expect(await heading()).toBe('Varslinger');
    expect(await page.getByRole('heading', { name: 'Dine varslinger' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Legg til kilde' }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Leveringslogg' }).count()).toBe(1);
    await expectAccessible(page, 'notifications in Norwegian');
  });
});
