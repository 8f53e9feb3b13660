import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember } from '../../src/admin/service.js';
import { invoiceOf, newSupplier } from '../support/alerts.js';
import { createTenant, testDb, type Tenant } from '../support/tenants.js';
import {
  expectAccessible,
  launchBrowser,
  PHONE,
  screenshot,
  signIn,
  submit,
  type TestBrowser,
} from './support/browser.js';
import { createWebUser, givePassword, PASSWORD } from './support/users.js';

// Teams in the application: a filter built in the form (conditions and a group, names for
// suppliers), the live count of the invoices it covers changing as one edits, members added and
// removed; refusals at their field; a Read member sees the team and no form, and is refused anyway.

let browser: TestBrowser;
let tenant: Tenant;
let email: string;
let colleagueId: string;
const paper = newSupplier('Paper');
const cleaning = newSupplier('Cleaning');

beforeAll(async () => {
  browser = await launchBrowser();
  tenant = await createTenant({ name: 'Teams Test AS' });
  email = await givePassword(tenant.userId);
  colleagueId = (
    await addMember(testDb(), {
      organizationId: tenant.organizationId,
      email: `${randomUUID().slice(0, 8)}@example.test`,
      name: 'Kari Nordmann',
      role: 'write',
    })
  ).id;
  await invoiceOf(tenant, paper, { currency: 'EUR' });
  await invoiceOf(tenant, paper, { currency: 'EUR' });
  await invoiceOf(tenant, cleaning, { currency: 'NOK' });
});

afterAll(async () => {
  await browser?.close();
});

async function signedIn(viewport?: { width: number; height: number }, who = email): Promise<Page> {
  const page = await (await browser.newContext(viewport)).newPage();
  await signIn(page, who, PASSWORD);
  return page;
}

const count = (page: Page) => page.locator('#team-count [data-count]').getAttribute('data-count');

describe('teams', () => {
  let teamId: string;

  it('builds a filter in the form, counts what it covers as one edits, saves it and manages members', async () => {
    const page = await signedIn();
    await page.goto('/app/teams');
    await expectAccessible(page, 'teams (empty)');
    await submit(page, page.getByRole('link', { name: 'New team' }));
    expect(new URL(page.url()).pathname).toBe('/app/teams/new');

    await page.getByLabel('Name', { exact: true }).fill('Paper buyers');
    await page.locator('#n-0-field').selectOption('invoice.currency');
    await page.locator('#n-0-op').selectOption('is');
    await page.locator('#n-0-value').fill('EUR');
    // The live count follows the typing (htmx), without a submit.
    await expect.poll(() => count(page), { timeout: 20_000 }).toBe('2');
    await page.locator('#n-0-value').fill('NOK');
    await expect.poll(() => count(page), { timeout: 20_000 }).toBe('1');

    // A group: NOK invoices, or (group) the paper supplier's, by its name.
    await page.locator('#root-combinator').selectOption('or');
    await submit(page, page.getByRole('button', { name: 'Add group', exact: true }));
    expect(await page.locator('#n-0-value').inputValue()).toBe('NOK');
    await page.locator('#n-1-0-field').selectOption('supplier.id');
    await page.locator('#n-1-0-op').selectOption('is');
    await page.locator('#n-1-0-value').fill(paper.name);
    await expect.poll(() => count(page), { timeout: 20_000 }).toBe('3');
    await expectAccessible(page, 'team (new)');

    await submit(page, page.getByRole('button', { name: 'Create team' }));
    const path = new URL(page.url()).pathname;
    expect(path).toMatch(/^\/app\/teams\/[0-9a-f-]{36}$/);
    teamId = path.split('/').pop()!;
    const team = (await tenant.call(`/v1/teams/${teamId}`)).body;
    const supplierId = (await tenant.call(`/v1/suppliers?search=${encodeURIComponent(paper.name)}`)).body.data[0].id;
    expect(team).toMatchObject({
      name: 'Paper buyers',
      filter_status: 'valid',
      filter: {
        schema_version: 1,
        root: {
          combinator: 'or',
          children: [
            { field: 'invoice.currency', op: 'is', value: 'NOK' },
            { combinator: 'or', children: [{ field: 'supplier.id', op: 'is', value: supplierId }] },
          ],
        },
      },
    });
    // The saved team shows the supplier by name and counts what it covers.
    expect(await page.locator('#n-1-0-value').inputValue()).toBe(paper.name);
    await expect.poll(() => count(page), { timeout: 20_000 }).toBe('3');
    // The same figure as the API's list with team_ids.
    expect((await tenant.call(`/v1/invoices/metrics?team_ids=${teamId}`)).body.counts.total).toBe(3);

    // Members.
    await page.getByLabel('Person').selectOption(colleagueId);
    await submit(page, page.getByRole('button', { name: 'Add member' }));
    expect((await tenant.call(`/v1/teams/${teamId}`)).body.user_ids).toEqual([colleagueId]);
    expect(await page.locator('.team-members').textContent()).toContain('Kari Nordmann');
    await expectAccessible(page, 'team');
    await screenshot(page, 'team');
    const phone = await signedIn(PHONE);
    await phone.goto(`/app/teams/${teamId}`);
    await expectAccessible(phone, 'team (phone)');
    await screenshot(phone, 'team.phone');
    expect(await phone.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);

    await page.goto('/app/teams');
    expect(await page.getByRole('link', { name: 'Paper buyers' }).count()).toBe(1);
    await expectAccessible(page, 'teams');
    await screenshot(page, 'teams');
    await phone.goto('/app/teams');
    await screenshot(phone, 'teams.phone');
  });

  it('shows refusals at their field and keeps the input', async () => {
    const page = await signedIn();
    await page.goto(`/app/teams/${teamId}`);
    await page.locator('#n-0-value').fill('No such supplier at all');
    await page.locator('#n-0-field').selectOption('supplier.id');
    await page.getByLabel('Name', { exact: true }).fill('Renamed buyers');
    await submit(page, page.getByRole('button', { name: 'Save team' }));
    expect(await page.locator('#n-0-value').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#n-0-value').inputValue()).toBe('No such supplier at all');
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Renamed buyers');
    expect(await page.locator('.team-condition .field-error').first().textContent()).toContain('No supplier is named');
    // The API's own refusal (an amount that is not a number) at the field it names.
    await page.locator('#n-0-field').selectOption('invoice.amount');
    await page.locator('#n-0-op').selectOption('gt');
    await page.locator('#n-0-value').fill('a lot');
    await submit(page, page.getByRole('button', { name: 'Save team' }));
    expect(await page.locator('#n-0-value').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('alert').textContent()).toContain('validation_error');
    await expectAccessible(page, 'team (refused)');
    expect((await tenant.call(`/v1/teams/${teamId}`)).body.name).toBe('Paper buyers');
  });

  it('removes a member and deletes a team; a Read member sees no form and is refused', async () => {
    const reader = await createWebUser({ role: 'read', organizationId: tenant.organizationId });
    const readPage = await signedIn(undefined, reader.email);
    await readPage.goto(`/app/teams/${teamId}`);
    expect(await readPage.getByRole('button', { name: 'Save team' }).count()).toBe(0);
    expect(await readPage.getByRole('button', { name: 'Add member' }).count()).toBe(0);
    expect(await readPage.getByRole('link', { name: 'New team' }).count()).toBe(0);
    await expect.poll(() => count(readPage), { timeout: 20_000 }).toBe('3');
    await expectAccessible(readPage, 'team (read)');
    const headers = JSON.parse((await readPage.locator('body').getAttribute('hx-headers')) ?? '{}') as Record<
      string,
      string
    >;
    const forged = await readPage.request.post(`/app/teams/${teamId}/delete`, {
      form: { _csrf: headers['X-CSRF-Token'] ?? '' },
    });
    expect(forged.status()).toBe(403);

    const page = await signedIn();
    await page.goto(`/app/teams/${teamId}`);
    await submit(page, page.getByRole('button', { name: /^Remove Kari Nordmann/ }));
    expect((await tenant.call(`/v1/teams/${teamId}`)).body.user_ids).toEqual([]);
    page.once('dialog', (dialog) => void dialog.accept());
    await submit(page, page.getByRole('button', { name: 'Delete team' }));
    expect(new URL(page.url()).pathname).toBe('/app/teams');
    expect((await tenant.call(`/v1/teams/${teamId}`)).status).toBe(404);
  });
});
