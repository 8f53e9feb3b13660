import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../deps.js';
import { authenticate, authorize, bearerDigest } from './auth.js';
import { etagOf } from './etag.js';
import { ApiError, errors } from './errors.js';
import { parseFields, selectFields } from './fields.js';
import { digestRequest, readIdempotencyKey, withIdempotency } from './idempotency.js';
import { assertKnownQueryKeys, parsePart, queryKeysOf, type RouteDefinition, type RouteResponse } from './route.js';

// Mounts the route table: every operation passes the same pipeline, in this order:
// authenticate → authorize → rate limit → validate → (idempotency) → handler → fields → ETag.

function koaPath(openApiPath: string): string {
  return openApiPath.replace(/\{(\w+)\}/g, ':$1');
}

// Literal segments win over parameters (/v1/invoices/imports before /v1/invoices/{id}).
function specificity(path: string): string {
  return path
    .split('/')
    .map((segment) => (segment.startsWith('{') ? '1' : '0'))
    .join('');
}

export function sortRoutes(routes: RouteDefinition[]): RouteDefinition[] {
  return [...routes].sort((a, b) => specificity(a.path).localeCompare(specificity(b.path)));
}

function applyFields(route: RouteDefinition, body: unknown, fields: string[] | null): unknown {
  if (!fields || !body || typeof body !== 'object') return body;
  const record = body as Record<string, unknown>;
  if (Array.isArray(record.data)) {
    return { ...record, data: record.data.map((item) => selectFields(item as Record<string, unknown>, fields)) };
  }
  return selectFields(record, fields);
}

function write(ctx: Context, route: RouteDefinition, response: RouteResponse, fields: string[] | null): void {
  ctx.status = response.status ?? 200;
  for (const [name, value] of Object.entries(response.headers ?? {})) ctx.set(name, value);
  if (route.etag && ctx.status === 200 && response.body !== undefined) ctx.set('ETag', etagOf(response.body));
  if (response.body !== undefined) ctx.body = applyFields(route, response.body, fields);
  else if (ctx.status === 200) ctx.status = 204;
}

// Failed authentications count against the client address, and an address out of them is refused
// whatever token it sends. Its budget is read beside the token's lookup rather than before it (one
// round trip instead of two on every request; the lookup's answer is then not used), and once this
// process has refused an address, it refuses it before any lookup until the window ends.
const AUTH_FAILURE_CODES = new Set(['invalid_token', 'token_disabled']);

async function authenticateCounted(deps: AppDeps, ctx: Context, route: RouteDefinition, address: string) {
  const [allowed, found] = await Promise.allSettled([deps.rateLimiter.assertMayAuthenticate(address), authenticate(deps, ctx, route.access)]);
  if (allowed.status === 'rejected') throw allowed.reason;
  if (found.status === 'fulfilled') return found.value;
  const error: unknown = found.reason;
  if (error instanceof ApiError && AUTH_FAILURE_CODES.has(error.code)) await deps.rateLimiter.recordAuthFailure(address);
  throw error;
}

async function handle(deps: AppDeps, route: RouteDefinition, queryKeys: string[], ctx: Context): Promise<void> {
  ctx.state.routePattern = route.path;
  // ctx.ip honours TRUST_PROXY (src/app.ts); a socket already gone has no address.
  const address = ctx.ip || 'unknown';
  deps.rateLimiter.refuseKnownBlockedAddress(address);
  // Authentication and the request budget go to the database side by side (one round trip, not
  // two). A failed authentication or a refused access is answered before an exhausted budget.
  const [authenticated, budget] = await Promise.allSettled([authenticateCounted(deps, ctx, route, address), spendRequestBudget(deps, ctx)]);
  if (authenticated.status === 'rejected') throw authenticated.reason;
  const credential = authenticated.value;
  ctx.state.credential = credential;
  authorize(credential, route.access);
  if (budget.status === 'rejected') throw budget.reason;

  const params = parsePart(route.params, ctx.params, 'path');
  assertKnownQueryKeys(queryKeys, ctx.query);
  const query = parsePart(route.query, ctx.query, 'query');
  // A JSON route reads JSON only: another body (a form, multipart) is refused, not read as {}.
  // (A request without content, e.g. Content-Length: 0 and no type, is simply no body.)
  const hasContent = (ctx.request.length ?? 0) > 0 || ctx.get('Transfer-Encoding') !== '';
  if (route.body && hasContent && !ctx.request.is('json')) {
    throw errors.validation('Send the request body as JSON (Content-Type: application/json).', [{ field: 'body', message: 'not JSON' }]);
  }
  // koa-body leaves {} when no body was sent; optional bodies accept it.
  const requestBody = (ctx.request as { body?: unknown }).body ?? {};
  const body = parsePart(route.body, requestBody, 'body');
  const fields = route.fieldsOf ? parseFields((ctx.query.fields as string | undefined) ?? undefined, route.fieldsOf) : null;

  const idempotencyKey = route.idempotent ? readIdempotencyKey(ctx.get('Idempotency-Key')) : null;
  const run = () => route.handler({ params, query, body, credential, deps, ctx, idempotencyKey });
  const response =
    idempotencyKey && credential.organizationId
      ? await withIdempotency(
          deps.db,
          {
            organizationId: credential.organizationId,
            key: idempotencyKey,
            requestDigest: digestRequest(ctx.method, ctx.path, requestBody),
            retentionHours: deps.config.IDEMPOTENCY_RETENTION_HOURS,
          },
          run,
        )
      : await run();
  write(ctx, route, response, fields);
}

// Each API key, ingestion token and session has its own request budget, named by its token's
// digest so that it can be spent while the token is being looked up. A request without a bearer
// is refused by authentication and spends nothing.
async function spendRequestBudget(deps: AppDeps, ctx: Context): Promise<void> {
  const digest = bearerDigest(ctx);
  if (digest) await deps.rateLimiter.consume(digest);
}

export function mountRoutes(router: Router, deps: AppDeps, routes: RouteDefinition[]): void {
  for (const route of sortRoutes(routes)) {
    const queryKeys = queryKeysOf(route);
    router[route.method](koaPath(route.path), (ctx: Context) => handle(deps, route, queryKeys, ctx));
  }
}
