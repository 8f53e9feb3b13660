import { fileURLToPath } from 'node:url';
import { Eta } from 'eta';
import type { Context } from 'koa';
import { atLeast, type Level } from '../auth/levels.js';
import type { AppDeps } from '../deps.js';
import { assetUrl } from './assets.js';
import { clearCookie, readCookie, setCookie } from './cookies.js';
import { formatterFor, type Formatter } from './format.js';
import { alertSummary, codeLabel } from './labels.js';
import { isSecureApp, type WebSession } from './session.js';
import { requestLocale, textsFor, type Locale, type Texts } from './texts/index.js';

// Views are eta templates in src/web/views, escaped by default (<%= %>; <%~ %> only for HTML we
// built). Every view gets `it.app` (layout data, formatters, the CSRF token) beside its own data.

const eta = new Eta({ views: fileURLToPath(new URL('./views', import.meta.url)), cache: true, autoEscape: true });

// The header's sections, in order; a page names the one it belongs to. Their words are
// `t.shell.nav[id]`.
export const NAV = [
  { id: 'overview', path: '/app' },
  { id: 'invoices', path: '/app/invoices' },
  { id: 'review', path: '/app/review' },
  { id: 'agreements', path: '/app/agreements' },
  { id: 'alerts', path: '/app/alerts' },
  { id: 'claims', path: '/app/claims' },
  { id: 'runs', path: '/app/runs' },
  { id: 'integrations', path: '/app/integrations' },
  { id: 'teams', path: '/app/teams' },
  { id: 'settings', path: '/app/settings' },
] as const;
export type NavSection = (typeof NAV)[number]['id'];

export interface LayoutUser {
  email: string;
  name: string | null;
  organizations: { id: string; name: string; role: Level }[];
}

export interface AppView {
  title: string;
  // The request's language and its words (src/web/texts/): views read every word from `t`.
  locale: Locale;
  t: Texts;
  nav: NavSection | null;
  // Null on the pages of a signed-out visitor (sign-in, set password).
  user: LayoutUser | null;
  organization: { id: string; name: string } | null;
  role: Level | null;
  can: { write: boolean; admin: boolean };
  csrf: string;
  notice: string | null;
  requestId: string;
  asset: typeof assetUrl;
  // Money and numbers in the request's language (src/web/format.ts).
  fmt: Formatter;
  // A code in words (src/web/labels.ts); views keep the code in the element's title.
  code: (code: string | null | undefined) => string;
  alertSummary: (alert: Parameters<typeof alertSummary>[0]) => string;
  navItems: typeof NAV;
  // The header's "My teams / Everything" switch (null: the person is in no team) and the URL the
  // page came from, to come back to after switching.
  teamView: { mine: boolean; here: string } | null;
}

// The switcher lists at most this many organizations (the active one always among them), so a
// page's memory and time do not grow with a user's memberships.
export const SWITCHER_ORGANIZATIONS = 100;

interface LayoutRow {
  email: string;
  name: string | null;
  organizationId: string | null;
  organizationName: string | null;
  role: Level | null;
}

// Layout data of a signed-in page: the user and their organizations, one statement (every page
// runs it beside its own data).
export async function layoutUser(
  deps: Pick<AppDeps, 'db'>,
  session: Pick<WebSession, 'userId' | 'organizationId'>,
): Promise<LayoutUser> {
  const rows = await deps.db.$queryRaw<LayoutRow[]>`
    SELECT u.email, u.name, o.id::text AS "organizationId", o.name AS "organizationName", m.role::text AS "role"
      FROM users u
      LEFT JOIN memberships m ON m.user_id = u.id
      LEFT JOIN organizations o ON o.id = m.organization_id
     WHERE u.id = ${session.userId}::uuid
     ORDER BY o.id = ${session.organizationId}::uuid DESC, o.name, o.id
     LIMIT ${SWITCHER_ORGANIZATIONS}`;
  const user = rows[0];
  if (!user) throw new Error('the session names a user that does not exist');
  const organizations = rows
    .filter((row) => row.organizationId !== null)
    .map((row) => ({ id: row.organizationId!, name: row.organizationName!, role: row.role! }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return { email: user.email, name: user.name, organizations };
}

export function appView(
  ctx: Context,
  input: {
    title: string;
    nav?: NavSection | null;
    session?: WebSession | null;
    user?: LayoutUser | null;
    csrf?: string;
    notice?: string | null;
  },
): AppView {
  const session = input.session ?? null;
  const organization =
    session && input.user ? (input.user.organizations.find((o) => o.id === session.organizationId) ?? null) : null;
  const locale = requestLocale(ctx);
  const t = textsFor(locale);
  return {
    title: input.title,
    locale,
    t,
    nav: input.nav ?? null,
    user: input.user ?? null,
    organization: organization ? { id: organization.id, name: organization.name } : null,
    role: session?.role ?? null,
    can: {
      write: session ? atLeast(session.role, 'write') : false,
      admin: session ? atLeast(session.role, 'admin') : false,
    },
    csrf: input.csrf ?? session?.csrfSecret ?? '',
    notice: input.notice ?? null,
    requestId: (ctx.state.requestId as string | undefined) ?? '',
    asset: assetUrl,
    fmt: formatterFor(locale),
    code: (code) => codeLabel(code, t.codes),
    alertSummary: (alert) => alertSummary(alert, t.codes),
    navItems: NAV,
    teamView: session?.teamView?.inTeams ? { mine: session.teamView.mine, here: ctx.originalUrl } : null,
  };
}

export function renderView(view: string, data: Record<string, unknown>): string {
  return eta.render(`./${view}`, data);
}

// Sends an HTML page: never cached by shared caches, never framed, no inline script (CSP).
export function sendHtml(ctx: Context, html: string, status = 200): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set(
    'Content-Security-Policy',
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
  );
  ctx.body = html;
}

// A one-time message for the page after a redirect (POST-redirect-GET): a short-lived cookie.
const NOTICE_COOKIE = 'ics_notice';

export function setNotice(ctx: Context, deps: Pick<AppDeps, 'config'>, notice: string): void {
  setCookie(ctx, NOTICE_COOKIE, encodeURIComponent(notice.slice(0, 300)), {
    secure: isSecureApp(deps),
    path: '/app',
    maxAgeSeconds: 60,
  });
}

export function takeNotice(ctx: Context, deps: Pick<AppDeps, 'config'>): string | null {
  const value = readCookie(ctx, NOTICE_COOKIE);
  if (!value) return null;
  clearCookie(ctx, NOTICE_COOKIE, { secure: isSecureApp(deps), path: '/app' });
  try {
    return decodeURIComponent(value).slice(0, 300);
  } catch {
    return null;
  }
}
