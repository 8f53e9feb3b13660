import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { repoRoot } from '../../../src/infra/defaults.js';

// Browser tests drive Debian's chromium-headless-shell (installed by scripts/install-deps --tests)
// through playwright-core: no sandbox (containers), nothing fetched from the network, a fresh
// profile each run. The headless shell is Chromium's old headless mode, the one Playwright's own
// headless runs use: the same Blink engine as the full browser, for less CPU (docs/benchmarks.md,
// session 21).

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

export interface TestBrowser {
  browser: Browser;
  newContext(viewport?: { width: number; height: number }): Promise<BrowserContext>;
  close(): Promise<void>;
}

// One chromium per test process, for every file the process runs (the integration project does not
// isolate its files: docs/testing.md): a launch costs a second or two of CPU. Each context is a
// separate profile, so a file sees nothing of the one before; `close` closes the file's contexts
// and leaves the browser to the next file. Playwright ends chromium when the process ends.
let launched: Promise<Browser> | undefined;

function sharedBrowser(): Promise<Browser> {
  launched ??= chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  return launched.then((browser) => {
    if (browser.isConnected()) return browser;
    launched = undefined;
    return sharedBrowser();
  });
}

export async function launchBrowser(): Promise<TestBrowser> {
  const browser = await sharedBrowser();
  return {
    browser,
    newContext: (viewport = DESKTOP) =>
      browser.newContext({ viewport, baseURL: appUrl(), locale: 'en-GB', timezoneId: 'UTC' }),
    close: async () => {
      await Promise.all(browser.contexts().map((context) => context.close()));
    },
  };
}

export const appUrl = () => inject('apiUrl');

// Clicks a form's button and waits for the page the form leads to (a POST answered or redirected).
export async function submit(page: Page, button: Locator): Promise<void> {
  await Promise.all([page.waitForNavigation(), button.click()]);
}

// Signs in through the sign-in form as a person does: the form's page, typed in, submitted, and
// the overview the form leads to. For the tests of signing in itself.
export async function signInWithForm(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/app/sign-in');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(password);
  await submit(page, page.getByRole('button', { name: 'Sign in' }));
  expect(new URL(page.url()).pathname).not.toBe('/app/sign-in');
}

// Signs the page's browser context in with the same form's request, sent from the test
// (playwright's request API shares the context's cookies), and leaves the page where it is: the
// test goes to the page it is about. The form's way rendered the sign-in page and then the
// overview, in chromium and in the API, for each of the run's 80 or so signed-in contexts.
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  const request = page.context().request;
  const form = await request.get('/app/sign-in');
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1];
  expect(csrf, 'the sign-in form carries a CSRF token').toBeDefined();
  const signedIn = await request.post('/app/sign-in', { form: { _csrf: csrf!, email, password }, maxRedirects: 0 });
  expect(signedIn.status(), `signing ${email} in`).toBe(303);
}

const axeSource = readFileSync(
  createRequire(path.join(repoRoot, 'package.json')).resolve('axe-core/axe.min.js'),
  'utf8',
);

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

// axe-core in the page (evaluated through the DevTools protocol, so the page's CSP does not block
// it); fails on every violation of serious or critical impact, naming the rule and the elements.
// `every`: fails on a violation of any impact (minor and moderate too).
export async function expectAccessible(page: Page, name: string, options: { every?: boolean } = {}): Promise<void> {
  await page.evaluate(axeSource);
  // A string: it runs in the page, which the test's TypeScript (no DOM types) does not describe.
  const violations = await page.evaluate<AxeViolation[]>(
    `axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations)`,
  );
  const serious = violations.filter((v) => options.every || v.impact === 'serious' || v.impact === 'critical');
  const report = serious.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes
        .slice(0, 5)
        .map((n) => `${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`)
        .join('\n    ')}`,
  );
  expect(report, `accessibility of ${name}`).toEqual([]);
}

// Screenshots of the main pages for docs/screenshots/ (desktop and phone widths), taken only when
// asked (`npm run screenshots`, SCREENSHOTS=1): a test run leaves the tracked pictures alone, and
// a full-page PNG at both widths cost the browser files a good share of their CPU.
const takeScreenshots = process.env.SCREENSHOTS === '1';

export async function screenshot(page: Page, name: string): Promise<void> {
  if (!takeScreenshots) return;
  await page.screenshot({ path: path.join(repoRoot, 'docs', 'screenshots', `${name}.png`), fullPage: true });
}

// The page as it is now at desktop and at phone width (`name` and `name.phone`): resized in place,
// so a page that answered a form (a preview, an outcome) is pictured too. On the phone the page
// must not scroll sideways. The page's own size is restored after.
export async function screenshotBothWidths(page: Page, name: string): Promise<void> {
  const size = page.viewportSize() ?? DESKTOP;
  await page.setViewportSize(DESKTOP);
  await screenshot(page, name);
  await page.setViewportSize(PHONE);
  expect(await page.evaluate('document.documentElement.scrollWidth'), `${name} on a phone`).toBeLessThanOrEqual(
    PHONE.width,
  );
  await screenshot(page, `${name}.phone`);
  await page.setViewportSize(size);
}
