import type { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { ZodType } from 'zod';
import type { Logger } from '../logger.js';
import type { ApiKeyCredential } from '../auth/credential.js';
import { atLeast, type Level } from '../auth/levels.js';
import type { AppDeps } from '../deps.js';
import { ApiError, errors } from '../http/errors.js';
import { withMultipartFiles, type MultipartLimits, type ReceivedFile } from '../http/multipart.js';
import { outageSourceOf } from '../http/outages.js';
import { parsePart } from '../http/route.js';
import { operationCaller, type OperationCaller } from './operations.js';
import { appView, layoutUser, renderView, sendHtml, setNotice, takeNotice, type NavSection } from './render.js';
import { teamViewOf } from './team-view.js';
import { requestTexts, type Texts } from './texts/index.js';
import { credentialOf, csrfValid, sessionOf, spendSessionBudget, type WebSession } from './session.js';

// The application's equivalent of defineRoute: a page (GET, renders a view in the layout) or an
// action (POST form: CSRF checked, level checked, then redirect or a rendered result). Both need
// a session; a signed-out visitor is sent to sign in. Failures render as an error page with the
// API's message and the request id, never internals. How to add one: docs/web.md.

export interface WebInput<P, Q> {
  params: P;
  query: Q;
  deps: AppDeps;
  ctx: Context;
  session: WebSession;
  credential: ApiKeyCredential;
  // The API's operations as this user (src/web/operations.ts).
  call: OperationCaller;
  // The words of the page in the request's language (src/web/texts/).
  t: Texts;
}

export interface WebPage<P = unknown, Q = unknown> {
  method: 'get';
  // Koa path, under /app: '/invoices/:id'.
  path: string;
  // Level needed to see the page (default read); the role decides (a session has no key).
  level?: Level;
  nav: NavSection | null;
  params?: ZodType<P>;
  query?: ZodType<Q>;
  view: string;
  // The page's data; `title` in it names the page (else the definition's `title(t)`). A `redirect`
  // sends the browser there instead (e.g. to a file's short-lived download link).
  load: (input: WebInput<P, Q>) => Promise<Record<string, unknown> & { title?: string; redirect?: string }>;
  title: string | ((t: Texts) => string);
}

export type ActionResult =
  // POST-redirect-GET; the notice shows once on the next page.
  | { redirect: string; notice?: string }
  // A page rendered as the answer (e.g. a secret shown once: nothing to redirect to).
  | { view: string; title: string; data: Record<string, unknown>; nav?: NavSection | null; status?: number }
  // An htmx request's partial: the view alone, without the layout.
  | { fragment: string; data: Record<string, unknown> };

export interface WebAction<P = unknown, B = unknown> {
  method: 'post';
  path: string;
  // Level needed to act; a lower role gets 403 whatever the page showed.
  level: Level;
  params?: ZodType<P>;
  body?: ZodType<B>;
  // A multipart/form-data form (file uploads): read, within these limits, only after the session
  // and the level were checked; its fields are the body (CSRF included), its files last until
  // `handle` returns.
  multipart?: (config: AppDeps['config']) => MultipartLimits;
  handle: (input: WebInput<P, never> & { body: B; files: ReceivedFile[] }) => Promise<ActionResult>;
}

// A file answered as it is (e.g. a claim's PDF letter from the API's export): GET, session and
// level as a page, no layout. Failures render as the error page.
export interface WebFile {
  // A stream is answered as it is read (a claim's XLSX or CSV export).
  body: Buffer | string | Readable;
  contentType: string;
  fileName: string;
  // Shown in the browser (a letter's preview in a frame of this application) rather than saved.
  inline?: boolean;
}

export interface WebDownload<P = unknown, Q = unknown> {
  method: 'get';
  download: true;
  path: string;
  level?: Level;
  params?: ZodType<P>;
  query?: ZodType<Q>;
  file: (input: WebInput<P, Q>) => Promise<WebFile>;
}

// A route of the table, its input types erased: each was checked where it was defined, and its
// own zod schemas parse what it receives.
export type WebRoute = WebPage | WebAction | WebDownload;

export function definePage<P, Q>(page: Omit<WebPage<P, Q>, 'method'>): WebRoute {
  return { method: 'get', ...page } as unknown as WebRoute;
}

export function defineDownload<P, Q>(download: Omit<WebDownload<P, Q>, 'method' | 'download'>): WebRoute {
  return { method: 'get', download: true, ...download } as unknown as WebRoute;
}

export function defineAction<P, B>(action: Omit<WebAction<P, B>, 'method'>): WebRoute {
  return { method: 'post', ...action } as unknown as WebRoute;
}

function signInRedirect(ctx: Context): void {
  const next = ctx.method === 'GET' ? ctx.originalUrl : '/app';
  ctx.redirect(`/app/sign-in?next=${encodeURIComponent(next)}`);
}

function serverTiming(ctx: Context, started: bigint): void {
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  ctx.set('Server-Timing', `app;dur=${ms.toFixed(1)}`);
}

const forbidden = (level: Level) =>
  new ApiError(
    403,
    'insufficient_level',
    `This needs the ${level} level; your role in this organization does not allow it.`,
  );

// What a page or a download receives, once its level is checked and its path and query parsed.
function readInput(deps: AppDeps, route: WebPage | WebDownload, ctx: Context, session: WebSession) {
  const level = route.level ?? 'read';
  if (!atLeast(session.role, level)) throw forbidden(level);
  const credential = credentialOf(session);
  return {
    params: parsePart(route.params, ctx.params, 'path'),
    query: parsePart(route.query, ctx.query, 'query'),
    deps,
    ctx,
    session,
    credential,
    call: operationCaller(deps, ctx, credential, { teamView: session.teamView?.mine }),
    t: requestTexts(ctx),
  };
}

async function runPage(deps: AppDeps, page: WebPage, ctx: Context, session: WebSession): Promise<void> {
  const [data, user] = await Promise.all([page.load(readInput(deps, page, ctx, session)), layoutUser(deps, session)]);
  if (data.redirect) return ctx.redirect(data.redirect);
  const app = appView(ctx, {
    title: data.title ?? (typeof page.title === 'function' ? page.title(requestTexts(ctx)) : page.title),
    nav: page.nav,
    session,
    user,
    notice: takeNotice(ctx, deps),
  });
  sendHtml(ctx, renderView(page.view, { ...data, app }));
}

async function runDownload(deps: AppDeps, route: WebDownload, ctx: Context, session: WebSession): Promise<void> {
  const file = await route.file(readInput(deps, route, ctx, session));
  ctx.status = 200;
  ctx.type = file.contentType;
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Content-Type-Options', 'nosniff');
  // The name is ours (a claim reference), quoted; anything outside plain characters is dropped.
  ctx.set(
    'Content-Disposition',
    `${file.inline ? 'inline' : 'attachment'}; filename="${file.fileName.replace(/[^\w.-]/g, '_')}"`,
  );
  // An inline file may be framed by this application's own pages, never by another site's.
  if (file.inline) {
    ctx.set('X-Frame-Options', 'SAMEORIGIN');
    ctx.set('Content-Security-Policy', "frame-ancestors 'self'");
  }
  ctx.body = file.body;
}

const csrfFailed = () =>
  new ApiError(
    403,
    'csrf_failed',
    'The form has expired or did not come from this application. Reload the page and try again.',
  );

async function runAction(deps: AppDeps, action: WebAction, ctx: Context, session: WebSession): Promise<void> {
  let result: ActionResult;
  if (action.multipart) {
    // The level first, so a Read member's upload is refused before a byte is read to disk.
    if (!atLeast(session.role, action.level)) throw forbidden(action.level);
    result = await withMultipartFiles(ctx, action.multipart(deps.config), async (files) => {
      if (!csrfValid(ctx, session)) throw csrfFailed();
      return handleAction(deps, action, ctx, session, files);
    });
  } else {
    if (!csrfValid(ctx, session)) throw csrfFailed();
    if (!atLeast(session.role, action.level)) throw forbidden(action.level);
    result = await handleAction(deps, action, ctx, session, []);
  }
  await sendActionResult(deps, ctx, session, result);
}

async function handleAction(
  deps: AppDeps,
  action: WebAction,
  ctx: Context,
  session: WebSession,
  files: ReceivedFile[],
): Promise<ActionResult> {
  const params = parsePart(action.params, ctx.params, 'path');
  const body = parsePart(action.body, (ctx.request as { body?: unknown }).body ?? {}, 'body');
  const credential = credentialOf(session);
  return action.handle({
    params,
    query: undefined as never,
    body,
    files,
    deps,
    ctx,
    session,
    credential,
    call: operationCaller(deps, ctx, credential, { teamView: session.teamView?.mine }),
    t: requestTexts(ctx),
  });
}

async function sendActionResult(deps: AppDeps, ctx: Context, session: WebSession, result: ActionResult): Promise<void> {
  if ('redirect' in result) {
    if (result.notice) setNotice(ctx, deps, result.notice);
    // htmx follows HX-Redirect; a plain form follows 303 (GET after POST).
    if (ctx.get('HX-Request')) {
      ctx.set('HX-Redirect', result.redirect);
      ctx.status = 204;
    } else {
      ctx.status = 303;
      ctx.redirect(result.redirect);
    }
    return;
  }
  if ('fragment' in result) {
    const app = appView(ctx, { title: '', session });
    sendHtml(ctx, renderView(result.fragment, { ...result.data, app }));
    return;
  }
  const app = appView(ctx, {
    title: result.title,
    nav: result.nav ?? null,
    session,
    user: await layoutUser(deps, session),
  });
  sendHtml(ctx, renderView(result.view, { ...result.data, app }), result.status ?? 200);
}

// Any failure as a page: the API's own errors with their message (and field details), outages as
// 503, anything else as 500 with the request id; the cause goes to the log only.
export async function renderFailure(
  ctx: Context,
  deps: AppDeps,
  caught: unknown,
  session: WebSession | null,
): Promise<void> {
  let error: ApiError;
  const logger = ctx.state.logger as Logger | undefined;
  if (caught instanceof ApiError) error = caught;
  else if (outageSourceOf(caught)) {
    logger?.warn({ err: caught }, 'infrastructure unavailable');
    error = errors.serviceUnavailable('The service is temporarily unavailable. Try again in a moment.');
  } else {
    logger?.error({ err: caught }, 'unexpected failure');
    error = new ApiError(
      500,
      'internal_error',
      'Something went wrong on our side. Quote the request id when contacting support.',
    );
  }
  const titles = requestTexts(ctx).shell.errorTitles;
  const title =
    error.status === 404
      ? titles.notFound
      : error.status === 403
        ? titles.notAllowed
        : error.status >= 500
          ? titles.failed
          : titles.refused;
  const details = Array.isArray(error.extra.details)
    ? (error.extra.details as { field: string; message: string }[])
    : [];
  const user = session ? await layoutUser(deps, session).catch(() => null) : null;
  const app = appView(ctx, { title, session, user });
  for (const [name, value] of Object.entries(error.extra.headers ?? {})) ctx.set(name, value);
  sendHtml(
    ctx,
    renderView('error', { app, status: error.status, code: error.code, message: error.message, details }),
    error.status,
  );
}

export function webHandler(deps: AppDeps, route: WebRoute) {
  return async (ctx: Context): Promise<void> => {
    const started = process.hrtime.bigint();
    ctx.state.routePattern = `/app${route.path}`;
    let session: WebSession | null = null;
    try {
      session = await sessionOf(ctx, deps);
      if (!session) return signInRedirect(ctx);
      await spendSessionBudget(ctx, deps);
      session.teamView = await teamViewOf(ctx, deps, session);
      ctx.state.credential = credentialOf(session);
      if ('download' in route) await runDownload(deps, route, ctx, session);
      else if (route.method === 'get') await runPage(deps, route, ctx, session);
      else await runAction(deps, route, ctx, session);
    } catch (caught) {
      await renderFailure(ctx, deps, caught, session);
    } finally {
      serverTiming(ctx, started);
    }
  };
}
