import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertOf, alertOn, claimSetup } from '../support/claims.js';
import { createTenant, type Tenant } from '../support/tenants.js';
import {
  appUrl,
  DESKTOP,
  expectAccessible,
  launchBrowser,
  PHONE,
  screenshot,
  signIn,
  submit,
  type TestBrowser,
} from './support/browser.js';
import { createWebUser, type WebUser } from './support/users.js';

// Alerts triage in bulk (issue 28): tick alerts (or take every alert the filter matches) and
// dismiss them with a reason, mark them credited or put them in a claim, through the API's bulk
// commands; the outcome says how many changed and which were left alone and why. The grouped view
// (by topic, agreement, supplier), keyboard shortcuts, the page without script, a Read member.

let browser: TestBrowser;
let tenant: Tenant;
let writer: WebUser;
let agreementId: string;
let supplierId: string;
const alerts: Record<string, string> = {};

beforeAll(async () => {
  browser = await launchBrowser();
  tenant = await createTenant({ name: 'Triage Foods AS' });
  const setup = await claimSetup(tenant, [
    { number: 'TRI-1', currency: 'EUR' },
    { number: 'TRI-2', currency: 'EUR' },
    { number: 'TRI-3', currency: 'SEK' },
  ]);
  agreementId = setup.agreementId;
  supplierId = setup.supplierId;
  const [eur1, eur2, sek] = setup.invoices.map((invoice) => invoice.id);
  const specs: [string, string, string][] = [
    ['Freight charged twice', eur1!, '40.00'],
    ['Pallet fee not agreed', eur1!, '12.00'],
    ['Paper above the agreed price', eur2!, '7.50'],
    ['Toner above the agreed price', eur2!, '19.90'],
    ['Coffee above the agreed price', sek!, '150.00'],
  ];
  for (const [title, invoiceId, impact] of specs)
    alerts[title] = await alertOn(tenant, invoiceId, agreementId, { title, impact_amount: impact });
  const topic = await tenant.call('/v1/alert-topics', {
    method: 'POST',
    body: {
      agreement_id: agreementId,
      title: 'Prices above the agreement',
      alert_ids: [alerts['Paper above the agreed price'], alerts['Toner above the agreed price']],
    },
  });
  expect(topic.status, JSON.stringify(topic.body)).toBe(201);
  writer = await createWebUser({ role: 'write', organizationId: tenant.organizationId, name: 'Siri Berg' });
});

afterAll(async () => {
  await browser?.close();
});

async function signedIn(user: WebUser, options: { viewport?: typeof PHONE; javaScript?: boolean } = {}) {
  const context =
    options.javaScript === false
      ? await browser.browser.newContext({
          viewport: options.viewport ?? DESKTOP,
          baseURL: appUrl(),
          javaScriptEnabled: false,
        })
      : await browser.newContext(options.viewport);
  const page = await context.newPage();
  await signIn(page, user.email, user.password);
  return page;
}

const box = (page: Page, title: string) => page.getByRole('checkbox', { name: `Select “${title}”` });
const outcome = (page: Page) => page.locator('#outcome');

describe('alerts triage in bulk', () => {
  it('dismisses ticked alerts with a reason, claims others, and says what each command left alone', async () => {
    const page = await signedIn(writer);
    const listed = await page.goto('/app/alerts');
    expect(listed?.status()).toBe(200);
    await expectAccessible(page, 'alerts with the bulk form');
    await screenshot(page, 'alerts');
    // Without a chosen agreement the API takes no bulk filter: only ticked alerts are offered.
    expect(await page.getByRole('radio').count()).toBe(0);

    // Two alerts dismissed with a reason and a note.
    await box(page, 'Freight charged twice').check();
    await box(page, 'Pallet fee not agreed').check();
    expect(await page.locator('[data-selected-count]').textContent()).toContain('2 selected');
    await page.getByLabel('Reason for dismissing').selectOption('not_a_deviation');
    await page.getByLabel('Note (optional)').fill('Agreed in the 2026 freight annex.');
    await submit(page, page.getByRole('button', { name: 'Dismiss', exact: true }));
    expect(await outcome(page).textContent()).toContain('2 alerts dismissed.');
    for (const title of ['Freight charged twice', 'Pallet fee not agreed'])
      expect(await alertOf(tenant, alerts[title]!)).toMatchObject({
        status: 'dismissed',
        dismissal: { category: 'not_a_deviation', note: 'Agreed in the 2026 freight annex.' },
      });
    // The list shows open alerts: the dismissed ones are gone from it.
    expect(await box(page, 'Freight charged twice').count()).toBe(0);

    // Two others into a new claim; the outcome links to it.
    await box(page, 'Paper above the agreed price').check();
    await box(page, 'Toner above the agreed price').check();
    await page.getByLabel('Add to claim').selectOption('new');
    await page.getByLabel('Title of a new claim').fill('Price overcharges March');
    await submit(page, page.getByRole('button', { name: 'Add to claim' }));
    expect(await outcome(page).textContent()).toMatch(/Claim CLM-\d{4}-\d{4} created with 2 alerts\./);
    const paper = await alertOf(tenant, alerts['Paper above the agreed price']!);
    expect(paper.status).toBe('claimed');
    expect((await alertOf(tenant, alerts['Toner above the agreed price']!)).claim_id).toBe(paper.claim_id);
    await expectAccessible(page, 'alerts with an outcome');

    // A dismissed alert cannot join a claim: the API refuses the whole selection and says why.
    await page.goto('/app/alerts?statuses=any');
    await box(page, 'Freight charged twice').check();
    await box(page, 'Coffee above the agreed price').check();
    await page.getByLabel('Add to claim').selectOption(paper.claim_id);
    const refused = await Promise.all([
      page.waitForNavigation(),
      page.getByRole('button', { name: 'Add to claim' }).click(),
    ]);
    expect(refused[0]?.status()).toBe(409);
    expect(await page.getByRole('alert').textContent()).toContain('alerts_not_claimable');
    expect(await outcome(page).textContent()).toContain('Freight charged twice');
    expect(await outcome(page).textContent()).toContain('dismissed; reopen it first');
    // The input is kept: the boxes stay ticked; nothing changed.
    expect(await box(page, 'Coffee above the agreed price').isChecked()).toBe(true);
    expect((await alertOf(tenant, alerts['Coffee above the agreed price']!)).status).toBe('pending');

    // Every alert the filter matches (an agreement chosen, any status): one credited, four left.
    await page.goto(`/app/alerts?agreement_ids=${agreementId}&statuses=any`);
    await page.getByRole('radio', { name: /All 5 alerts matching/ }).check();
    await submit(page, page.getByRole('button', { name: 'Mark credited' }));
    const said = await outcome(page).textContent();
    expect(said).toContain('1 alert marked credited.');
    expect(said).toContain('4 alerts left as they were.');
    expect(said).toContain('in an open claim');
    expect(said).toContain('Only an open (pending) alert');
    expect((await alertOf(tenant, alerts['Coffee above the agreed price']!)).status).toBe('credited');
    // Nothing was ticked, and none had to be.
    expect(await page.getByRole('radio', { name: /All 5 alerts matching/ }).isChecked()).toBe(true);

    // Nothing ticked and the ticked scope: refused, pointing at the selection.
    await page.getByRole('radio', { name: 'The alerts ticked below' }).check();
    const empty = await Promise.all([
      page.waitForNavigation(),
      page.getByRole('button', { name: 'Mark credited' }).click(),
    ]);
    expect(empty[0]?.status()).toBe(400);
    expect(await page.getByRole('alert').textContent()).toContain('Select at least one alert first.');

    // The phone width: every control reachable, nothing wider than the screen.
    const phone = await signedIn(writer, { viewport: PHONE });
    await phone.goto(`/app/alerts?agreement_ids=${agreementId}&statuses=any`);
    expect(await phone.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(phone, 'alerts on a phone');
    await screenshot(phone, 'alerts.phone');
    await phone.context().close();
    await page.context().close();
  });

  it('groups alerts by topic, agreement and supplier, each group leading to its list, amounts per currency', async () => {
    const page = await signedIn(writer);
    await page.goto('/app/alerts?statuses=any');
    await submit(
      page,
      page.getByRole('navigation', { name: 'Views of the alerts' }).getByRole('link', { name: 'By topic' }),
    );
    expect(new URL(page.url()).pathname).toBe('/app/alerts/groups');
    await expectAccessible(page, 'alerts by topic');
    await screenshot(page, 'alert-groups');
    const table = page.getByRole('table', { name: /Alerts by group/ });
    const text = await table.textContent();
    expect(text).toContain('Prices above the agreement');
    expect(text).toContain('Uncategorized');
    // The uncategorized group holds EUR and SEK alerts: one amount per currency, never summed.
    const uncategorized = table.getByRole('row', { name: /Uncategorized/ });
    expect(await uncategorized.textContent()).toContain('€52.00');
    expect(await uncategorized.textContent()).toContain('SEK');
    await submit(page, table.getByRole('link', { name: 'Prices above the agreement' }));
    expect(new URL(page.url()).pathname).toBe('/app/alerts');
    const titles = await page
      .getByRole('table', { name: 'Alerts' })
      .locator('tbody tr td:first-child a')
      .allTextContents();
    expect(titles.sort()).toEqual(['Paper above the agreed price', 'Toner above the agreed price']);

    await page.goto('/app/alerts/groups?group_by=supplier&statuses=any');
    const bySupplier = page.getByRole('table', { name: /Alerts by group/ });
    expect(await bySupplier.getByRole('row').count()).toBe(2);
    await submit(page, bySupplier.locator('tbody a').first());
    expect(new URL(page.url()).searchParams.get('supplier_ids')).toBe(supplierId);
    await page.goto('/app/alerts/groups?group_by=agreement&statuses=any');
    expect(await page.locator('.summary').textContent()).toMatch(/5\s+alerts/);
    await expectAccessible(page, 'alerts by agreement');

    const phone = await signedIn(writer, { viewport: PHONE });
    await phone.goto('/app/alerts/groups?group_by=topic&statuses=any');
    expect(await phone.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(phone, 'alert groups on a phone');
    await screenshot(phone, 'alert-groups.phone');
    await phone.context().close();
    await page.context().close();
  });

  it('works from the keyboard alone: j/k to move, x to tick, d to dismiss; typing in a field is never taken', async () => {
    const setup = await claimSetup(tenant, [{ number: 'KEY-1' }]);
    const ids = [];
    for (const title of ['Keyboard one', 'Keyboard two', 'Keyboard three'])
      ids.push(await alertOn(tenant, setup.invoices[0]!.id, setup.agreementId, { title, impact_amount: '3.00' }));
    const page = await signedIn(writer);
    await page.goto(`/app/alerts?agreement_ids=${setup.agreementId}&sort=created_at&direction=asc`);
    // The shortcuts are listed on the page; ? opens them.
    const help = page.locator('#shortcuts');
    expect(await help.isVisible()).toBe(true);
    await page.locator('body').focus();
    await page.keyboard.press('?');
    expect(await help.getAttribute('open')).not.toBeNull();
    expect(await help.textContent()).toContain('dismiss');
    await page.keyboard.press('?');
    expect(await help.getAttribute('open')).toBeNull();

    await page.keyboard.press('j');
    await page.keyboard.press('x');
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    expect(await box(page, 'Keyboard one').isChecked()).toBe(true);
    expect(await box(page, 'Keyboard two').isChecked()).toBe(false);
    expect(await box(page, 'Keyboard three').isChecked()).toBe(true);
    expect(await page.locator('[data-selected-count]').textContent()).toContain('2 selected');

    // d: to the reason; choose with the arrow keys, type a note (its j and x stay text), Enter.
    await page.keyboard.press('d');
    expect(await page.evaluate('document.activeElement.id')).toBe('bulk-category');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.id')).toBe('bulk-note');
    await page.keyboard.type('just a fix, x marks');
    expect(await page.getByLabel('Note (optional)').inputValue()).toBe('just a fix, x marks');
    expect(await box(page, 'Keyboard two').isChecked()).toBe(false);
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Dismiss');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    expect(await outcome(page).textContent()).toContain('2 alerts dismissed.');
    expect(await alertOf(tenant, ids[0]!)).toMatchObject({
      status: 'dismissed',
      dismissal: { category: 'agreed_elsewhere', note: 'just a fix, x marks' },
    });
    expect((await alertOf(tenant, ids[1]!)).status).toBe('pending');
    expect((await alertOf(tenant, ids[2]!)).status).toBe('dismissed');

    // c: to the claim picker; Enter in the new claim's title claims (never the first action).
    await page.locator('body').focus();
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    expect(await box(page, 'Keyboard two').isChecked()).toBe(true);
    await page.keyboard.press('c');
    expect(await page.evaluate('document.activeElement.id')).toBe('bulk-claim');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Keyboard claim');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    expect(await outcome(page).textContent()).toMatch(/Claim CLM-\d{4}-\d{4} created with 1 alert\./);
    expect((await alertOf(tenant, ids[1]!)).status).toBe('claimed');
    await page.context().close();
  });

  it('works without script: "Select all on this page" ticks every box, and the buttons post', async () => {
    const setup = await claimSetup(tenant, [{ number: 'NOJS-1' }]);
    const ids = [];
    for (const title of ['No script one', 'No script two'])
      ids.push(await alertOn(tenant, setup.invoices[0]!.id, setup.agreementId, { title, impact_amount: '2.00' }));
    const page = await signedIn(writer, { javaScript: false });
    await page.goto(`/app/alerts?agreement_ids=${setup.agreementId}`);
    expect(await page.locator('#shortcuts').isVisible()).toBe(false);
    await submit(page, page.getByRole('link', { name: 'Select all on this page' }));
    expect(await box(page, 'No script one').isChecked()).toBe(true);
    expect(await box(page, 'No script two').isChecked()).toBe(true);
    await submit(page, page.getByRole('button', { name: 'Mark credited' }));
    expect(await outcome(page).textContent()).toContain('2 alerts marked credited.');
    for (const id of ids) expect((await alertOf(tenant, id)).status).toBe('credited');
    await page.context().close();
  });

  // A form field repeated more than 20 times stayed a list only once the body parser was told so
  // (found by bench:web posting a page's worth of ticked alerts).
  it('dismisses a whole page of ticked alerts, more than 20', async () => {
    const setup = await claimSetup(tenant, [{ number: 'PAGE-1' }]);
    const ids: string[] = [];
    for (let n = 1; n <= 25; n++)
      ids.push(
        await alertOn(tenant, setup.invoices[0]!.id, setup.agreementId, { title: `Page ${n}`, impact_amount: '1.00' }),
      );
    const page = await signedIn(writer, { javaScript: false });
    await page.goto(`/app/alerts?agreement_ids=${setup.agreementId}`);
    await submit(page, page.getByRole('link', { name: 'Select all on this page' }));
    // The setup's own alerts on the agreement are on the page too.
    const ticked = await page.getByRole('checkbox', { checked: true }).count();
    expect(ticked).toBeGreaterThanOrEqual(25);
    await submit(page, page.getByRole('button', { name: 'Dismiss', exact: true }));
    expect(await outcome(page).textContent()).toContain(`${ticked} alerts dismissed.`);
    for (const id of ids) expect((await alertOf(tenant, id)).status).toBe('dismissed');
    await page.context().close();
  });

  it('shows a Read member no bulk form, and refuses a forged bulk post', async () => {
    const reader = await createWebUser({ role: 'read', organizationId: tenant.organizationId });
    const page = await signedIn(reader);
    await page.goto('/app/alerts?statuses=any');
    expect(await page.getByRole('checkbox').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Dismiss' }).count()).toBe(0);
    await expectAccessible(page, 'alerts as Read');
    const csrf = await page.locator('body').getAttribute('hx-headers');
    const token = (JSON.parse(csrf ?? '{}') as Record<string, string>)['X-CSRF-Token'] ?? '';
    const forged = await page.request.post('/app/alerts/bulk', {
      form: { _csrf: token, action: 'credit', alert_ids: alerts['Freight charged twice']! },
    });
    expect(forged.status()).toBe(403);
    expect((await alertOf(tenant, alerts['Freight charged twice']!)).status).toBe('dismissed');
    await page.context().close();
  });
});
