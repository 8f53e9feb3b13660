import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplesRoot } from '../support/invoices.js';
import { testDb } from '../support/tenants.js';
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
import { createWebUser } from './support/users.js';

// Uploading invoices on the invoices page (issue 28): the API's document registration, byte
// upload and import, run in process, with each file's outcome polled while the import runs.

const XML = path.join(samplesRoot, 'peppol-bis3', 'peppol-allowance-example.xml');
const PDF = path.join(samplesRoot, 'pdf-facturx', 'akretion-invoice_EN16931.pdf');
const NOT_INVOICE = path.join(samplesRoot, 'pdf-not-invoice', 'mustang-ZugferdDev.en.pdf');
// An import reads the file in the worker; under load that takes a while.
const SETTLED_MS = 90_000;

let browser: TestBrowser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const row = (page: Page, fileName: string) =>
  page.locator('li.upload-row', { has: page.locator('.upload-name', { hasText: fileName }) });

// Waits until the file's line has left queued and running (htmx polls the import), and returns it.
async function settled(page: Page, fileName: string) {
  const line = row(page, fileName).first();
  await line
    .locator(
      'xpath=self::*[@data-upload-state!="uploading" and @data-upload-state!="queued" and @data-upload-state!="running"]',
    )
    .waitFor({ timeout: SETTLED_MS });
  return {
    state: await line.getAttribute('data-upload-state'),
    outcome: await line.getAttribute('data-upload-outcome'),
    text: (await line.textContent())!,
    line,
  };
}

describe('invoice upload', () => {
  it('uploads an XML and a PDF invoice with the file input, shows each outcome with a link, and a repeat as a duplicate', async () => {
    const user = await createWebUser({ role: 'write' });
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, user.email, user.password);
    await page.goto('/app/invoices');
    await expectAccessible(page, 'invoices with the upload');

    // The keyboard way: the file input, then Upload.
    await page.getByLabel('Choose files').setInputFiles([XML, PDF, NOT_INVOICE]);
    await page.getByRole('button', { name: 'Upload' }).click();

    const xml = await settled(page, path.basename(XML));
    expect(xml.state, xml.text).toBe('completed');
    expect(xml.outcome).toBe('imported');
    const pdf = await settled(page, path.basename(PDF));
    expect(pdf.state, pdf.text).toBe('completed');
    expect(pdf.outcome).toBe('imported');
    const other = await settled(page, path.basename(NOT_INVOICE));
    expect(other.state, other.text).toBe('completed');
    expect(other.outcome).toBe('not_invoice');
    expect(other.text).toContain('Not an invoice');

    // Each imported file links to its invoice, the invoice of this organization.
    const invoices = await testDb().invoice.findMany({
      where: { organizationId: user.organizationId },
      select: { id: true },
    });
    expect(invoices).toHaveLength(2);
    const href = await xml.line.getByRole('link', { name: /Open the invoice/ }).getAttribute('href');
    expect(invoices.map((invoice) => `/app/invoices/${invoice.id}`)).toContain(href);
    await expectAccessible(page, 'upload outcomes');
    await screenshot(page, 'invoice-upload');

    // Dropped onto the page: the same XML again is the existing invoice.
    // A string: it runs in the page, which the test's TypeScript (no DOM types) does not describe.
    const content = JSON.stringify(readFileSync(XML, 'utf8'));
    const dropped = await page.evaluateHandle(`(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([${content}], 'again.xml', { type: 'application/xml' }));
      return transfer;
    })()`);
    await page.dispatchEvent('[data-drop-zone]', 'drop', { dataTransfer: dropped });
    const again = await settled(page, 'again.xml');
    expect(again.state, again.text).toBe('completed');
    expect(again.outcome).toBe('duplicate');
    expect(await again.line.getByRole('link', { name: /Open the existing invoice/ }).getAttribute('href')).toBe(href);
    expect(await testDb().invoice.count({ where: { organizationId: user.organizationId } })).toBe(2);

    // On a phone the upload fits the width.
    const phone = await browser.newContext(PHONE);
    const phonePage = await phone.newPage();
    await signIn(phonePage, user.email, user.password);
    await phonePage.goto('/app/invoices');
    await phonePage.getByLabel('Choose files').setInputFiles([PDF]);
    await phonePage.getByRole('button', { name: 'Upload' }).click();
    expect((await settled(phonePage, path.basename(PDF))).outcome).toBe('duplicate');
    expect(await phonePage.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(phonePage, 'upload on a phone');
    await screenshot(phonePage, 'invoice-upload.phone');
    await phone.close();
    await context.close();
  });

  it('works without script: a plain multipart form post answers each file, and its import page settles', async () => {
    const user = await createWebUser({ role: 'write' });
    const context = await browser.browser.newContext({
      baseURL: appUrl(),
      javaScriptEnabled: false,
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    await signIn(page, user.email, user.password);
    await page.goto('/app/invoices');
    await page.getByLabel('Choose files').setInputFiles([XML, PDF]);
    await submit(page, page.getByRole('button', { name: 'Upload' }));
    expect(new URL(page.url()).pathname).toBe('/app/invoices/upload');
    expect(await page.locator('li.upload-row').count()).toBe(2);
    // (axe-core needs script: the same view is checked below, with script, on an import's page.)
    const importLinks: string[] = [];
    // Each line links to its import's page, which shows the outcome once the import ends.
    for (const fileName of [path.basename(XML), path.basename(PDF)]) {
      const line = row(page, fileName);
      const state = await line.getAttribute('data-upload-state');
      if (state === 'completed') continue;
      const importPage = await context.newPage();
      importLinks.push((await line.getByRole('link', { name: /Check again/ }).getAttribute('href'))!);
      await importPage.goto(importLinks.at(-1)!);
      const deadline = Date.now() + SETTLED_MS;
      while (
        ['queued', 'running'].includes(
          (await importPage.locator('li.upload-row').getAttribute('data-upload-state'))!,
        ) &&
        Date.now() < deadline
      ) {
        await importPage.waitForTimeout(1000);
        await importPage.reload();
      }
      expect(await importPage.locator('li.upload-row').getAttribute('data-upload-outcome')).toBe('imported');
      await importPage.close();
    }
    expect(await testDb().invoice.count({ where: { organizationId: user.organizationId } })).toBe(2);
    await context.close();
    if (importLinks.length > 0) {
      const scripted = await browser.newContext();
      const importPage = await scripted.newPage();
      await signIn(importPage, user.email, user.password);
      await importPage.goto(importLinks[0]!);
      expect(await importPage.getByRole('link', { name: /Open the invoice/ }).count()).toBe(1);
      await expectAccessible(importPage, "an import's page");
      await scripted.close();
    }
  }, 240_000);

  it('shows a Read member no upload, and refuses a forged one unread', async () => {
    const admin = await createWebUser({ role: 'admin' });
    const reader = await createWebUser({ role: 'read', organizationId: admin.organizationId });
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, reader.email, reader.password);
    await page.goto('/app/invoices');
    expect(await page.getByRole('heading', { name: 'Upload invoices' }).count()).toBe(0);
    expect(await page.locator('input[type="file"]').count()).toBe(0);
    await expectAccessible(page, 'invoices for a Read member');
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const forged = await page.request.post('/app/invoices/upload', {
      multipart: { _csrf: csrf, files: { name: 'forged.xml', mimeType: 'application/xml', buffer: readFileSync(XML) } },
    });
    expect(forged.status()).toBe(403);
    expect(await testDb().document.count({ where: { organizationId: admin.organizationId } })).toBe(0);
    expect(await testDb().invoiceImport.count({ where: { organizationId: admin.organizationId } })).toBe(0);
    await context.close();
  });

  it('refuses a form without its CSRF token and stores nothing', async () => {
    const user = await createWebUser({ role: 'write' });
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, user.email, user.password);
    const refused = await page.request.post('/app/invoices/upload', {
      multipart: { files: { name: 'invoice.xml', mimeType: 'application/xml', buffer: readFileSync(XML) } },
    });
    expect(refused.status()).toBe(403);
    expect(await testDb().document.count({ where: { organizationId: user.organizationId } })).toBe(0);
    await context.close();
  });
});
