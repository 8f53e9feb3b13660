import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/api.js';
import { uploadDocument } from '../support/invoices.js';
import { createTenant, testDb } from '../support/tenants.js';
import { unusualPdfInvoice, type UnusualInvoice } from '../support/unusual-pdf-invoices.js';
import {
  expectAccessible,
  launchBrowser,
  PHONE,
  screenshot,
  screenshotBothWidths,
  signIn,
  type TestBrowser,
} from './support/browser.js';
import { createWebUser, givePassword, PASSWORD, type WebUser } from './support/users.js';

// The review queue and the invoice page (issue 28): a PDF invoice whose number the layout reader
// cannot read is uploaded, waits in the queue with its reason, is opened beside its original page
// with the boxes its values were read from, is corrected with the keyboard only (a refused value
// stays at its field), leaves the queue, and its invoice page shows the correction, a comment and
// the activity timeline.

const SETTLED_MS = 90_000;

let browser: TestBrowser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

function uncertainInvoice(): UnusualInvoice {
  return {
    supplier: `Fjordmontasje ${randomUUID().slice(0, 6)} AS`,
    orgNumber: '987 654 321',
    iban: null,
    ledgerKey: `LK-${randomUUID().slice(0, 6)}`,
    issueDate: '2025-03-14',
    settlementDay: '2025-04-13',
    lines: [
      { description: 'Mounting work', quantity: '3', unitPrice: '850.00' },
      { description: 'Brackets', quantity: '12', unitPrice: '45.50' },
    ],
  };
}

// Enter on a focused element that submits, and the page it leads to.
async function pressEnter(page: Page): Promise<void> {
  await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
}

// Replaces a focused input's value with the keyboard.
async function typeInto(page: Page, selector: string, value: string): Promise<void> {
  await page.focus(selector);
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(value);
}

async function noSidewaysScroll(page: Page): Promise<void> {
  const width = await page.evaluate<number>('document.documentElement.scrollWidth');
  expect(width).toBeLessThanOrEqual(PHONE.width);
}

// One story in steps (each within the test timeout on a busy machine), sharing the signed-in page.
describe('review queue', () => {
  const printed = uncertainInvoice();
  let user: WebUser;
  let context: BrowserContext;
  let page: Page;
  let invoiceId: string;
  afterAll(async () => {
    await context?.close();
  });

  it('lists an uploaded PDF invoice whose number cannot be read, with its reason', async () => {
    user = await createWebUser({ role: 'write', name: 'Rita Reviewer' });
    const dir = await mkdtemp(path.join(tmpdir(), 'review-'));
    const file = path.join(dir, 'uncertain-invoice.pdf');
    await writeFile(file, await unusualPdfInvoice(printed));

    context = await browser.newContext();
    page = await context.newPage();
    await signIn(page, user.email, user.password);
    await page.goto('/app/invoices');
    await page.getByLabel('Choose files').setInputFiles([file]);
    await page.getByRole('button', { name: 'Upload' }).click();
    await page
      .locator('li.upload-row[data-upload-state="completed"][data-upload-outcome="imported"]')
      .waitFor({ timeout: SETTLED_MS });
    const invoice = await testDb().invoice.findFirstOrThrow({ where: { organizationId: user.organizationId } });
    invoiceId = invoice.id;

    // The queue, in the header's navigation: the invoice with its reason.
    await page.goto('/app');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Review' }).focus();
    await pressEnter(page);
    expect(new URL(page.url()).pathname).toBe('/app/review');
    const queue = (await page.textContent('main'))!;
    expect(queue).toContain('No invoice number could be read.');
    expect(queue).toContain(printed.supplier);
    await expectAccessible(page, 'review queue');
    await screenshot(page, 'review');
  });

  it('opens it beside its original page, keeps a refused value at its field, and saves the correction with Enter', async () => {
    const invoice = { id: invoiceId };
    // Opened with the keyboard: the original's page as an image, the read values outlined on it.
    await page.getByRole('link', { name: 'Start with the oldest' }).focus();
    await pressEnter(page);
    expect(new URL(page.url()).pathname).toBe(`/app/review/invoices/${invoice.id}`);
    const image = page.locator('img.review-page-image');
    await image.waitFor();
    await page.waitForFunction(
      `(() => { const img = document.querySelector('img.review-page-image'); return img && img.complete && img.naturalWidth > 0; })()`,
    );
    const imageResponse = await page.request.get(`/app/invoices/${invoice.id}/pages/1`);
    expect(imageResponse.status()).toBe(200);
    expect(imageResponse.headers()['content-type']).toBe('image/png');
    expect(await page.locator('svg.review-boxes g.review-box').count()).toBeGreaterThan(2);
    // Each value in an input with its confidence; the number could not be read.
    expect(await page.inputValue('#rf-invoice_number')).toBe('');
    expect(await page.textContent('#rf-invoice_number-confidence')).toContain('not read');
    expect(await page.textContent('#rf-issue_date-confidence')).toMatch(/confidence \d+ %/);
    expect(await page.locator('table.review-lines tbody tr').count()).toBe(2);
    await expectAccessible(page, 'review item');
    await screenshot(page, 'review-item');

    // A value the API refuses stays, with its error at the field; nothing changes.
    const total = await page.inputValue('#rf-including_vat');
    await typeInto(page, '#rf-invoice_number', printed.ledgerKey);
    await typeInto(page, '#rf-including_vat', '12,3,4');
    await pressEnter(page);
    expect(await page.inputValue('#rf-including_vat')).toBe('12,3,4');
    expect(await page.inputValue('#rf-invoice_number')).toBe(printed.ledgerKey);
    expect(await page.getAttribute('#rf-including_vat', 'aria-invalid')).toBe('true');
    expect(await page.textContent('#rf-including_vat-error')).toContain('must be an amount');
    expect((await testDb().invoice.findUniqueOrThrow({ where: { id: invoice.id } })).invoiceNumber).toBeNull();
    await expectAccessible(page, 'review item with a refused value');

    // Corrected with the keyboard: Enter saves and goes to the next; the queue is empty now.
    await typeInto(page, '#rf-including_vat', total);
    await pressEnter(page);
    expect(new URL(page.url()).pathname).toBe('/app/review');
    const after = (await page.textContent('main'))!;
    expect(after).toContain('Saved; the invoice left the review queue.');
    expect(after).toContain('Nothing to review');
    const saved = await testDb().invoice.findUniqueOrThrow({ where: { id: invoice.id } });
    expect(saved.invoiceNumber).toBe(printed.ledgerKey);
    expect((saved.extraction as { needsReview?: boolean }).needsReview).toBe(false);
  });

  it('shows the invoice page with the original, the correction, comments and the activity timeline', async () => {
    const invoice = { id: invoiceId };
    // The invoice page: the original beside the data, the correction, a comment, the activity.
    await page.goto(`/app/invoices/${invoice.id}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Invoice ${printed.ledgerKey}`);
    expect(await page.inputValue('#rf-invoice_number')).toBe(printed.ledgerKey);
    expect(await page.locator('img.review-page-image').count()).toBe(1);
    const timeline = (await page.locator('.timeline').textContent())!;
    expect(timeline).toContain('Updated');
    expect(timeline).toContain(`invoice_number: — → ${printed.ledgerKey}`);
    expect(timeline).toContain('Rita Reviewer');
    await page.focus('#comment-body');
    await page.keyboard.type('Checked against the PDF: the ledger key is the invoice number.');
    await page.keyboard.press('Tab');
    await pressEnter(page);
    expect(new URL(page.url()).pathname).toBe(`/app/invoices/${invoice.id}`);
    const comments = (await page.locator('ol.comments').textContent())!;
    expect(comments).toContain('Checked against the PDF: the ledger key is the invoice number.');
    expect(comments).toContain('Rita Reviewer');
    // A blank comment is refused at its field.
    await page.focus('#comment-body');
    await page.keyboard.type('   ');
    await page.keyboard.press('Tab');
    await pressEnter(page);
    expect(await page.getAttribute('#comment-body', 'aria-invalid')).toBe('true');
    expect(await page.textContent('#comment-body-error')).toContain('must not be blank');
    await page.goto(`/app/invoices/${invoice.id}`);
    await expectAccessible(page, 'invoice with its original, comments and activity');
    await screenshot(page, 'invoice');
  });

  it('fits a phone: the document and the form stacked, nothing wider than the screen', async () => {
    const invoice = { id: invoiceId };
    // The phone: stacked, nothing wider than the screen.
    const phone = await browser.newContext(PHONE);
    const phonePage = await phone.newPage();
    await signIn(phonePage, user.email, user.password);
    for (const [url, name] of [
      ['/app/review', 'review'],
      [`/app/review/invoices/${invoice.id}`, 'review-item'],
      [`/app/invoices/${invoice.id}`, 'invoice'],
    ] as const) {
      await phonePage.goto(url);
      await noSidewaysScroll(phonePage);
      await expectAccessible(phonePage, `${name} on a phone`);
      await screenshot(phonePage, `${name}.phone`);
    }
    await phone.close();
  });

  it('refuses a correction from a Read member and shows no form', async () => {
    const writer = await createWebUser({ role: 'write' });
    const reader = await createWebUser({ role: 'read', organizationId: writer.organizationId });
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, reader.email, reader.password);
    await page.goto('/app/review');
    expect((await page.textContent('main'))!).toContain('Nothing to review');
    const fakeId = randomUUID();
    const forged = await page.request.post(`/app/review/invoices/${fakeId}`, {
      form: { invoice_number: 'X' },
    });
    expect(forged.status()).toBe(403);
    await context.close();
  });
});

// A price import that could not read a row waits in the same queue; its page shows the rows that
// gave no price, and a person marks it reviewed once they have dealt with them.
describe('review queue: price imports', () => {
  it('shows the rows of an import that needs review, and marks it reviewed', async () => {
    const tenant = await createTenant({ role: 'write' });
    const agreementId = (await tenant.call('/v1/agreements', { method: 'POST', body: { title: 'Toimistotarvikkeet' } }))
      .body.id as string;
    const file = 'fi-unreadable-row.pdf';
    const documentId = await uploadDocument(
      tenant,
      file,
      await readFile(path.join(import.meta.dirname, '../fixtures/price-list-documents', file)),
      'application/pdf',
    );
    const started = await tenant.call(`/v1/agreements/${agreementId}/price-imports`, {
      method: 'POST',
      body: { entries: [{ document_id: documentId, default_currency: 'EUR' }] },
    });
    const importId = started.body.data[0].id as string;
    await eventually(
      () => tenant.call(`/v1/agreements/${agreementId}/price-imports/${importId}`),
      (response) => response.body.needs_review === true,
      SETTLED_MS,
    );

    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, await givePassword(tenant.userId), PASSWORD);
    await page.goto('/app/review');
    const entry = page.locator('.review-imports li', { hasText: 'Toimistotarvikkeet' });
    expect(await entry.textContent()).toContain('could not be read fully');
    await Promise.all([page.waitForNavigation(), entry.getByRole('link', { name: 'Review' }).click()]);

    // The unreadable row, and the two readable ones the failed import did not add either.
    const rows = page.locator('#rows-to-review tbody tr');
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-outcome')))).toEqual([
      'not_added',
      'rejected',
      'not_added',
    ]);
    const rejected = (await page.locator('#rows-to-review tr[data-outcome="rejected"]').textContent())!;
    expect(rejected).toContain('page 1, row 2');
    expect(rejected).toContain('89,9O');
    await expectAccessible(page, 'price import to review');
    await screenshotBothWidths(page, 'review-price-import');

    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Mark as reviewed' }).click()]);
    expect(new URL(page.url()).pathname).toBe('/app/review');
    const main = (await page.textContent('main'))!;
    expect(main).toContain('marked as reviewed');
    expect(main).toContain('No recent price import needs a look.');
    const after = await tenant.call(`/v1/agreements/${agreementId}/price-imports/${importId}`);
    expect(after.body.needs_review).toBe(false);
    await context.close();
  });
});
