import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseSignal } from '../../workflows/testing.js';
import { startTestRun, testTemporal } from '../support/runs.js';
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
import { createWebUser, givePassword, PASSWORD } from './support/users.js';

// The run page follows its run by itself (htmx polls its live part while the run has not
// finished, and stops once it has), and offers cancel and retry only where the API allows them.

let browser: TestBrowser;
let tenant: Tenant;
let email: string;

beforeAll(async () => {
  browser = await launchBrowser();
  tenant = await createTenant({ name: 'Runs Live AS' });
  email = await givePassword(tenant.userId);
});

afterAll(async () => {
  await browser?.close();
});

async function signedIn(viewport?: { width: number; height: number }, who = email): Promise<Page> {
  const page = await (await browser.newContext(viewport)).newPage();
  await signIn(page, who, PASSWORD);
  return page;
}

const status = (page: Page) => page.locator('#run-live').getAttribute('data-run-status');

describe('run page', () => {
  it('refreshes itself until the run has finished, then stops polling', async () => {
    const runId = await startTestRun(tenant, {
      items: [
        { key: 'a', behaviour: 'succeed' },
        { key: 'b', behaviour: 'succeed' },
      ],
      holdUntilReleased: true,
    });
    const page = await signedIn();
    await page.goto(`/app/runs/${runId}`);
    expect(['queued', 'running']).toContain(await status(page));
    await expect.poll(() => page.locator('#run-live').getAttribute('hx-trigger')).toBe('every 2s');
    await expectAccessible(page, 'run (running)');
    const url = page.url();
    await (await testTemporal()).workflow.getHandle(runId).signal(releaseSignal);
    // No reload, no click: the page's poll brings the finished run and its items.
    await expect.poll(() => status(page), { timeout: 60_000, interval: 500 }).toBe('completed');
    expect(page.url()).toBe(url);
    await expect.poll(() => page.locator('#run-items tbody tr').count()).toBe(2);
    expect(await page.locator('#run-live').getAttribute('hx-get')).toBeNull();
    await expect.poll(() => page.getByRole('button', { name: 'Cancel the run' }).count()).toBe(0);
    await expectAccessible(page, 'run');
    await screenshot(page, 'run-live');
    const phone = await signedIn(PHONE);
    await phone.goto(`/app/runs/${runId}`);
    await expectAccessible(phone, 'run (phone)');
    await screenshot(phone, 'run-live.phone');
  });

  it('cancels a long run from its page', async () => {
    const runId = await startTestRun(tenant, { items: [{ key: 'a', behaviour: 'succeed' }], holdUntilReleased: true });
    const page = await signedIn();
    await page.goto(`/app/runs/${runId}`);
    await submit(page, page.getByRole('button', { name: 'Cancel the run' }));
    expect(new URL(page.url()).pathname).toBe(`/app/runs/${runId}`);
    expect(await status(page)).toBe('cancelled');
    expect(await page.getByText('The run is cancelled.').count()).toBe(1);
    expect((await tenant.call(`/v1/workflow-runs/${runId}`)).body.status).toBe('cancelled');
    expect(await page.getByRole('button', { name: 'Cancel the run' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Retry the run' }).count()).toBe(0);
  });

  it('retries a failed run, and a Read member sees neither button and is refused', async () => {
    const runId = await startTestRun(tenant, { items: [{ key: 'a', behaviour: 'succeed' }], failRun: true });
    await expect
      .poll(async () => (await tenant.call(`/v1/workflow-runs/${runId}`)).body.status, { timeout: 60_000 })
      .toBe('failed');
    const reader = await createWebUser({ role: 'read', organizationId: tenant.organizationId });
    const readPage = await signedIn(undefined, reader.email);
    await readPage.goto(`/app/runs/${runId}`);
    expect(await readPage.getByRole('button', { name: 'Retry the run' }).count()).toBe(0);
    const csrf = await readPage.locator('body').getAttribute('hx-headers');
    const token = (JSON.parse(csrf ?? '{}') as Record<string, string>)['X-CSRF-Token'] ?? '';
    const forged = await readPage.request.post(`/app/runs/${runId}/retry`, { form: { _csrf: token } });
    expect(forged.status()).toBe(403);

    const page = await signedIn();
    await page.goto(`/app/runs/${runId}`);
    expect(await page.getByRole('button', { name: 'Cancel the run' }).count()).toBe(0);
    await submit(page, page.getByRole('button', { name: 'Retry the run' }));
    const retryPath = new URL(page.url()).pathname;
    expect(retryPath).not.toBe(`/app/runs/${runId}`);
    const retry = (await tenant.call(`/v1/workflow-runs/${retryPath.split('/').pop()}`)).body;
    expect(retry.retry_of_run_id).toBe(runId);
  });
});
