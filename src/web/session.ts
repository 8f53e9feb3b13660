import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import type { TeamView } from './team-view.js';
import type { ApiKeyCredential } from '../auth/credential.js';
import {
  findActiveSession,
  firstOrganizationOf,
  revokeSession,
  sessionCredential,
  switchOrganization,
  type ActiveSession,
} from '../auth/sessions.js';
import { digestToken, SESSION_TOKEN_PREFIX, sameSecret } from '../auth/tokens.js';
import type { AppDeps } from '../deps.js';
import { clearCookie, readCookie, setCookie } from './cookies.js';

// The browser's session: the cookie holds the session token (src/auth/sessions.ts), HttpOnly,
// SameSite=Lax, Secure when APP_BASE_URL is https. CSRF: every form of a signed-in page carries
// the session's synchronizer token (csrf_secret, random per session, kept in PostgreSQL), checked
// on every POST; forms before sign-in (sign-in, set-password) use a double-submit cookie.

export const SESSION_COOKIE = 'ics_session';
export const ANONYMOUS_CSRF_COOKIE = 'ics_csrf';
export const CSRF_FIELD = '_csrf';
export const CSRF_HEADER = 'X-CSRF-Token';

export interface WebSession extends ActiveSession {
  role: NonNullable<ActiveSession['role']>;
  // Whether lists show the person's teams' part (set for pages and actions: src/web/team-view.ts).
  teamView?: TeamView;
}

export const isSecureApp = (deps: Pick<AppDeps, 'config'>) => deps.config.APP_BASE_URL.startsWith('https:');

export function writeSessionCookie(ctx: Context, deps: Pick<AppDeps, 'config'>, token: string): void {
  setCookie(ctx, SESSION_COOKIE, token, {
    secure: isSecureApp(deps),
    maxAgeSeconds: deps.config.SESSION_MAX_DAYS * 86_400,
  });
}

export function clearSessionCookie(ctx: Context, deps: Pick<AppDeps, 'config'>): void {
  clearCookie(ctx, SESSION_COOKIE, { secure: isSecureApp(deps) });
}

// The signed-in session of the request, or null. A session whose user left its active
// organization moves to another organization of the user, or ends when there is none.
export async function sessionOf(ctx: Context, deps: Pick<AppDeps, 'db' | 'config'>): Promise<WebSession | null> {
  const token = readCookie(ctx, SESSION_COOKIE);
  if (!token?.startsWith(SESSION_TOKEN_PREFIX) || token.length > 100) return null;
  const session = await findActiveSession(deps.db, deps.config, token);
  if (!session) return null;
  if (session.role) return session as WebSession;
  const other = await firstOrganizationOf(deps.db, session.userId);
  if (!other || !(await switchOrganization(deps.db, session, other))) {
    await revokeSession(deps.db, session.id);
    return null;
  }
  const moved = await findActiveSession(deps.db, deps.config, token);
  return moved?.role ? (moved as WebSession) : null;
}

// A signed-in browser spends its session's request budget (RATE_LIMIT_REQUESTS per
// RATE_LIMIT_WINDOW_SECONDS), the very budget the session's bearer spends on the API: both are
// named by the token's digest, so the application is no way around the per-credential limit.
// Past it: 429 rate_limit_exceeded with Retry-After, as an error page.
export async function spendSessionBudget(ctx: Context, deps: Pick<AppDeps, 'rateLimiter'>): Promise<void> {
  const token = readCookie(ctx, SESSION_COOKIE);
  if (!token) return;
  const budgetKey = digestToken(token);
  deps.rateLimiter.refuseKnownExhaustedBudget(budgetKey);
  await deps.rateLimiter.consume(budgetKey);
}

// The credential the API's services see for a page or action (the session bearer's, too).
export function credentialOf(session: WebSession): ApiKeyCredential {
  return sessionCredential(session);
}

function sentToken(ctx: Context): unknown {
  const body = (ctx.request as { body?: Record<string, unknown> }).body;
  return ctx.get(CSRF_HEADER) || (body && typeof body === 'object' ? body[CSRF_FIELD] : undefined);
}

export function csrfValid(ctx: Context, session: WebSession): boolean {
  return sameSecret(session.csrfSecret, sentToken(ctx));
}

// Double submit for the forms of a signed-out visitor: a random cookie, the same value in the form.
export function anonymousCsrfToken(ctx: Context, deps: Pick<AppDeps, 'config'>): string {
  const existing = readCookie(ctx, ANONYMOUS_CSRF_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomBytes(32).toString('base64url');
  setCookie(ctx, ANONYMOUS_CSRF_COOKIE, token, { secure: isSecureApp(deps), path: '/app' });
  return token;
}

export function anonymousCsrfValid(ctx: Context): boolean {
  const cookie = readCookie(ctx, ANONYMOUS_CSRF_COOKIE);
  return cookie !== null && sameSecret(cookie, sentToken(ctx));
}
