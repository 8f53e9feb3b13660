import { Readable } from 'node:stream';
import Router from '@koa/router';
import type { Context } from 'koa';
import { actorOf } from '../auth/actor.js';
import type { Credential } from '../auth/credential.js';
import type { AppDeps } from '../deps.js';
import { admit, settle, unwrap } from './admission.js';
import { etagOf } from './etag.js';
import { errors } from './errors.js';
import { parseFields, selectFields } from './fields.js';
import { digestRequest, readIdempotencyKey, withIdempotency } from './idempotency.js';
import { isIngestion } from '../auth/credential.js';
import {
  assertKnownQueryKeys,
  fieldSelectionOf,
  parsePart,
  queryKeysOf,
  type FieldSelection,
  type RouteDefinition,
  type RouteResponse,
} from './route.js';

// Mounts the route table: every operation passes the same pipeline, in this order:
// admission (authenticate → authorize → rate limit; src/http/admission.ts) → validate →
// (idempotency) → handler → fields → ETag.

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

interface RequestedFields {
  selection: FieldSelection;
  fields: string[];
}

function applyFields(body: unknown, requested: RequestedFields | null): unknown {
  if (!requested || !body || typeof body !== 'object' || body instanceof Readable || Buffer.isBuffer(body)) return body;
  const { selection, fields } = requested;
  const record = body as Record<string, unknown>;
  const select = (item: unknown) => selectFields(item as Record<string, unknown>, fields, selection.identity);
  if (selection.listKey) {
    const items = record[selection.listKey];
    return Array.isArray(items) ? { ...record, [selection.listKey]: items.map(select) } : body;
  }
  return select(record);
}

function write(ctx: Context, route: RouteDefinition, response: RouteResponse, requested: RequestedFields | null): void {
  ctx.status = response.status ?? 200;
  for (const [name, value] of Object.entries(response.headers ?? {})) ctx.set(name, value);
  if (route.etag && ctx.status === 200 && response.body !== undefined) ctx.set('ETag', etagOf(response.body));
  if (response.body !== undefined) ctx.body = applyFields(response.body, requested);
  else if (ctx.status === 200) ctx.status = 204;
}

async function handle(deps: AppDeps, route: RouteDefinition, queryKeys: string[], ctx: Context): Promise<void> {
  ctx.state.routePattern = route.path;
  const admission = await admit(deps, ctx, route);
  const { credential } = admission;
  ctx.state.credential = credential;
  // A read runs beside the address and budget checks (src/http/admission.ts); a write after them.
  if (route.method !== 'get') await admission.passed();
  const answered = await settle(answer(deps, route, queryKeys, ctx, credential));
  try {
    await admission.passed();
  } catch (refusal) {
    if (answered.ok) discard(answered.value.response);
    throw refusal;
  }
  const { response, fields } = unwrap(answered);
  write(ctx, route, response, fields);
}

// Validates the request and runs its handler (under its Idempotency-Key when it sends one).
async function answer(
  deps: AppDeps,
  route: RouteDefinition,
  queryKeys: string[],
  ctx: Context,
  credential: Credential,
) {
  const params = parsePart(route.params, ctx.params, 'path');
  assertKnownQueryKeys(queryKeys, ctx.query);
  const query = parsePart(route.query, ctx.query, 'query');
  // A JSON route reads JSON only: another body (a form, multipart) is refused, not read as {}.
  // (A request without content, e.g. Content-Length: 0 and no type, is simply no body.)
  const hasContent = (ctx.request.length ?? 0) > 0 || ctx.get('Transfer-Encoding') !== '';
  if (route.body && hasContent && !ctx.request.is('json')) {
    throw errors.validation('Send the request body as JSON (Content-Type: application/json).', [
      { field: 'body', message: 'not JSON' },
    ]);
  }
  // koa-body leaves {} when no body was sent; optional bodies accept it.
  const requestBody = (ctx.request as { body?: unknown }).body ?? {};
  const body = parsePart(route.body, requestBody, 'body');
  const fields = requestedFields(route, credential, ctx.query.fields);

  const idempotencyKey = route.idempotent ? readIdempotencyKey(ctx.get('Idempotency-Key')) : null;
  const actor = actorOf(credential);
  const run = () => route.handler({ params, query, body, actor, deps, ctx, idempotencyKey });
  const response =
    idempotencyKey && actor.organizationId
      ? await withIdempotency(
          deps.db,
          {
            organizationId: actor.organizationId,
            key: idempotencyKey,
            requestDigest: digestRequest(ctx.method, ctx.path, requestBody),
            retentionHours: deps.config.IDEMPOTENCY_RETENTION_HOURS,
          },
          run,
        )
      : await run();
  return { response, fields };
}

// `fields` as asked, checked against the record the credential reads (an Ingestion token reads
// the Ingestion shape). A repeated `fields` parameter is one list.
function requestedFields(
  route: RouteDefinition,
  credential: Credential,
  raw: string | string[] | undefined,
): RequestedFields | null {
  const selection = fieldSelectionOf(route, isIngestion(credential));
  if (!selection || raw === undefined) return null;
  const fields = parseFields([raw].flat().join(','), selection.schema);
  return fields ? { selection, fields } : null;
}

// An answer replaced by a refusal: a stream it holds (a file, a cursor) is released.
function discard(response: RouteResponse): void {
  if (response.body instanceof Readable) response.body.destroy();
}

export function mountRoutes(router: Router, deps: AppDeps, routes: RouteDefinition[]): void {
  for (const route of sortRoutes(routes)) {
    const queryKeys = queryKeysOf(route);
    router[route.method](koaPath(route.path), (ctx: Context) => handle(deps, route, queryKeys, ctx));
  }
}
