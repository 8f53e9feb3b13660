import { createHash } from 'node:crypto';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import {
  findPasswordLink,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  PasswordError,
  usePasswordLink,
  verifyPassword,
} from '../../auth/passwords.js';
import { createSession, firstOrganizationOf, revokeSession, switchOrganization } from '../../auth/sessions.js';
import type { AppDeps } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import { renderFailure } from '../page.js';
import { appView, renderView, sendHtml, setNotice } from '../render.js';
import { isLocale, LOCALE_NAMES, LOCALES, requestLocale, requestTexts, writeLanguageCookie } from '../texts/index.js';
import {
  anonymousCsrfToken,
  anonymousCsrfValid,
  clearSessionCookie,
  csrfValid,
  isSecureApp,
  sessionOf,
  writeSessionCookie,
} from '../session.js';

// Signing in and out, setting a password from a one-time link, switching organization. These are
// the application's only routes outside definePage/defineAction: they run before a session exists.

const HOME = '/app';
// The API's error for a form that did not come from this application (the error page shows it).
const FORM_EXPIRED = 'The form has expired. Try again.';

// Only a path of this application: never another site (no open redirect).
export function safeNext(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2000) return HOME;
  if (!value.startsWith('/app') || value.startsWith('//') || value.includes('\\')) return HOME;
  if (value.startsWith('/app/sign-in') || value.startsWith('/app/set-password')) return HOME;
  return value;
}

// The budget's name for one account (the e-mail as typed, known or not) at one client address: a
// digest, so the rate-limit table holds no e-mail addresses.
export function signInAttemptKey(email: string, address: string): string {
  return createHash('sha256').update(`${email}\n${address}`, 'utf8').digest('hex');
}

const signInBody = z.object({
  email: z.string().trim().toLowerCase().max(320).default(''),
  password: z
    .string()
    .max(MAX_PASSWORD_LENGTH * 4)
    .default(''),
  next: z.string().optional(),
});

function renderSignIn(
  ctx: Context,
  deps: AppDeps,
  input: { email?: string; next: string; error?: string; status?: number },
): void {
  const app = appView(ctx, { title: requestTexts(ctx).auth.signInTitle, csrf: anonymousCsrfToken(ctx, deps) });
  sendHtml(
    ctx,
    renderView('sign-in', {
      app,
      email: input.email ?? '',
      next: input.next,
      error: input.error ?? null,
      // The other languages, offered before anyone signs in (Accept-Language chose this one).
      languages: LOCALES.filter((code) => code !== requestLocale(ctx)).map((code) => ({
        code,
        name: LOCALE_NAMES[code],
      })),
    }),
    input.status ?? 200,
  );
}

const languageBody = z.object({ locale: z.string().max(10).default(''), next: z.string().optional() });

// The sign-in page's language buttons: a form of a signed-out visitor (the anonymous CSRF token),
// back to the sign-in page in the language chosen. A name that is no language changes nothing.
async function chooseLanguage(ctx: Context, deps: AppDeps): Promise<void> {
  const body = languageBody.catch({ locale: '' }).parse((ctx.request as { body?: unknown }).body ?? {});
  const next = safeNext(body.next);
  if (!anonymousCsrfValid(ctx))
    return renderSignIn(ctx, deps, { next, error: requestTexts(ctx).auth.formExpired, status: 403 });
  if (isLocale(body.locale)) writeLanguageCookie(ctx, body.locale, isSecureApp(deps));
  ctx.status = 303;
  ctx.redirect(`/app/sign-in?next=${encodeURIComponent(next)}`);
}

async function signIn(ctx: Context, deps: AppDeps): Promise<void> {
  const parsed = signInBody.safeParse((ctx.request as { body?: unknown }).body ?? {});
  const body = parsed.success ? parsed.data : { email: '', password: '', next: undefined };
  const next = safeNext(body.next);
  const t = requestTexts(ctx).auth;
  if (!anonymousCsrfValid(ctx))
    return renderSignIn(ctx, deps, { email: body.email, next, error: t.formExpired, status: 403 });
  // One attempt of this account from this address is taken before the password is checked (so a
  // burst in parallel gets no more checks than the budget), and given back when it is right. The
  // pair, not the address alone: honest people behind the same address keep signing in, and
  // nobody can lock an account out by failing from their own address. The API's budget of the
  // address (bad tokens) is not touched.
  const attempt = signInAttemptKey(body.email, ctx.ip || 'unknown');
  try {
    await deps.rateLimiter.takeSignInAttempt(attempt);
  } catch (error) {
    if (error instanceof ApiError) {
      for (const [name, value] of Object.entries(error.extra.headers ?? {})) ctx.set(name, value);
      return renderSignIn(ctx, deps, {
        email: body.email,
        next,
        error: t.tooManySignIns,
        status: 429,
      });
    }
    throw error;
  }
  const user = body.email
    ? await deps.db.user.findUnique({ where: { email: body.email }, select: { id: true, passwordHash: true } })
    : null;
  const valid = await verifyPassword(user?.passwordHash ?? null, body.password);
  const organizationId = valid && user ? await firstOrganizationOf(deps.db, user.id) : null;
  if (!user || !valid || !organizationId)
    return renderSignIn(ctx, deps, { email: body.email, next, error: t.signInFailed, status: 401 });
  await deps.rateLimiter.forgiveSignIns(attempt);
  const { token } = await createSession(deps.db, deps.config, { userId: user.id, organizationId });
  writeSessionCookie(ctx, deps, token);
  ctx.status = 303;
  ctx.redirect(next);
}

async function signOut(ctx: Context, deps: AppDeps): Promise<void> {
  const session = await sessionOf(ctx, deps);
  // Without a valid token a page elsewhere cannot sign anyone out.
  if (session && csrfValid(ctx, session)) await revokeSession(deps.db, session.id);
  if (session && !csrfValid(ctx, session)) throw new ApiError(403, 'csrf_failed', FORM_EXPIRED);
  clearSessionCookie(ctx, deps);
  ctx.status = 303;
  ctx.redirect('/app/sign-in');
}

const tokenQuery = z.object({ token: z.string().max(200).default('') });
const setPasswordBody = z.object({
  token: z.string().max(200).default(''),
  password: z
    .string()
    .max(MAX_PASSWORD_LENGTH * 4)
    .default(''),
  confirm: z
    .string()
    .max(MAX_PASSWORD_LENGTH * 4)
    .default(''),
});

interface LinkView {
  email: string | null;
  // An invitation's organization and role; null for the operator's password link.
  organization: string | null;
  role: string | null;
}

const NO_LINK: LinkView = { email: null, organization: null, role: null };

function linkView(link: Awaited<ReturnType<typeof findPasswordLink>>): LinkView {
  if (!link) return NO_LINK;
  return { email: link.user.email, organization: link.organization?.name ?? null, role: link.role };
}

function renderSetPassword(
  ctx: Context,
  deps: AppDeps,
  input: { token: string; link: LinkView; error?: string; status?: number },
): void {
  const t = requestTexts(ctx).auth;
  const title = input.link.organization ? t.join(input.link.organization) : t.setYourPassword;
  const app = appView(ctx, { title, csrf: anonymousCsrfToken(ctx, deps) });
  sendHtml(
    ctx,
    renderView('set-password', {
      app,
      token: input.token,
      ...input.link,
      error: input.error ?? null,
      minLength: MIN_PASSWORD_LENGTH,
      maxLength: MAX_PASSWORD_LENGTH,
    }),
    input.status ?? 200,
  );
}

async function showSetPassword(ctx: Context, deps: AppDeps): Promise<void> {
  const { token } = tokenQuery.catch({ token: '' }).parse(ctx.query);
  const link = token ? await findPasswordLink(deps.db, token) : null;
  if (!link)
    return renderSetPassword(ctx, deps, {
      token: '',
      link: NO_LINK,
      error: requestTexts(ctx).auth.linkNotValid,
      status: 404,
    });
  renderSetPassword(ctx, deps, { token, link: linkView(link) });
}

// Uses a link (src/auth/passwords.ts): the operator's sets the password; an invitation joins its
// organization, with a password chosen now or the account's own. Either may check a password, so
// an attempt of the link's account from this address is taken first, as for a sign-in.
async function setPassword(ctx: Context, deps: AppDeps): Promise<void> {
  const body = setPasswordBody
    .catch({ token: '', password: '', confirm: '' })
    .parse((ctx.request as { body?: unknown }).body ?? {});
  const found = body.token ? await findPasswordLink(deps.db, body.token) : null;
  const link = linkView(found);
  const t = requestTexts(ctx).auth;
  if (!anonymousCsrfValid(ctx))
    return renderSetPassword(ctx, deps, { token: body.token, link, error: t.formExpired, status: 403 });
  if (body.password !== body.confirm)
    return renderSetPassword(ctx, deps, {
      token: body.token,
      link,
      error: t.passwordsDiffer,
      status: 400,
    });
  if (!found) return renderSetPassword(ctx, deps, { token: '', link: NO_LINK, error: t.linkNotValid, status: 400 });
  const attempt = signInAttemptKey(found.user.email, ctx.ip || 'unknown');
  try {
    await deps.rateLimiter.takeSignInAttempt(attempt);
    const used = await usePasswordLink(deps.db, body.token, body.password);
    await deps.rateLimiter.forgiveSignIns(attempt);
    const organizationId = used.organizationId ?? (await firstOrganizationOf(deps.db, used.userId));
    if (!organizationId) {
      ctx.status = 303;
      return ctx.redirect('/app/sign-in');
    }
    const { token } = await createSession(deps.db, deps.config, { userId: used.userId, organizationId });
    writeSessionCookie(ctx, deps, token);
    setNotice(ctx, deps, used.organizationId ? t.joined : t.passwordSet);
    ctx.status = 303;
    ctx.redirect(HOME);
  } catch (error) {
    if (error instanceof PasswordError)
      return renderSetPassword(ctx, deps, { token: body.token, link, error: error.message, status: 400 });
    if (error instanceof ApiError && error.status === 429) {
      for (const [name, value] of Object.entries(error.extra.headers ?? {})) ctx.set(name, value);
      return renderSetPassword(ctx, deps, {
        token: body.token,
        link,
        error: t.tooManyAttempts,
        status: 429,
      });
    }
    throw error;
  }
}

const switchBody = z.object({ organization_id: z.string().uuid() });

async function switchActiveOrganization(ctx: Context, deps: AppDeps): Promise<void> {
  const session = await sessionOf(ctx, deps);
  if (!session) return ctx.redirect('/app/sign-in');
  if (!csrfValid(ctx, session)) throw new ApiError(403, 'csrf_failed', FORM_EXPIRED);
  const parsed = switchBody.safeParse((ctx.request as { body?: unknown }).body ?? {});
  // Another user's organization is as unknown as one that does not exist.
  if (!parsed.success || !(await switchOrganization(deps.db, session, parsed.data.organization_id)))
    throw new ApiError(404, 'not_found', 'The organization does not exist.');
  ctx.status = 303;
  ctx.redirect(HOME);
}

function guarded(deps: AppDeps, pattern: string, handler: (ctx: Context, deps: AppDeps) => Promise<void>) {
  return async (ctx: Context) => {
    ctx.state.routePattern = pattern;
    try {
      await handler(ctx, deps);
    } catch (caught) {
      await renderFailure(ctx, deps, caught, null);
    }
  };
}

export function mountSessionRoutes(router: Router, deps: AppDeps): void {
  router.get(
    '/app/sign-in',
    guarded(deps, '/app/sign-in', async (ctx) => {
      if (await sessionOf(ctx, deps)) return ctx.redirect(safeNext(ctx.query.next));
      renderSignIn(ctx, deps, { next: safeNext(ctx.query.next) });
    }),
  );
  router.post('/app/sign-in', guarded(deps, '/app/sign-in', signIn));
  router.post('/app/sign-in/language', guarded(deps, '/app/sign-in/language', chooseLanguage));
  router.post('/app/sign-out', guarded(deps, '/app/sign-out', signOut));
  router.get('/app/set-password', guarded(deps, '/app/set-password', showSetPassword));
  router.post('/app/set-password', guarded(deps, '/app/set-password', setPassword));
  router.post('/app/organization', guarded(deps, '/app/organization', switchActiveOrganization));
}
