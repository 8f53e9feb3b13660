import type { Context } from 'koa';
import { actorOf } from '../auth/actor.js';
import type { Credential } from '../auth/credential.js';
import type { AppDeps } from '../deps.js';
import { authorize } from '../http/auth.js';
import { assertKnownQueryKeys, parsePart, queryKeysOf, type RouteDefinition } from '../http/route.js';
import { allRoutes } from '../routes.js';

// The application's pages and actions call the API's own operations, in process: the same route
// definition validates the input (zod), checks the level against the same access rule, and runs
// the same handler and services, so the application has no business logic of its own and shows
// exactly what the API answers (its JSON representation, links included).

export interface OperationInput {
  params?: Record<string, unknown>;
  // Query values as a query string gives them (strings or string lists), like the API's.
  query?: Record<string, unknown>;
  body?: unknown;
}

export interface OperationResult {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

const byOperationId = new Map(allRoutes.map((route) => [route.operationId, route]));

export function operation(operationId: string): RouteDefinition {
  const route = byOperationId.get(operationId);
  if (!route) throw new Error(`no API operation ${operationId}`);
  return route;
}

export async function callOperation(
  deps: AppDeps,
  ctx: Context,
  credential: Credential,
  operationId: string,
  input: OperationInput = {},
): Promise<OperationResult> {
  const route = operation(operationId);
  authorize(credential, route.access);
  const params = parsePart(route.params, input.params ?? {}, 'path');
  const rawQuery = input.query ?? {};
  assertKnownQueryKeys(queryKeysOf(route), rawQuery);
  const query = parsePart(route.query, rawQuery, 'query');
  const body = parsePart(route.body, input.body ?? {}, 'body');
  const response = await route.handler({
    params,
    query,
    body,
    actor: actorOf(credential),
    deps,
    ctx,
    idempotencyKey: null,
  });
  return { status: response.status ?? 200, body: response.body, headers: response.headers ?? {} };
}

// Bound to one request's user: `await call('getInvoice', { params: { id } })` returns the body.
export type OperationCaller = <T = Record<string, unknown>>(operationId: string, input?: OperationInput) => Promise<T>;

export function operationCaller(deps: AppDeps, ctx: Context, credential: Credential): OperationCaller {
  return async <T>(operationId: string, input?: OperationInput) =>
    (await callOperation(deps, ctx, credential, operationId, input)).body as T;
}

// Whether the credential may call an operation (to show or hide an action's button).
export function mayCall(credential: Credential, operationId: string): boolean {
  try {
    authorize(credential, operation(operationId).access);
    return true;
  } catch {
    return false;
  }
}
