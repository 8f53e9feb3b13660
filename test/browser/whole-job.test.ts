import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/infra/defaults.js';
import { createTenant, type Tenant } from '../support/tenants.js';
import { launchBrowser, signInWithForm, submit, type TestBrowser } from './support/browser.js';
import { createWebUser, type WebUser } from './support/users.js';
import {
  CURRENCY,
  OVERCHARGES,
  SUPPLIER,
  TOTAL_OVERCHARGE,
  walkInvoices,
  type WalkInvoices,
} from './support/walk-invoices.js';

// The whole job as a new user does it, in the application only (issue 28, "Proof"): sign in;
// create an agreement and activate it; upload its contract and import its PDF price list through
// the preview; drag three invoices (e-invoice, PDF, scan) onto the upload page; correct the one
// reading the review queue holds; put the alerts the checks found into a claim in one go; download
// the letter and record the refund; see the money recovered on the overview's chart. Nothing is
// done through the API but what a newcomer's organization already has: their account, and an
// earlier invoice of the supplier (suppliers are known from invoices; the agreement form picks one).
// Each step asserts what the person sees. The Read and team-scoped walk is team-view.test.ts.

const PRICE_LIST = path.join(repoRoot, 'test', 'fixtures', 'price-list-documents', 'en-office-supplies.pdf');
const AGREEMENT = 'Office supplies 2026';
// Imports run in the worker (the scan through OCR); generous on a loaded machine.
const SETTLED_MS = 150_000;
const usd = (amount: string) =>
  new Intl.NumberFormat('en-GB', { style: 'currency', currency: CURRENCY }).format(Number(amount));

let browser: TestBrowser;
let tenant: Tenant;
let user: WebUser;
let files: WalkInvoices;
let context: BrowserContext;
let page: Page;
let agreementId: string;
let claimId: string;

beforeAll(async () => {
  browser = await launchBrowser();
  tenant = await createTenant({ name: 'Buyer Group AS' });
  // Last month's invoice of the supplier, already in the organization (as data, never checked).
  const earlier = await tenant.call('/v1/invoices', {
    method: 'POST',
    body: {
      invoice_number: `NW-OCT-${randomUUID().slice(0, 4)}`,
      issue_date: '2026-10-05',
      currency_code: CURRENCY,
      supplier: { name: SUPPLIER.name, org_number: SUPPLIER.orgNumber, vat_id: SUPPLIER.vatId, country_code: 'NO' },
      line_items: [{ description: 'Desk organiser', quantity: '1', unit_price: '18.00', net_amount: '18.00' }],
      amounts: { excluding_vat: '18.00', vat: '0', including_vat: '18.00' },
    },
  });
  expect(earlier.status, JSON.stringify(earlier.body)).toBe(201);
  user = await createWebUser({ role: 'write', organizationId: tenant.organizationId, name: 'Nina Dahl' });
  // Digits only: the scan's number is read by OCR, which takes a hex "1" for an "l" now and then.
  files = await walkInvoices(String(100_000 + Math.floor(Math.random() * 900_000)));
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

const main = async () => (await page.locator('main').textContent())!;
const row = (fileName: string) =>
  page.locator('li.upload-row', { has: page.locator('.upload-name', { hasText: fileName }) });

// A file dropped on the page as a person drags it from their desktop: a drop event whose
// DataTransfer holds the files (the bytes as base64, rebuilt in the page).
async function dropFiles(selector: string, paths: string[]): Promise<void> {
  const entries = await Promise.all(
    paths.map(async (file) => ({
      name: path.basename(file),
      type: file.endsWith('.xml') ? 'application/xml' : 'application/pdf',
      data: (await readFile(file)).toString('base64'),
    })),
  );
  // A string: it runs in the page, which the test's TypeScript (no DOM types) does not describe.
  const transfer = await page.evaluateHandle(`(() => {
    const transfer = new DataTransfer();
    for (const entry of ${JSON.stringify(entries)}) {
      const bytes = Uint8Array.from(atob(entry.data), (c) => c.charCodeAt(0));
      transfer.items.add(new File([bytes], entry.name, { type: entry.type }));
    }
    return transfer;
  })()`);
  await page.dispatchEvent(selector, 'dragenter', { dataTransfer: transfer });
  await page.dispatchEvent(selector, 'drop', { dataTransfer: transfer });
}

describe('the whole job, from a contract to money recovered', () => {
  it('1. signs in and lands on the overview', async () => {
    context = await browser.newContext();
    // A preview or an upload's answer reads the file first (a PDF in a helper process): on a busy
    // machine that can take longer than playwright's 30 s default for a click and its navigation.
    context.setDefaultTimeout(90_000);
    page = await context.newPage();
    await signInWithForm(page, user.email, user.password);
    expect(new URL(page.url()).pathname).toBe('/app');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Overview');
  });

  it('2. creates an agreement with the supplier picked by name, and activates it', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Agreements' }).click();
    await submit(page, page.getByRole('link', { name: 'New agreement' }));
    await page.getByLabel('Title', { exact: true }).fill(AGREEMENT);
    await page.getByLabel('Add a supplier').fill(SUPPLIER.name);
    await page.getByLabel('Effective from').fill('2026-01-01');
    await page.getByLabel('Expires on').fill('2026-12-31');
    await submit(page, page.getByRole('button', { name: 'Create agreement' }));
    agreementId = new URL(page.url()).pathname.split('/').pop()!;
    expect(agreementId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await main()).toContain('Agreement created.');
    expect(await page.getByRole('region', { name: 'Parties' }).textContent()).toContain(SUPPLIER.name);
    expect(await page.locator('.page-head .status').textContent()).toBe('Draft');

    await submit(page, page.locator('ul.readiness').getByRole('button', { name: 'Activate' }));
    expect(await page.locator('.page-head .status').textContent()).toBe('Active');
    // Not ready yet: nothing to check invoices against until its terms are there.
    expect(await page.locator('#readiness-heading').textContent()).toBe('Ready for checks: no');
    expect(await page.locator('ul.readiness li[data-gap="usable_terms"]').count()).toBe(1);
  });

  it('3. uploads the contract and imports the PDF price list through its preview; the agreement is ready', async () => {
    await page.getByLabel('Contract documents to upload').setInputFiles(files.contract);
    await submit(page, page.getByRole('button', { name: 'Upload documents' }));
    expect(await main()).toContain('Documents added');
    expect(await page.getByRole('link', { name: path.basename(files.contract) }).count()).toBe(1);

    await submit(page, page.getByRole('link', { name: 'Import a price list' }).first());
    await page.getByLabel('Price list file').setInputFiles(PRICE_LIST);
    await page.getByLabel('Currency of rows without one').fill(CURRENCY);
    await submit(page, page.getByRole('button', { name: 'Preview the rows' }));
    expect(await page.locator('[data-preview-counts]').textContent()).toContain('8 rows found: 8 would be added');
    const preview = (await page.locator('.preview-table').textContent())!;
    expect(preview).toContain(OVERCHARGES.pdf.description);
    expect(preview).toContain(OVERCHARGES.scan.item);
    await submit(page, page.getByRole('button', { name: 'Import these prices' }));
    await page
      .locator('[data-import-status="completed"], [data-import-status="failed"]')
      .waitFor({ timeout: SETTLED_MS });
    expect(await page.locator('#import-progress').textContent()).toContain('8 added');

    // The contract is read in the background; the agreement is ready once it is.
    await page.goto(`/app/agreements/${agreementId}`);
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.locator('#readiness-heading').textContent();
        },
        { timeout: SETTLED_MS, interval: 1000 },
      )
      .toBe('Ready for checks: yes');
    expect(await main()).toContain(OVERCHARGES.xml.description);
  }, 300_000);

  it('4. drags three invoices (XML, PDF, scan) onto the upload; each is imported', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Invoices' }).click();
    await page.getByRole('heading', { name: 'Upload invoices' }).waitFor();
    await dropFiles('[data-drop-zone]', [files.xml.file, files.pdf.file, files.scan.file]);
    for (const file of [files.xml.file, files.pdf.file, files.scan.file]) {
      const line = row(path.basename(file));
      await line
        .locator(
          'xpath=self::*[@data-upload-state!="uploading" and @data-upload-state!="queued" and @data-upload-state!="running"]',
        )
        .waitFor({ timeout: SETTLED_MS });
      expect(await line.getAttribute('data-upload-outcome'), (await line.textContent())!).toBe('imported');
      expect(await line.locator('.status').textContent()).toBe('Imported');
    }
    // The list shows them, each with its supplier.
    await submit(page, page.getByRole('link', { name: 'Show the new invoices in the list' }));
    const list = await main();
    expect(list).toContain(files.xml.number);
    expect(list).toContain(files.scan.number);
    expect(list).toContain(SUPPLIER.name);
  }, 300_000);

  it('5. corrects the one uncertain reading in the review queue', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Review' }).click();
    await page.waitForURL('**/app/review');
    const queue = page.locator('table.review-queue tbody tr', { hasText: 'No invoice number could be read.' });
    expect(await queue.count()).toBe(1);
    expect(await queue.textContent()).toContain(SUPPLIER.name);
    await submit(page, queue.getByRole('link', { name: 'Review (no number)' }));
    expect(await page.inputValue('#rf-invoice_number')).toBe('');
    // The page beside the form shows where to look: the number to quote when paying.
    await page.locator('img.review-page-image').waitFor();
    await page.fill('#rf-invoice_number', files.pdf.number);
    await Promise.all([page.waitForNavigation(), page.press('#rf-invoice_number', 'Enter')]);
    expect(await main()).toContain('Saved; the invoice left the review queue.');
    expect(
      await page.locator('table.review-queue tbody tr', { hasText: 'No invoice number could be read.' }).count(),
    ).toBe(0);
    await page.goto('/app/invoices');
    expect(await main()).toContain(files.pdf.number);
  });

  it('6. puts every open alert of the agreement into a new claim in one go', async () => {
    await page.goto(`/app/agreements/${agreementId}`);
    await submit(page, page.getByRole('link', { name: 'Open alerts' }));
    // One alert per invoice: the article billed above its agreed price, with what it cost.
    const rows = await Promise.all(
      (await page.locator('tr[data-alert-row]').all()).map((row) => row.locator('td').allTextContents()),
    );
    const found = rows.map((cells) => `${cells[1]!.trim()} ${cells[5]!.trim()}`).sort();
    expect(found, JSON.stringify(rows)).toEqual(
      [
        `${files.xml.number} ${usd(OVERCHARGES.xml.impact)}`,
        `${files.pdf.number} ${usd(OVERCHARGES.pdf.impact)}`,
        `${files.scan.number} ${usd(OVERCHARGES.scan.impact)}`,
      ].sort(),
    );
    expect(await page.locator('p.summary').textContent()).toContain(usd(TOTAL_OVERCHARGE));

    await page.getByRole('radio', { name: /All 3 alerts matching/ }).check();
    await page.getByLabel('Add to claim').selectOption('new');
    await page.getByLabel('Title of a new claim').fill('Office supplies overcharged in November');
    await submit(page, page.getByRole('button', { name: 'Add to claim' }));
    expect(await page.locator('#outcome').textContent()).toMatch(/Claim CLM-\d{4}-\d{4} created with 3 alerts\./);
    expect(await main()).toContain('No alerts match these filters');
  });

  it('7. downloads the letter and records the refund', async () => {
    await submit(page, page.getByRole('link', { name: /Open the claim CLM-/ }));
    claimId = new URL(page.url()).pathname.split('/').pop()!;
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain(
      'Office supplies overcharged in November',
    );
    const totals = (await page.getByRole('region', { name: 'Totals' }).textContent())!;
    expect(totals).toContain(usd(TOTAL_OVERCHARGE));

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download letter (PDF)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^CLM-\d{4}-\d{4}\.pdf$/);
    const letter = execFileSync('pdftotext', ['-', '-'], { input: await readFile(await download.path()) }).toString();
    expect(letter).toContain(SUPPLIER.name);
    expect(letter).toContain(download.suggestedFilename().replace(/\.pdf$/, ''));
    for (const { description } of Object.values(OVERCHARGES)) expect(letter).toContain(description);

    await page.getByLabel('Amount', { exact: true }).fill(TOTAL_OVERCHARGE);
    expect(await page.getByLabel('Currency', { exact: true }).inputValue()).toBe(CURRENCY);
    await page.getByLabel('Reference (optional)').fill('Bank transfer 2026-11-27');
    await submit(page, page.getByRole('button', { name: 'Record refund' }));
    expect(await main()).toContain('Refund recorded.');
    expect(await page.getByRole('table', { name: 'Refunds' }).textContent()).toContain(usd(TOTAL_OVERCHARGE));
  });

  it('8. sees the recovered amount on the overview chart', async () => {
    await page
      .getByRole('link', { name: /Invoice Compliance/ })
      .first()
      .click();
    await page.waitForURL('**/app');
    const name = `Overcharges found vs recovered per month (${CURRENCY})`;
    expect(await page.getByRole('img', { name, exact: true }).count()).toBe(1);
    const month = new Date().toISOString().slice(0, 7);
    const thisMonth = page
      .getByRole('table', { name, exact: true, includeHidden: true })
      .getByRole('row', { includeHidden: true })
      .filter({ hasText: month });
    const cells = await thisMonth.locator('td, th').allTextContents();
    // Month, found, recovered: all three overcharges found this month, and all of it recovered.
    expect(cells.map((cell) => cell.trim())).toEqual([month, usd(TOTAL_OVERCHARGE), usd(TOTAL_OVERCHARGE)]);
    expect(claimId).toBeTruthy();
  });
});
