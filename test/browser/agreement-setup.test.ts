import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/infra/defaults.js';
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
import { createWebUser, type WebUser } from './support/users.js';

// Setting an agreement up as a finance person would, in the application only (issue 28): create it
// with a supplier picked by name, a refused form kept with its error at the field, activate it from
// its readiness, upload a contract PDF, import a CSV and a PDF price list through their previews,
// edit a price in place, and end it. Every page is checked with axe-core, and fits a phone.

const FIXTURES = path.join(repoRoot, 'test', 'fixtures', 'price-list-documents');
const CONTRACT_PDF = path.join(FIXTURES, 'no-furniture.pdf');
const PRICE_PDF = path.join(FIXTURES, 'en-office-supplies.pdf');
const CSV = [
  'Prisliste 2026;;;',
  ';;;',
  'Artikkelnummer;Beskrivelse;Enhet;Pris',
  'P-A4;Kopipapir A4;pk;42,50',
  'T-1;Toner sort;stk;615,00',
  'X-9;Stiftemaskin;stk;abc',
  'P-A4;Kopipapir A4;pk;42,50',
].join('\n');
// An import reads the file in the worker; under load that takes a while.
const SETTLED_MS = 120_000;

let browser: TestBrowser;
let csvPath: string;
beforeAll(async () => {
  browser = await launchBrowser();
  csvPath = path.join(mkdtempSync(path.join(tmpdir(), 'agreement-setup-')), 'prisliste.csv');
  writeFileSync(csvPath, CSV, 'utf8');
});
afterAll(async () => {
  await browser?.close();
});

async function withSupplier(): Promise<{ user: WebUser; supplier: string }> {
  const user = await createWebUser({ role: 'write' });
  const supplier = `Kontorhuset ${randomUUID().slice(0, 4)} AS`;
  // Suppliers come from invoices; two named alike, so the picker must choose by the whole name.
  await testDb().supplier.createMany({
    data: [supplier, `${supplier} Filial`].map((name) => ({
      id: randomUUID(),
      organizationId: user.organizationId,
      name,
    })),
  });
  return { user, supplier };
}

const fits = async (page: Page) =>
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);

// Upload, preview, confirm, and wait for the import's outcome (htmx polls it).
async function importThroughPreview(page: Page, agreementId: string, file: string, currency: string, shots = false) {
  const importsBefore = await testDb().priceImport.count({ where: { agreementId } });
  await page.goto(`/app/agreements/${agreementId}`);
  await submit(page, page.getByRole('link', { name: 'Import a price list' }).first());
  expect(new URL(page.url()).pathname).toBe(`/app/agreements/${agreementId}/price-import`);
  await expectAccessible(page, 'price import form');
  if (shots) await screenshot(page, 'agreement-import');
  await page.getByLabel('Price list file').setInputFiles(file);
  await page.getByLabel('Currency of rows without one').fill(currency);
  await submit(page, page.getByRole('button', { name: 'Preview the rows' }));
  const counts = (await page.locator('[data-preview-counts]').textContent())!;
  await expectAccessible(page, 'price import preview');
  if (shots) await screenshotBothWidths(page, 'agreement-import-preview');
  const previewed = await page.locator('.preview-table tbody tr').count();
  // Nothing is saved by the preview: no import yet besides the earlier ones.
  expect(await testDb().priceImport.count({ where: { agreementId } })).toBe(importsBefore);
  await submit(page, page.getByRole('button', { name: 'Import these prices' }));
  await page
    .locator('[data-import-status="completed"], [data-import-status="failed"]')
    .waitFor({ timeout: SETTLED_MS });
  const outcome = (await page.locator('#import-progress').textContent())!;
  await expectAccessible(page, 'price import outcome');
  if (shots) await screenshotBothWidths(page, 'agreement-import-status');
  return {
    counts,
    previewed,
    outcome,
    status: await page.locator('#import-progress').getAttribute('data-import-status'),
  };
}

describe('agreement setup in the application', () => {
  it('creates, activates, documents, imports, edits and ends an agreement without a terminal', async () => {
    const { user, supplier } = await withSupplier();
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, user.email, user.password);

    // Create: from the list's button.
    await page.goto('/app/agreements');
    await submit(page, page.getByRole('link', { name: 'New agreement' }));
    await expectAccessible(page, 'new agreement');
    await screenshot(page, 'agreement-new');

    // A refused form keeps every value and shows each error at its field.
    await page.getByLabel('Title', { exact: true }).fill('Kontorrekvisita 2026');
    await page.getByLabel('Add a supplier').fill(supplier);
    await page.getByLabel('Renewal period (months)').fill('twelve');
    await page.getByLabel('Currencies (codes, comma-separated)').fill('EURO');
    await page.getByLabel('Instructions for checks').fill('Prices exclude VAT.');
    await submit(page, page.getByRole('button', { name: 'Create agreement' }));
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Kontorrekvisita 2026');
    expect(await page.getByLabel('Add a supplier').inputValue()).toBe(supplier);
    expect(await page.getByLabel('Instructions for checks').inputValue()).toBe('Prices exclude VAT.');
    const period = page.getByLabel('Renewal period (months)');
    expect(await period.inputValue()).toBe('twelve');
    expect(await period.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#period_months-error').textContent()).toBeTruthy();
    expect(await page.getByLabel('Currencies (codes, comma-separated)').getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page, 'refused agreement form');
    expect(await testDb().agreement.count({ where: { organizationId: user.organizationId } })).toBe(0);

    // Corrected, with renewal and a new tag: the agreement page.
    await period.fill('12');
    await page.getByLabel('Notice (days)').fill('90');
    await page.getByLabel('Renews automatically').check();
    await page.getByLabel('Currencies (codes, comma-separated)').fill('NOK, EUR');
    await page.getByLabel('Effective from').fill('2026-01-01');
    await page.getByLabel('Expires on').fill('2026-12-31');
    await page.getByLabel('New tag').fill('Office');
    await submit(page, page.getByRole('button', { name: 'Create agreement' }));
    const agreementId = new URL(page.url()).pathname.split('/').pop()!;
    expect(agreementId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await page.locator('main').textContent()).toContain('Agreement created.');
    const parties = (await page.getByRole('region', { name: 'Parties' }).textContent())!;
    expect(parties).toContain(supplier);
    expect(parties).not.toContain(`${supplier} Filial`);
    expect(await page.getByRole('region', { name: 'Terms' }).textContent()).toContain('Office');

    // Readiness: each point with its fix; activate from there.
    const readiness = page.locator('ul.readiness');
    expect(await readiness.locator('li[data-gap="active_status"]').count()).toBe(1);
    // Every point carries its fix: a link to the form, or the button itself.
    for (const point of await readiness.locator('li').all())
      expect(await point.locator('a, button').count(), (await point.textContent())!).toBeGreaterThan(0);
    await expectAccessible(page, 'agreement with readiness fixes');
    await screenshotBothWidths(page, 'agreement-readiness');
    await submit(page, readiness.getByRole('button', { name: 'Activate' }));
    expect(await page.locator('.page-head .status').textContent()).toBe('Active');
    expect(await page.locator('li[data-gap="active_status"]').count()).toBe(0);

    // A contract PDF: uploaded, listed, downloadable.
    await page.getByLabel('Contract documents to upload').setInputFiles(CONTRACT_PDF);
    await submit(page, page.getByRole('button', { name: 'Upload documents' }));
    expect(await page.locator('main').textContent()).toContain('Documents added');
    const link = page.getByRole('link', { name: path.basename(CONTRACT_PDF) });
    expect(await link.getAttribute('href')).toMatch(/^\/app\/documents\/[0-9a-f-]{36}\/file$/);
    const download = await context.request.get(new URL((await link.getAttribute('href'))!, page.url()).toString());
    expect(download.status()).toBe(200);
    expect((await download.body()).subarray(0, 5).toString()).toBe('%PDF-');

    // A CSV price list through its preview: 4 rows, 2 new, 1 duplicate, 1 rejected.
    const csv = await importThroughPreview(page, agreementId, csvPath, 'NOK', true);
    expect(csv.counts).toContain('4 rows found: 2 would be added, 1 skipped as duplicates, 1 rejected');
    expect(csv.previewed).toBe(4);
    expect(csv.status, csv.outcome).toBe('completed');
    expect(csv.outcome).toContain('2 added, 1 skipped as duplicates, 1 rejected');

    // A PDF price list through its preview.
    const pdf = await importThroughPreview(page, agreementId, PRICE_PDF, 'EUR');
    expect(pdf.counts).toMatch(/^\d+ rows found: 8 would be added/);
    expect(pdf.status, pdf.outcome).toBe('completed');
    expect(pdf.outcome).toContain('8 added');
    expect(await testDb().priceItem.count({ where: { agreementId } })).toBe(10);

    // A price edited in place: refused first (kept, error at the field), then saved.
    await page.goto(`/app/agreements/${agreementId}?prices_search=Kopipapir`);
    const row = page.locator('tr', { hasText: 'Kopipapir A4' });
    await row.getByText('Edit').click();
    const amount = row.getByLabel('Price', { exact: true });
    await amount.fill('12,50');
    await submit(page, row.getByRole('button', { name: /^Save/ }));
    const refusedRow = page.locator('tr', { hasText: 'Kopipapir A4' });
    expect(await refusedRow.locator('details').getAttribute('open')).not.toBeNull();
    expect(await refusedRow.getByLabel('Price', { exact: true }).inputValue()).toBe('12,50');
    expect(await refusedRow.getByLabel('Price', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page, 'refused price edit');
    await refusedRow.getByLabel('Price', { exact: true }).fill('45.00');
    await submit(page, refusedRow.getByRole('button', { name: /^Save/ }));
    expect(await page.locator('main').textContent()).toContain('Price item saved.');
    const paper = await testDb().priceItem.findFirstOrThrow({ where: { agreementId, sellerItemId: 'P-A4' } });
    expect(paper.amount?.toFixed(2)).toBe('45.00');

    // End it on a date.
    await page.locator('.end-agreement > summary').click();
    await page.getByLabel('Ends on').fill('2026-06-30');
    await submit(page, page.locator('.end-agreement').getByRole('button', { name: 'End the agreement' }));
    expect(await page.locator('main').textContent()).toContain('The agreement ends on 2026-06-30');
    const ended = await testDb().agreement.findUniqueOrThrow({ where: { id: agreementId } });
    expect(ended.expirationDate?.toISOString().slice(0, 10)).toBe('2026-06-30');
    await expectAccessible(page, 'ended agreement');

    // The same pages on a phone.
    const phone = await browser.newContext(PHONE);
    const phonePage = await phone.newPage();
    await signIn(phonePage, user.email, user.password);
    for (const [url, name] of [
      ['/app/agreements/new', 'agreement-new.phone'],
      [`/app/agreements/${agreementId}/edit`, 'agreement-edit.phone'],
      [`/app/agreements/${agreementId}/price-import`, 'agreement-import.phone'],
    ] as const) {
      await phonePage.goto(url);
      await fits(phonePage);
      await expectAccessible(phonePage, name);
      await screenshot(phonePage, name);
    }
    await phone.close();
    await context.close();
  });

  it('hides setup from a Read member and refuses it on the server', async () => {
    const { user } = await withSupplier();
    const reader = await createWebUser({ role: 'read', organizationId: user.organizationId });
    const agreement = await testDb().agreement.create({
      data: { id: randomUUID(), organizationId: user.organizationId, title: 'Read only' },
    });
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, reader.email, reader.password);
    await page.goto(`/app/agreements/${agreement.id}`);
    expect(await page.getByRole('link', { name: 'Edit agreement' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Activate' }).count()).toBe(0);
    expect(await page.getByLabel('Contract documents to upload').count()).toBe(0);
    expect((await page.goto('/app/agreements/new'))!.status()).toBe(403);
    const csrf = await page.evaluate<string>(`document.querySelector('body').getAttribute('hx-headers')`);
    const token = (JSON.parse(csrf) as Record<string, string>)['X-CSRF-Token']!;
    const forged = await context.request.post(`/app/agreements/${agreement.id}/status`, {
      form: { _csrf: token, status: 'active' },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(403);
    expect((await testDb().agreement.findUniqueOrThrow({ where: { id: agreement.id } })).status).toBe('draft');
    await context.close();
  });
});
