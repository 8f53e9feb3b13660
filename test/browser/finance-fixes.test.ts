import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import PDFDocument from 'pdfkit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAlert, invoiceOf, matchedAgreement, newSupplier } from '../support/alerts.js';
import { eventually } from '../support/api.js';
import { alertOn, claimSetup, createClaim } from '../support/claims.js';
import { ingestionUpload, settledIngestionInvoice } from '../support/invoices.js';
import { createTenant, testDb } from '../support/tenants.js';
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

// What a finance user hit in the pages (issue 30): a refund in another currency than the claim,
// failed invoices without a reason, one-way sorting, filter lists cut at 200 names, the decimal
// comma, and pages wider than a phone. Each on the real stack, in chromium, with axe-core.

let browser: TestBrowser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function signedIn(user: WebUser, viewport?: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext(viewport);
  const page = await context.newPage();
  await signIn(page, user.email, user.password);
  return page;
}

async function visit(page: Page, path: string, name: string): Promise<void> {
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(200);
  await expectAccessible(page, name);
}

// The page is no wider than the phone: nothing scrolls sideways.
async function expectNoSidewaysScroll(page: Page, name: string): Promise<void> {
  const width = await page.evaluate<number>('document.documentElement.scrollWidth');
  expect(width, `${name} is ${width} px wide`).toBeLessThanOrEqual(PHONE.width);
}

const pdfText = (bytes: Buffer) => execFileSync('pdftotext', ['-layout', '-', '-'], { input: bytes }).toString('utf8');

async function letterText(page: Page): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download letter (PDF)' }).click(),
  ]);
  return pdfText(readFileSync(await download.path()));
}

describe('refunds on the claim page', () => {
  it('takes the claim’s currencies only and the decimal comma; corrects and deletes; the letter never shows a negative amount', async () => {
    const tenant = await createTenant({ name: 'Fjordkraft Eiendom AS' });
    const { agreementId, invoices } = await claimSetup(tenant, [{ currency: 'NOK', number: 'KPTYLUD-2602/3' }]);
    const alert = await alertOn(tenant, invoices[0]!.id, agreementId, {
      title: 'Cleaning above the agreed price',
      impact_amount: '483.30',
    });
    const claim = await createClaim(tenant, {
      agreement_id: agreementId,
      title: 'Cleaning overcharges',
      alerts: { alert_ids: [alert] },
    });
    const writer = await createWebUser({ role: 'write', organizationId: tenant.organizationId });
    const page = await signedIn(writer);
    await visit(page, `/app/claims/${claim.id}`, 'claim');

    // The currency is a choice of the claim's currencies, not free text.
    const currency = page.getByLabel('Currency', { exact: true });
    expect(await page.locator('select#refund-currency').count()).toBe(1);
    expect(await currency.locator('option').allTextContents()).toEqual(['NOK']);

    // "12,50": the decimal comma.
    await page.getByLabel('Amount', { exact: true }).fill('12,50');
    await page.getByLabel('Reference (optional)').fill('Bank 2026-05');
    await submit(page, page.getByRole('button', { name: 'Record refund' }));
    expect(await page.getByRole('status').first().textContent()).toContain('Refund recorded.');
    expect((await tenant.call(`/v1/claims/${claim.id}`)).body.refund_summary).toEqual([
      { currency_code: 'NOK', amount: '12.50' },
    ]);

    // A forged refund in EUR on this NOK claim is refused with the API's words; nothing recorded.
    const csrf = (await page.locator('input[name="_csrf"]').first().getAttribute('value'))!;
    const forged = await page.request.post(`/app/claims/${claim.id}/refunds`, {
      form: { _csrf: csrf, amount: '200.00', currency_code: 'EUR' },
    });
    expect(forged.status()).toBe(400);
    const refusal = await forged.text();
    expect(refusal).toContain('validation_error');
    expect(refusal).toContain('must be a currency the claim claims (NOK)');
    // An amount that reads two ways is refused rather than guessed.
    await page.getByLabel('Amount', { exact: true }).fill('1,234');
    await submit(page, page.getByRole('button', { name: 'Record refund' }));
    expect(await page.getByRole('alert').textContent()).toContain('ambiguous');
    expect((await tenant.call(`/v1/claims/${claim.id}`)).body.refunds).toHaveLength(1);

    // Correct the refund: 200,00 NOK; the letter says what is still outstanding.
    const row = page.getByRole('table', { name: 'Refunds' }).getByRole('row').nth(1);
    await row.locator('summary', { hasText: 'Correct' }).click();
    await row.getByLabel('Corrected amount').fill('200,00');
    await expectAccessible(page, 'claim with a refund being corrected');
    await screenshot(page, 'claim-refunds');
    await submit(page, row.getByRole('button', { name: 'Save correction' }));
    expect(await page.getByRole('status').first().textContent()).toContain('Refund corrected.');
    expect((await tenant.call(`/v1/claims/${claim.id}`)).body.refunds[0]).toMatchObject({
      amount: '200.00',
      currency_code: 'NOK',
      reference: 'Bank 2026-05',
    });
    const letter = await letterText(page);
    expect(letter.replace(/\s+/g, ' ')).toContain('283.30 NOK is still outstanding');
    expect(letter).not.toMatch(/(^|\s)[-−]\d/);

    // More refunded than claimed: nothing outstanding, never a negative amount.
    await page.getByLabel('Amount', { exact: true }).fill('1 000,00');
    await submit(page, page.getByRole('button', { name: 'Record refund' }));
    expect((await tenant.call(`/v1/claims/${claim.id}`)).body.refund_summary).toEqual([
      { currency_code: 'NOK', amount: '1200.00' },
    ]);
    const overpaid = await letterText(page);
    expect(overpaid.replace(/\s+/g, ' ')).toContain('The refunds already received cover the claim in full.');
    expect(overpaid).not.toMatch(/(^|\s)[-−]\d/);

    // Delete both refunds (the page asks first).
    page.on('dialog', (dialog) => void dialog.accept());
    for (let remaining = 2; remaining > 0; remaining--) {
      await submit(page, page.getByRole('button', { name: /^Delete/ }).first());
      expect(await page.getByRole('status').first().textContent()).toContain('Refund deleted.');
    }
    expect((await tenant.call(`/v1/claims/${claim.id}`)).body.refunds).toEqual([]);
    await page.context().close();

    const phone = await signedIn(writer, PHONE);
    await visit(phone, `/app/claims/${claim.id}`, 'claim on a phone');
    await expectNoSidewaysScroll(phone, 'claim');
    await screenshot(phone, 'claim-refunds.phone');
    await phone.context().close();
  });
});

// A PDF of one page with a drawing and no text: what a scanner sends.
function scannedPdf(): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4' });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.rect(80, 80, 300, 120).fill('#888888');
  doc.end();
  return done;
}

describe('a failed invoice', () => {
  it('says why in the API’s words, links its run, and offers retry only where the API allows it', async () => {
    const tenant = await createTenant({ name: 'Skanner AS' });
    const upload = await ingestionUpload(
      tenant.ingestionToken,
      `scan-${randomUUID().slice(0, 6)}.pdf`,
      await scannedPdf(),
    );
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    const invoiceId = upload.body.invoice_id as string;
    await settledIngestionInvoice(tenant.ingestionToken, invoiceId);
    const invoice = (await tenant.call(`/v1/invoices/${invoiceId}`)).body;
    expect(invoice.processing.status).toBe('failed');
    const failure = invoice.processing.failure as { code: string; message: string };

    const writer = await createWebUser({ role: 'write', organizationId: tenant.organizationId });
    const page = await signedIn(writer);
    await visit(page, `/app/invoices/${invoiceId}`, 'failed invoice');
    const card = page.locator('.failure-card');
    expect(await card.textContent()).toContain(failure.message);
    // The code is in words, and kept in the tooltip.
    expect(await card.locator(`strong[title="${failure.code}"]`).count()).toBe(1);
    expect(await card.locator('strong').textContent()).not.toContain('_');
    const runLink = card.getByRole('link', { name: 'See the import run' });
    const runHref = (await runLink.getAttribute('href'))!;
    const runId = runHref.split('/').at(-1)!;
    const run = (await tenant.call(`/v1/workflow-runs/${runId}`)).body;
    expect(run.type).toBe('import');
    const retry = card.getByRole('button', { name: 'Retry the import' });
    // The API retries a failed run only; the button is there exactly when it would.
    expect(await retry.count()).toBe(run.status === 'failed' ? 1 : 0);
    await screenshot(page, 'invoice-failed');
    // The list says why too.
    await visit(page, '/app/invoices?processing_statuses=failed', 'failed invoices');
    expect(await page.getByRole('table', { name: 'Invoices' }).locator(`[title="${failure.code}"]`).count()).toBe(1);
    if (run.status === 'failed') {
      await page.goto(`/app/invoices/${invoiceId}`);
      await submit(page, page.getByRole('button', { name: 'Retry the import' }));
      expect(await page.getByRole('status').first().textContent()).toContain('The import runs again');
      const runs = await eventually(
        () => tenant.call(`/v1/workflow-runs?types=import`),
        (r) => r.body.data.some((x: { retry_of_run_id: string | null }) => x.retry_of_run_id === runId),
      );
      expect(runs.body.data.length).toBeGreaterThan(1);
      // The retried import fails again (a blank page has nothing to read, not even by OCR).
      await eventually(
        () => tenant.call(`/v1/invoices/${invoiceId}`),
        (r) => r.body.processing.status === 'failed',
      );
    }
    // A Read member sees the reason and the run, and no retry.
    const reader = await createWebUser({ role: 'read', organizationId: tenant.organizationId });
    const readerPage = await signedIn(reader);
    await visit(readerPage, `/app/invoices/${invoiceId}`, 'failed invoice as Read');
    expect(await readerPage.locator('.failure-card').textContent()).toContain(failure.message);
    expect(await readerPage.getByRole('button', { name: 'Retry the import' }).count()).toBe(0);
    await readerPage.context().close();
    await page.context().close();

    const phone = await signedIn(writer, PHONE);
    await visit(phone, `/app/invoices/${invoiceId}`, 'failed invoice on a phone');
    await expectNoSidewaysScroll(phone, 'failed invoice');
    await screenshot(phone, 'invoice-failed.phone');
    await phone.context().close();
  });
});

describe('lists', () => {
  it('sort every sortable column both ways, page forward and back, and say how many rows match', async () => {
    const tenant = await createTenant({ name: 'Sortering AS' });
    const supplier = newSupplier('Kontorrekvisita');
    const dates = ['2026-01-10', '2026-02-20', '2026-03-05', '2026-04-01', '2026-05-15'];
    const amounts = ['120.00', '9800.00', '45.50', '700.00', '3300.00'];
    for (const [index, date] of dates.entries()) {
      const amount = amounts[index]!;
      const created = await tenant.call('/v1/invoices', {
        method: 'POST',
        body: {
          invoice_number: `SRT-${index + 1}`,
          issue_date: date,
          due_date: date.replace(/-\d\d$/, '-28'),
          currency_code: 'EUR',
          supplier,
          line_items: [{ description: 'Paper', quantity: '1', unit_price: amount, net_amount: amount }],
          amounts: { excluding_vat: amount, vat: '0', including_vat: amount },
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
    const user = await createWebUser({ role: 'read', organizationId: tenant.organizationId });
    const page = await signedIn(user);
    await visit(page, '/app/invoices', 'invoices');
    expect(await page.locator('.summary').textContent()).toMatch(/Showing 1–5 of\s+5\s+invoices/);
    const numbers = async () =>
      page.getByRole('table', { name: 'Invoices' }).locator('tbody tr td:first-child a').allTextContents();
    const issued = page.getByRole('columnheader', { name: /Issued/ });

    // Issue date: newest first on the first click, oldest first on the second.
    await submit(page, issued.getByRole('link'));
    expect(await issued.getAttribute('aria-sort')).toBe('descending');
    expect(await numbers()).toEqual(['SRT-5', 'SRT-4', 'SRT-3', 'SRT-2', 'SRT-1']);
    await submit(page, issued.getByRole('link'));
    expect(await page.getByRole('columnheader', { name: /Issued/ }).getAttribute('aria-sort')).toBe('ascending');
    expect(await numbers()).toEqual(['SRT-1', 'SRT-2', 'SRT-3', 'SRT-4', 'SRT-5']);
    // Amount: largest first, then smallest first.
    const total = page.getByRole('columnheader', { name: /Total/ });
    await submit(page, total.getByRole('link'));
    expect(await numbers()).toEqual(['SRT-2', 'SRT-5', 'SRT-4', 'SRT-1', 'SRT-3']);
    await submit(page, page.getByRole('columnheader', { name: /Total/ }).getByRole('link'));
    expect(await numbers()).toEqual(['SRT-3', 'SRT-1', 'SRT-4', 'SRT-5', 'SRT-2']);
    // The filter form's sort and order do the same on a phone (where column headers are hidden).
    await page.getByLabel('Sort by').selectOption('due_date');
    await page.getByLabel('Order').selectOption('desc');
    await submit(page, page.getByRole('button', { name: 'Filter' }));
    expect(await numbers()).toEqual(['SRT-5', 'SRT-4', 'SRT-3', 'SRT-2', 'SRT-1']);

    // Pages of two: Next, Next, Previous, First; the rows shown and the count on each.
    await page.goto('/app/invoices?sort=issue_date&direction=asc&limit=2');
    expect(await numbers()).toEqual(['SRT-1', 'SRT-2']);
    expect(await page.getByRole('link', { name: 'Previous page' }).count()).toBe(0);
    await submit(page, page.getByRole('link', { name: 'Next page' }));
    expect(await numbers()).toEqual(['SRT-3', 'SRT-4']);
    expect(await page.locator('.summary').textContent()).toMatch(/Showing 3–4 of\s+5/);
    await submit(page, page.getByRole('link', { name: 'Next page' }));
    expect(await numbers()).toEqual(['SRT-5']);
    expect(await page.getByRole('link', { name: 'Next page' }).count()).toBe(0);
    await submit(page, page.getByRole('link', { name: 'Previous page' }));
    expect(await numbers()).toEqual(['SRT-3', 'SRT-4']);
    await submit(page, page.getByRole('link', { name: 'Previous page' }));
    expect(await numbers()).toEqual(['SRT-1', 'SRT-2']);
    await submit(page, page.getByRole('link', { name: 'Next page' }));
    await submit(page, page.getByRole('link', { name: 'First page' }));
    expect(await numbers()).toEqual(['SRT-1', 'SRT-2']);
    await expectAccessible(page, 'invoices, paged');

    // A filter the metrics know too: the count follows it.
    await page.goto('/app/invoices?search=SRT-3');
    expect(await page.locator('.summary').textContent()).toMatch(/of\s+1\s+invoice matching these filters/);
    await page.goto('/app/invoices');
    await screenshot(page, 'invoices');

    // Alerts and claims sort both ways too, and count.
    const agreementId = await matchedAgreement(
      tenant,
      [(await tenant.call('/v1/invoices?limit=1')).body.data[0].supplier.id],
      'Kontor 2026',
    );
    const invoiceIds = ((await tenant.call('/v1/invoices?limit=10')).body.data as { id: string }[]).map((i) => i.id);
    const small = await alertOn(tenant, invoiceIds[0]!, agreementId, {
      title: 'Small overcharge',
      impact_amount: '1.00',
    });
    const large = await alertOn(tenant, invoiceIds[1]!, agreementId, {
      title: 'Large overcharge',
      impact_amount: '90.00',
    });
    await visit(page, '/app/alerts', 'alerts');
    const impact = page.getByRole('columnheader', { name: /Impact/ });
    await submit(page, impact.getByRole('link'));
    const titles = () =>
      page.getByRole('table', { name: 'Alerts' }).locator('tbody tr td:first-child a').allTextContents();
    expect(await titles()).toEqual(['Large overcharge', 'Small overcharge']);
    await submit(page, page.getByRole('columnheader', { name: /Impact/ }).getByRole('link'));
    expect(await titles()).toEqual(['Small overcharge', 'Large overcharge']);
    expect(await page.locator('.summary').textContent()).toMatch(/of\s+2\s+alerts/);
    expect([small, large]).toHaveLength(2);

    const writerTenantClaims = [
      await createClaim(tenant, { agreement_id: agreementId, title: 'Alpha claim', alerts: { alert_ids: [small] } }),
      await createClaim(tenant, { agreement_id: agreementId, title: 'Beta claim', alerts: { alert_ids: [large] } }),
    ];
    await visit(page, '/app/claims', 'claims');
    expect(await page.locator('.summary').textContent()).toMatch(/of\s+2\s+claims/);
    const claimRefs = () =>
      page.getByRole('table', { name: 'Claims' }).locator('tbody tr td:first-child a').allTextContents();
    const byReference = page.getByRole('columnheader', { name: /Claim/ });
    await submit(page, byReference.getByRole('link'));
    const descending = await claimRefs();
    await submit(page, page.getByRole('columnheader', { name: /Claim/ }).getByRole('link'));
    expect(await claimRefs()).toEqual([...descending].reverse());
    expect(descending).toEqual(
      writerTenantClaims
        .map((c) => c.reference)
        .sort()
        .reverse(),
    );
    await page.context().close();
  });

  it('find a supplier beyond the first 200 by typing its name, and search alerts by invoice number and supplier name', async () => {
    const tenant = await createTenant({ name: 'Mange Leverandører AS' });
    // 230 suppliers whose names sort before the one that matters.
    await testDb().supplier.createMany({
      data: Array.from({ length: 230 }, (_, index) => ({
        id: randomUUID(),
        organizationId: tenant.organizationId,
        name: `Aaa Leverandør ${String(index).padStart(3, '0')}`,
      })),
    });
    const zephyr = { name: `Zephyr Logistikk ${randomUUID().slice(0, 4)} AS`, org_number: '955123456' };
    const invoice = await invoiceOf(tenant, zephyr, { number: 'ZL-77812' });
    const other = await invoiceOf(tenant, newSupplier('Other'), { number: 'OT-1' });
    const agreementId = await matchedAgreement(tenant, [invoice.supplier.id, other.supplier.id], 'Transport 2026');
    const zephyrAlert = await alertOn(tenant, invoice.id, agreementId, {
      title: 'Freight above the agreed rate',
      impact_amount: '44.00',
    });
    await alertOn(tenant, other.id, agreementId, { title: 'Other overcharge', impact_amount: '2.00' });
    // A duplicate-charge alert is labelled for what it is, never "charged more than agreed".
    const duplicate = await insertAlert(
      tenant,
      { invoiceId: other.id, agreementId },
      { checker: 'duplicate_charge', lineId: null, title: 'Charge already billed on another invoice' },
    );

    const user = await createWebUser({ role: 'read', organizationId: tenant.organizationId });
    const page = await signedIn(user);
    await visit(page, '/app/alerts', 'alerts with a picker');
    const picker = page.getByLabel('Supplier');
    // Type-ahead: the API's supplier search fills the suggestions (htmx).
    const suggested = page.waitForResponse(
      (response) => response.url().includes('/app/suggest/suppliers') && response.url().includes('Zeph'),
    );
    await picker.pressSequentially('Zeph', { delay: 30 });
    await suggested;
    await eventually(
      async () =>
        page
          .locator('#supplier-choices option')
          .evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value)),
      (values) => values.includes(zephyr.name),
      10_000,
    );
    await picker.fill(zephyr.name);
    await expectAccessible(page, 'alerts, picking a supplier');
    await screenshotBothWidths(page, 'alerts-picker');
    await submit(page, page.getByRole('button', { name: 'Filter' }));
    const titles = () =>
      page.getByRole('table', { name: 'Alerts' }).locator('tbody tr td:first-child a').allTextContents();
    expect(await titles()).toEqual(['Freight above the agreed rate']);
    expect(await page.locator('.summary').textContent()).toMatch(/of\s+1\s+alert\b/);
    expect(await page.getByLabel('Supplier').inputValue()).toBe(zephyr.name);
    // Part of a name picks every supplier containing it, and says so.
    await page.goto('/app/alerts?supplier=zephyr');
    expect(await titles()).toEqual(['Freight above the agreed rate']);
    expect(await page.locator('.hint', { hasText: 'whose name contains' }).count()).toBe(1);

    // Search finds alerts by the invoice number and by the supplier's name.
    for (const text of ['ZL-778', zephyr.name.slice(0, 12).toLowerCase()]) {
      await page.goto(`/app/alerts?search=${encodeURIComponent(text)}`);
      expect(await titles(), text).toEqual(['Freight above the agreed rate']);
    }
    expect(zephyrAlert).toBeDefined();

    await visit(page, `/app/alerts/${duplicate}`, 'duplicate-charge alert');
    const hint = await page.locator('.card .hint').first().textContent();
    expect(hint).toContain('charged twice');
    expect(hint).not.toContain('charged more than agreed');
    expect(await page.locator('[title="duplicate_charge"]').textContent()).toBe('Charged twice');
    await page.context().close();
  });

  it('fit a phone: Alerts, Claims and Invoices never scroll sideways, even with long names', async () => {
    const tenant = await createTenant({ name: 'Langt Navn AS' });
    const long =
      'Rammeavtale om levering av kontorrekvisita, rengjøringsmidler og tilhørende tjenester for alle regionkontorer 2026–2028';
    const supplier = {
      name: `Leverandørselskapet for kontorrekvisita og rengjøringsmidler i Nord-Norge ${randomUUID().slice(0, 4)} AS`,
      org_number: '955999111',
    };
    const invoice = await invoiceOf(tenant, supplier, { number: 'NORDLYS-FAKTURA-2026-000123/7' });
    const agreementId = await matchedAgreement(tenant, [invoice.supplier.id], long);
    const alert = await alertOn(tenant, invoice.id, agreementId, {
      title: `${long}: pris over avtalt`,
      impact_amount: '1234.50',
    });
    await createClaim(tenant, { agreement_id: agreementId, title: long, alerts: { alert_ids: [alert] } });
    const user = await createWebUser({ role: 'write', organizationId: tenant.organizationId });
    const page = await signedIn(user, PHONE);
    for (const [path, name] of [
      ['/app/alerts?statuses=any', 'alerts'],
      ['/app/claims', 'claims'],
      ['/app/invoices', 'invoices'],
    ] as const) {
      await visit(page, path, `${name} on a phone`);
      await expectNoSidewaysScroll(page, name);
      await screenshot(page, `${name}.phone`);
    }
    const desktop = await signedIn(user);
    await visit(desktop, '/app/claims', 'claims');
    await screenshot(desktop, 'claims');
    await desktop.context().close();
    await page.context().close();
  });
});
