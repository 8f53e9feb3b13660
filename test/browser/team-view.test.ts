import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertOn, claimSetup } from '../support/claims.js';
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

// A member of a team looks at their teams' part: every list, total and chart of the application is
// narrowed with the API's `mine=true` until they choose to see everything (the header's switch).
// A Read member sees no action anywhere, and a forged one is refused.

let browser: TestBrowser;
let tenant: Tenant;
let member: WebUser;
let outsider: WebUser;
let reader: WebUser;
let alertOfB: string;

beforeAll(async () => {
  browser = await launchBrowser();
  tenant = await createTenant({ name: 'Nordlys Facilities AS' });
  const ours = await claimSetup(tenant, [{ number: 'TV-OURS-1' }]);
  const theirs = await claimSetup(tenant, [{ number: 'TV-THEIRS-1' }]);
  await alertOn(tenant, ours.invoices[0]!.id, ours.agreementId, { title: 'Our overcharge', impact_amount: '10.00' });
  alertOfB = await alertOn(tenant, theirs.invoices[0]!.id, theirs.agreementId, {
    title: 'Their overcharge',
    impact_amount: '20.00',
  });
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
        root: { combinator: 'and', children: [{ field: 'supplier.id', op: 'is', value: ours.supplierId }] },
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

const invoiceLinks = async (page: Page) => {
  await page.goto('/app/invoices');
  return page.locator('main table a[href^="/app/invoices/"]').allTextContents();
};

describe("a team member's part", () => {
  it("shows a team member their teams' part until they choose everything, and back", async () => {
    const page = await signedIn(member);
    expect(await page.locator('.team-view-state').textContent()).toBe("My teams' part");
    expect(await invoiceLinks(page)).toEqual(['TV-OURS-1']);
    await expectAccessible(page, 'invoices in the team view');

    await page.goto('/app/alerts');
    const alerts = await page.locator('main').textContent();
    expect(alerts).toContain('Our overcharge');
    expect(alerts).not.toContain('Their overcharge');

    // The overview's figures are the part's too: one open alert, not two.
    await page.goto('/app');
    expect(await page.locator('.figures li').nth(1).locator('.figure-value').textContent()).toBe('1');

    // Everything, on the same page the switch was on.
    await page.goto('/app/invoices?sort=invoice_number');
    await submit(page, page.getByRole('button', { name: 'Show everything' }));
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/app/invoices?sort=invoice_number');
    expect(await page.locator('.team-view-state').textContent()).toBe('Everything');
    expect((await invoiceLinks(page)).sort()).toEqual(['TV-OURS-1', 'TV-THEIRS-1']);
    await page.goto('/app');
    expect(await page.locator('.figures li').nth(1).locator('.figure-value').textContent()).toBe('2');

    await submit(page, page.getByRole('button', { name: "Show my teams' part" }));
    expect(await invoiceLinks(page)).toEqual(['TV-OURS-1']);
  });

  it('shows someone in no team everything, without a switch', async () => {
    const page = await signedIn(outsider);
    expect(await page.locator('.team-view').count()).toBe(0);
    expect((await invoiceLinks(page)).sort()).toEqual(['TV-OURS-1', 'TV-THEIRS-1']);
  });

  it('fits the switch in the header of a phone', async () => {
    const page = await signedIn(member, PHONE);
    await page.goto('/app/invoices');
    await expectAccessible(page, 'invoices in the team view on a phone');
    await screenshot(page, 'team-view.phone');
  });
});

describe('a Read member', () => {
  it('sees no action, and a forged one is refused', async () => {
    const page = await signedIn(reader);
    await page.goto('/app/invoices');
    expect(await page.getByRole('link', { name: /Upload/ }).count()).toBe(0);
    await page.goto(`/app/alerts/${alertOfB}`);
    expect(await page.locator('main').textContent()).toContain('Their overcharge');
    expect(await page.locator('main form[method="post"]').count()).toBe(0);
    expect(
      await page
        .locator('main button')
        .filter({ hasText: /Dismiss|Claim|Credit/ })
        .count(),
    ).toBe(0);

    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const forged = await page.request.post(`/app/alerts/${alertOfB}/dismiss`, {
      form: { _csrf: csrf, category: 'agreed_elsewhere' },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(403);
    const alert = await tenant.call(`/v1/alerts/${alertOfB}`);
    expect(alert.body.status).toBe('pending');
  });
});
