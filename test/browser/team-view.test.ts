import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertOn, claimSetup, createClaim } from '../support/claims.js';
import { createTenant, type Tenant } from '../support/tenants.js';
import {
  expectAccessible,
  launchBrowser,
  PHONE,
  screenshotBothWidths,
  signIn,
  submit,
  type TestBrowser,
} from './support/browser.js';
import { createWebUser, type WebUser } from './support/users.js';

// A member of a team looks at their teams' part: every list, total and chart of the application is
// narrowed with the API's `mine=true` until they choose to see everything (the header's switch).
// A Read member sees no action anywhere, and a forged one is refused. Together with
// whole-job.test.ts (the job itself) this is the second walk of issue 28's proof.

let browser: TestBrowser;
let tenant: Tenant;
let member: WebUser;
let outsider: WebUser;
let reader: WebUser;
let alertOfB: string;
let ours: { agreementId: string };
let theirs: { agreementId: string };
let claimOfA: { id: string; reference: string };
let claimOfB: { id: string; reference: string };

beforeAll(async () => {
  browser = await launchBrowser();
  tenant = await createTenant({ name: 'Nordlys Facilities AS' });
  const oursSetup = await claimSetup(tenant, [{ number: 'TV-OURS-1' }, { number: 'TV-OURS-2' }]);
  const theirsSetup = await claimSetup(tenant, [{ number: 'TV-THEIRS-1' }, { number: 'TV-THEIRS-2' }]);
  [ours, theirs] = [oursSetup, theirsSetup];
  await alertOn(tenant, oursSetup.invoices[0]!.id, ours.agreementId, {
    title: 'Our overcharge',
    impact_amount: '10.00',
  });
  alertOfB = await alertOn(tenant, theirsSetup.invoices[0]!.id, theirs.agreementId, {
    title: 'Their overcharge',
    impact_amount: '20.00',
  });
  // A claim on each side (on invoices of their own, so the open alerts above stay open).
  const claimed = async (setup: typeof oursSetup, title: string) =>
    createClaim(tenant, {
      agreement_id: setup.agreementId,
      title,
      alerts: {
        alert_ids: [await alertOn(tenant, setup.invoices[1]!.id, setup.agreementId, { title, impact_amount: '5.00' })],
      },
    });
  claimOfA = await claimed(oursSetup, 'Our claim');
  claimOfB = await claimed(theirsSetup, 'Their claim');
  member = await createWebUser({ role: 'write', organizationId: tenant.organizationId, name: 'Team Member' });
  outsider = await createWebUser({ role: 'write', organizationId: tenant.organizationId, name: 'No Team' });
  reader = await createWebUser({ role: 'read', organizationId: tenant.organizationId, name: 'Read Only' });
  const team = await tenant.call('/v1/teams', {
    method: 'POST',
    body: {
      name: 'Facilities buyers',
      user_ids: [member.userId],
      filter: {
        schema_version: 1,
        root: { combinator: 'and', children: [{ field: 'supplier.id', op: 'is', value: oursSetup.supplierId }] },
      },
    },
  });
  expect(team.status, JSON.stringify(team.body)).toBe(201);
});

afterAll(async () => {
  await browser?.close();
});

async function signedIn(user: WebUser, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await (await browser.newContext(viewport)).newPage();
  await signIn(page, user.email, user.password);
  return page;
}

// The distinct links of a list page's table to records of a kind (sorted as the page lists them).
const hrefsIn = async (page: Page, url: string, prefix: string) => {
  await page.goto(url);
  const links = await page.locator(`main table a[href^="${prefix}"]`).all();
  return [...new Set(await Promise.all(links.map((link) => link.getAttribute('href'))))];
};

const invoiceLinks = async (page: Page) => {
  await page.goto('/app/invoices');
  return page.locator('main table a[href^="/app/invoices/"]').allTextContents();
};

describe("a team member's part", () => {
  it("shows a team member their teams' part until they choose everything, and back", async () => {
    const page = await signedIn(member);
    await page.goto('/app');
    expect(await page.locator('.team-view-state').textContent()).toBe("My teams' part");
    expect((await invoiceLinks(page)).sort()).toEqual(['TV-OURS-1', 'TV-OURS-2']);
    await expectAccessible(page, 'invoices in the team view');

    await page.goto('/app/alerts');
    const alerts = await page.locator('main').textContent();
    expect(alerts).toContain('Our overcharge');
    expect(alerts).not.toContain('Their overcharge');

    // Agreements and claims: their part only, and the other side's claim is not in the list.
    expect(await hrefsIn(page, '/app/agreements', '/app/agreements/')).toEqual([`/app/agreements/${ours.agreementId}`]);
    expect(await hrefsIn(page, '/app/claims', '/app/claims/')).toEqual([`/app/claims/${claimOfA.id}`]);
    expect(await page.locator('main').textContent()).not.toContain(claimOfB.reference);

    // The overview's figures are the part's too: one open alert, not two.
    await page.goto('/app');
    expect(await page.locator('.figures li').nth(1).locator('.figure-value').textContent()).toBe('1');

    // Everything, on the same page the switch was on.
    await page.goto('/app/invoices?sort=invoice_number');
    await submit(page, page.getByRole('button', { name: 'Show everything' }));
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/app/invoices?sort=invoice_number');
    expect(await page.locator('.team-view-state').textContent()).toBe('Everything');
    expect((await invoiceLinks(page)).sort()).toEqual(['TV-OURS-1', 'TV-OURS-2', 'TV-THEIRS-1', 'TV-THEIRS-2']);
    expect((await hrefsIn(page, '/app/claims', '/app/claims/')).sort()).toEqual(
      [`/app/claims/${claimOfA.id}`, `/app/claims/${claimOfB.id}`].sort(),
    );
    await page.goto('/app');
    expect(await page.locator('.figures li').nth(1).locator('.figure-value').textContent()).toBe('2');

    await submit(page, page.getByRole('button', { name: "Show my teams' part" }));
    expect((await invoiceLinks(page)).sort()).toEqual(['TV-OURS-1', 'TV-OURS-2']);
  });

  it('shows someone in no team everything, without a switch', async () => {
    const page = await signedIn(outsider);
    expect(await page.locator('.team-view').count()).toBe(0);
    expect((await invoiceLinks(page)).sort()).toEqual(['TV-OURS-1', 'TV-OURS-2', 'TV-THEIRS-1', 'TV-THEIRS-2']);
  });

  it('fits the switch in the header of a phone', async () => {
    const page = await signedIn(member, PHONE);
    await page.goto('/app/invoices');
    await expectAccessible(page, 'invoices in the team view on a phone');
    await screenshotBothWidths(page, 'team-view');
  });
});

// Every page a Read member opens shows what is there and no way to change it: no form that posts
// in the page's body, no action button or link (the header's sign-out and view switch are theirs).
const ACTION_WORDS =
  /^(Dismiss|Mark credited|Add to claim|Activate|Edit agreement|New agreement|Upload|Import a price list|Record refund|Mark (in progress|completed)|Cancel claim|Attach credit note|Save|New team)\b/;

async function expectNoAction(page: Page, url: string, shows: string): Promise<void> {
  const answer = await page.goto(url);
  expect(answer?.status(), url).toBe(200);
  expect(await page.locator('main').textContent(), url).toContain(shows);
  expect(await page.locator('main form[method="post"]').count(), `post forms on ${url}`).toBe(0);
  expect(await page.locator('main input[type="file"]').count(), `file inputs on ${url}`).toBe(0);
  const actions = await page
    .locator('main')
    .getByRole('button')
    .or(page.locator('main').getByRole('link'))
    .allTextContents();
  expect(
    actions.map((text) => text.trim()).filter((text) => ACTION_WORDS.test(text)),
    `actions on ${url}`,
  ).toEqual([]);
}

describe('a Read member', () => {
  it('sees every part of the job and no action, and each forged one is refused and changes nothing', async () => {
    const page = await signedIn(reader);
    await expectNoAction(page, '/app', 'Overview');
    await expectNoAction(page, '/app/invoices', 'TV-THEIRS-1');
    expect(await page.getByRole('heading', { name: 'Upload invoices' }).count()).toBe(0);
    await expectNoAction(page, '/app/review', 'Nothing to review');
    await expectNoAction(page, '/app/agreements', 'Supplies');
    await expectNoAction(page, `/app/agreements/${theirs.agreementId}`, 'Ready for checks');
    await expectNoAction(page, '/app/alerts', 'Their overcharge');
    expect(await page.getByRole('checkbox').count()).toBe(0);
    await expectNoAction(page, `/app/alerts/${alertOfB}`, 'Their overcharge');
    await expectNoAction(page, '/app/claims', claimOfB.reference);
    await expectNoAction(page, `/app/claims/${claimOfB.id}`, 'Their claim');
    // The letter is theirs to read.
    expect((await page.request.get(`/app/claims/${claimOfB.id}/letter.pdf`)).status()).toBe(200);
    expect((await page.goto('/app/agreements/new'))!.status()).toBe(403);

    // Forged posts with the session's own CSRF token: each refused by its level, nothing changed.
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const forge = (url: string, form: Record<string, string>) =>
      page.request.post(url, { form: { _csrf: csrf, ...form }, maxRedirects: 0 }).then((answer) => answer.status());
    expect(await forge(`/app/alerts/${alertOfB}/dismiss`, { category: 'agreed_elsewhere' })).toBe(403);
    expect(
      await forge('/app/alerts/bulk', {
        action: 'dismiss',
        scope: 'selected',
        alert_ids: alertOfB,
        category: 'too_small',
      }),
    ).toBe(403);
    expect(await forge(`/app/agreements/${theirs.agreementId}/status`, { status: 'active' })).toBe(403);
    expect(await forge(`/app/claims/${claimOfB.id}/refunds`, { amount: '5.00', currency_code: 'EUR' })).toBe(403);
    expect(await forge(`/app/claims/${claimOfB.id}/status`, { status: 'cancelled' })).toBe(403);
    expect((await tenant.call(`/v1/alerts/${alertOfB}`)).body.status).toBe('pending');
    expect((await tenant.call(`/v1/agreements/${theirs.agreementId}`)).body.status).toBe('draft');
    const claim = (await tenant.call(`/v1/claims/${claimOfB.id}`)).body;
    expect(claim.status).toBe('pending');
    expect(claim.refund_summary).toEqual([]);
  });
});
