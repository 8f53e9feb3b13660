import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertOf, alertOn, claimOf, claimSetup } from '../support/claims.js';
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

// A claim from start to end in the application (issue 28): alerts ticked on the list dismissed
// with a reason and others put in a new claim; the claim's letter previewed (the PDF the export
// renders, framed) and downloaded as PDF, XLSX and CSV; a credit note of the supplier picked and
// attached with its amount as a refund; then completed, reopened, with only the status changes
// the API's state machine allows offered, and a forged one refused.

let browser: TestBrowser;
let tenant: Tenant;
let writer: WebUser;
let agreementId: string;
let supplier: { name: string; org_number: string };
const alerts: Record<string, string> = {};
let creditNoteNumber: string;
let creditNoteId: string;

async function creditNote(amount: string, number: string) {
  const created = await tenant.call('/v1/invoices', {
    method: 'POST',
    body: {
      document_type: 'credit_note',
      invoice_number: number,
      issue_date: '2026-04-02',
      currency_code: 'EUR',
      supplier,
      line_items: [
        { description: 'Credit for overcharged paper', quantity: '1', unit_price: amount, net_amount: amount },
      ],
      amounts: { excluding_vat: amount, vat: '0', including_vat: amount },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body as { id: string };
}

beforeAll(async () => {
  browser = await launchBrowser();
  tenant = await createTenant({ name: 'Claim Flow Bakeries AS' });
  const setup = await claimSetup(tenant, [{ number: 'CF-100' }, { number: 'CF-101' }]);
  agreementId = setup.agreementId;
  supplier = setup.supplier;
  const specs: [string, number, string][] = [
    ['Flour above the agreed price', 0, '30.00'],
    ['Sugar above the agreed price', 0, '12.50'],
    ['Delivery fee not agreed', 1, '9.00'],
    ['Packaging counted twice', 1, '4.00'],
  ];
  for (const [title, invoice, impact] of specs)
    alerts[title] = await alertOn(tenant, setup.invoices[invoice]!.id, agreementId, { title, impact_amount: impact });
  creditNoteNumber = `CN-${randomUUID().slice(0, 6)}`;
  creditNoteId = (await creditNote('42.50', creditNoteNumber)).id;
  // Another credit note of the same supplier, so the picker has a choice to make.
  await creditNote('1.00', `CN-OTHER-${randomUUID().slice(0, 4)}`);
  writer = await createWebUser({ role: 'write', organizationId: tenant.organizationId, name: 'Per Olsen' });
});

afterAll(async () => {
  await browser?.close();
});

async function signedIn(user: WebUser, viewport?: typeof PHONE): Promise<Page> {
  const page = await (await browser.newContext(viewport)).newPage();
  await signIn(page, user.email, user.password);
  return page;
}

// The keys the page's list of shortcuts offers (keys of forms the person does not see are hidden).
const offeredKeys = (page: Page) =>
  page.evaluate(
    "[...document.querySelectorAll('[data-key-help]')].filter((e) => !e.hidden).map((e) => e.dataset.keyHelp)",
  );
const leaveField = (page: Page) => page.evaluate('document.activeElement?.blur()');
const focusedText = (page: Page) => page.evaluate('document.activeElement?.textContent ?? null');
// The width of a picture once the browser has loaded it (0 before, or when it failed).
const loadedWidth = (image: Locator) =>
  image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth);
const focusedId = (page: Page) => page.evaluate('document.activeElement?.id');
const box = (page: Page, title: string) => page.getByRole('checkbox', { name: `Select “${title}”` });
const statusButtons = (page: Page) =>
  page
    .getByRole('region', { name: 'Totals' })
    .getByRole('button')
    .allTextContents()
    .then((names) => names.map((name) => name.trim()));

describe('a claim from the alerts list to its completion', () => {
  it('dismisses, claims, previews and downloads the letter, attaches a credit note and completes the claim', async () => {
    const page = await signedIn(writer);
    await page.goto(`/app/alerts?agreement_ids=${agreementId}`);

    // Two alerts dismissed with a reason.
    await box(page, 'Delivery fee not agreed').check();
    await box(page, 'Packaging counted twice').check();
    await page.getByLabel('Reason for dismissing').selectOption('too_small');
    await submit(page, page.getByRole('button', { name: 'Dismiss', exact: true }));
    expect(await page.locator('#outcome').textContent()).toContain('2 alerts dismissed.');
    expect((await alertOf(tenant, alerts['Packaging counted twice']!)).dismissal.category).toBe('too_small');

    // The other two into a new claim, then to the claim.
    await box(page, 'Flour above the agreed price').check();
    await box(page, 'Sugar above the agreed price').check();
    await page.getByLabel('Add to claim').selectOption('new');
    await page.getByLabel('Title of a new claim').fill('Baking supplies overcharged');
    await submit(page, page.getByRole('button', { name: 'Add to claim' }));
    await submit(page, page.getByRole('link', { name: /Open the claim CLM-/ }));
    const claimId = new URL(page.url()).pathname.split('/').pop()!;
    const claim = await claimOf(tenant, claimId);
    expect(claim.summary.claimed).toEqual([{ currency_code: 'EUR', amount: '42.50' }]);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Baking supplies overcharged');
    await expectAccessible(page, 'claim');
    // Only the changes the state machine allows from pending (never back to pending).
    expect(await statusButtons(page)).toEqual(['Mark in progress', 'Mark completed', 'Cancel claim']);

    // The letter previewed on the claim page.
    await page.getByText('Show the letter here').click();
    // Its first page as a picture (a framed PDF is an empty box where the browser has no PDF
    // viewer), and the PDF itself one link away.
    const firstPage = page.locator('img.letter-page').first();
    expect(await firstPage.getAttribute('src')).toBe(`/app/claims/${claimId}/letter/pages/1`);
    const picture = await page.request.get(`/app/claims/${claimId}/letter/pages/1`);
    expect(picture.status(), picture.ok() ? '' : await picture.text()).toBe(200);
    expect(picture.headers()['content-type']).toBe('image/png');
    await expect.poll(() => loadedWidth(firstPage), { timeout: 30_000 }).toBeGreaterThan(0);
    const src = await page.getByRole('link', { name: 'Open the PDF alone' }).getAttribute('href');
    expect(src).toBe(`/app/claims/${claimId}/letter.pdf`);
    const inline = await page.request.get(src!);
    expect(inline.status()).toBe(200);
    expect(inline.headers()['content-type']).toContain('application/pdf');
    expect(inline.headers()['content-disposition']).toMatch(/^inline;/);
    expect(inline.headers()['x-frame-options']).toBe('SAMEORIGIN');
    const previewed = await inline.body();
    expect(previewed.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = execFileSync('pdftotext', ['-', '-'], { input: previewed }).toString('utf8');
    expect(text).toContain(claim.reference);
    await screenshot(page, 'claim');

    // The preview page: options of the export, downloads with the same options.
    await submit(page, page.getByRole('link', { name: 'Preview the letter' }));
    await expectAccessible(page, 'claim letter');
    await page.getByLabel('Also list credited alerts').check();
    await submit(page, page.getByRole('button', { name: 'Show', exact: true }));
    const pictures = page.locator('img.letter-page');
    expect(await pictures.first().getAttribute('src')).toBe(
      `/app/claims/${claimId}/letter/pages/1?include_credited=true`,
    );
    await expect.poll(() => loadedWidth(pictures.first()), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await page.getByRole('link', { name: 'Open the PDF' }).getAttribute('href')).toBe(
      `/app/claims/${claimId}/letter.pdf?include_credited=true`,
    );
    await screenshot(page, 'claim-letter');
    const [pdf] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download letter (PDF)' }).click(),
    ]);
    expect(pdf.suggestedFilename()).toBe(`${claim.reference}.pdf`);
    expect(
      readFileSync(await pdf.path())
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');
    const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'XLSX' }).click()]);
    expect(xlsx.suggestedFilename()).toBe(`${claim.reference}.xlsx`);
    expect(
      readFileSync(await xlsx.path())
        .subarray(0, 2)
        .toString('latin1'),
    ).toBe('PK');
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'CSV' }).click()]);
    expect(readFileSync(await csv.path(), 'utf8')).toContain('Sugar above the agreed price');
    await submit(page, page.getByRole('link', { name: claim.reference }));

    // Keyboard shortcuts, listed on the page (? opens the list), never acting while someone types.
    const help = page.locator('#shortcuts');
    expect(await help.isVisible()).toBe(true);
    expect(await offeredKeys(page)).toEqual(['j', 'k', 'o', 'l', 'p', 'r', 'n', '?']);
    await page.locator('body').focus();
    await page.keyboard.press('?');
    expect(await help.getAttribute('open')).not.toBeNull();
    expect(await help.textContent()).toContain('record a refund');
    await page.keyboard.press('?');
    expect(await help.getAttribute('open')).toBeNull();
    const alertLinks = page.locator('a[data-key-row]');
    expect(await alertLinks.count()).toBe(2);
    await page.keyboard.press('j');
    expect(await focusedText(page)).toBe(await alertLinks.nth(0).textContent());
    await page.keyboard.press('j');
    expect(await focusedText(page)).toBe(await alertLinks.nth(1).textContent());
    await page.keyboard.press('k');
    expect(await focusedText(page)).toBe(await alertLinks.nth(0).textContent());
    // r: the refund's amount; what is typed there stays text, no shortcut fires.
    await page.keyboard.press('r');
    expect(await focusedId(page)).toBe('refund-amount');
    await page.keyboard.type('jkl?n');
    expect(await page.locator('#refund-amount').inputValue()).toBe('jkl?n');
    expect(await help.getAttribute('open')).toBeNull();
    expect(await page.locator('details.letter-preview').getAttribute('open')).toBeNull();
    await page.locator('#refund-amount').fill('');
    await leaveField(page);
    await page.keyboard.press('l');
    expect(await page.locator('details.letter-preview').getAttribute('open')).not.toBeNull();
    await page.keyboard.press('n');
    expect(await focusedId(page)).toBe('credit-note-search');
    await leaveField(page);
    const [letter] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('p')]);
    expect(letter.suggestedFilename()).toBe(`${claim.reference}.pdf`);
    await page.keyboard.press('j');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('o')]);
    expect(new URL(page.url()).pathname).toMatch(/^\/app\/alerts\/[0-9a-f-]{36}$/);
    await page.goBack();

    // A credit note of the supplier picked from the organization's credit notes, with its refund.
    const picker = page.getByLabel('Credit note', { exact: true });
    const options = await picker.locator('option').allTextContents();
    expect(options).toHaveLength(2);
    const chosen = options.find((o) => o.startsWith(creditNoteNumber))!;
    expect(chosen).toContain('€42.50');
    await picker.selectOption({ label: chosen });
    await page.getByLabel('Also record its amount as a refund').check();
    await submit(page, page.getByRole('button', { name: 'Attach credit note' }));
    expect(await page.getByRole('status').first().textContent()).toContain(
      `Credit note ${creditNoteNumber} attached and its amount recorded as a refund.`,
    );
    const credited = await claimOf(tenant, claimId);
    expect(credited.credit_notes.map((n: { invoice_id: string }) => n.invoice_id)).toEqual([creditNoteId]);
    expect(credited.refund_summary).toEqual([{ currency_code: 'EUR', amount: '42.50' }]);
    expect(await page.getByRole('table', { name: 'Refunds' }).textContent()).toContain(creditNoteNumber);
    // Attached, it leaves the picker; a search narrows what is left.
    expect(await page.getByLabel('Credit note', { exact: true }).locator('option').count()).toBe(1);
    await page.getByLabel('Find a credit note').fill('no-such-number');
    await submit(page, page.getByRole('button', { name: 'Find', exact: true }));
    expect(await page.locator('#credit-note').count()).toBe(0);
    await expectAccessible(page, 'claim with a credit note');

    // Completed: reopen and cancel offered, completing again is not; a forged change is refused.
    await submit(page, page.getByRole('button', { name: 'Mark completed' }));
    expect((await claimOf(tenant, claimId)).status).toBe('completed');
    expect(await statusButtons(page)).toEqual(expect.arrayContaining(['Reopen (in progress)', 'Cancel claim']));
    expect(await statusButtons(page)).not.toContain('Mark completed');
    const csrf = JSON.parse((await page.locator('body').getAttribute('hx-headers')) ?? '{}')['X-CSRF-Token'];
    const forged = await page.request.post(`/app/claims/${claimId}/status`, {
      form: { _csrf: csrf, status: 'pending' },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(409);
    expect(await forged.text()).toContain('cannot go back');
    expect((await claimOf(tenant, claimId)).status).toBe('completed');
    await submit(page, page.getByRole('button', { name: 'Reopen (in progress)' }));
    expect((await claimOf(tenant, claimId)).status).toBe('in_progress');
    await submit(page, page.getByRole('button', { name: 'Mark completed' }));
    expect((await claimOf(tenant, claimId)).status).toBe('completed');

    const phone = await signedIn(writer, PHONE);
    await phone.goto(`/app/claims/${claimId}`);
    expect(await phone.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(phone, 'claim on a phone');
    await screenshot(phone, 'claim.phone');
    await phone.context().close();
    await page.context().close();
  });

  it('shows a Read member the letter but no credit-note picker, and refuses a forged attachment', async () => {
    const reader = await createWebUser({ role: 'read', organizationId: tenant.organizationId });
    const claim = (await tenant.call('/v1/claims?limit=1')).body.data[0];
    const page = await signedIn(reader);
    await page.goto(`/app/claims/${claim.id}`);
    expect(await page.getByLabel('Credit note', { exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Detach/ }).count()).toBe(0);
    // No refund form, no credit-note search: their shortcuts are not offered.
    expect(await offeredKeys(page)).toEqual(['j', 'k', 'o', 'l', 'p', '?']);
    expect((await page.request.get(`/app/claims/${claim.id}/letter.pdf`)).status()).toBe(200);
    const csrf = JSON.parse((await page.locator('body').getAttribute('hx-headers')) ?? '{}')['X-CSRF-Token'];
    const forged = await page.request.post(`/app/claims/${claim.id}/credit-notes`, {
      form: { _csrf: csrf, invoice_id: randomUUID() },
    });
    expect(forged.status()).toBe(403);
    await page.context().close();
  });
});
