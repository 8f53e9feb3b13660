import type { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { z, ZodType } from 'zod';
import { actorOf } from '../auth/actor.js';
import type { Credential } from '../auth/credential.js';
import type { AppDeps } from '../deps.js';
import { authorize } from '../http/auth.js';
import {
  assertKnownQueryKeys,
  parsePart,
  queryKeysOf,
  type OperationTypesOf,
  type RouteDefinition,
} from '../http/route.js';
import { allRoutes, type ApiRoute } from '../routes.js';

// The application's pages and actions call the API's own operations, in process: the same route
// definition validates the input (zod), checks the level against the same access rule, and runs
// the same handler and services, so the application has no business logic of its own and shows
// exactly what the API answers (its JSON representation, links included).

// The operations by operationId, with their types as the route table declares them
// (src/http/route.ts, defineRoute): `call('getInvoice', { params: { id } })` is checked against the
// route's schemas and returns its 2xx response schema's type. A route whose operationId is a plain
// string (made by a helper that does not keep it literal) is left out rather than widening every
// key to string: the web cannot call it until its helper takes the id as a `const` type parameter.
type OperationMap = {
  [Route in ApiRoute as string extends Route['operationId'] ? never : Route['operationId']]: OperationTypesOf<Route>;
};
export type OperationId = keyof OperationMap;

// Path and query values as a URL gives them: strings (repeated query keys as string lists). The
// route's zod schemas parse them, as for an HTTP request.
type PathParams<P> = unknown extends P ? { params?: undefined } : { params: { [K in keyof P]: string } };
type QueryValues<Q> = unknown extends Q ? { query?: undefined } : { query?: { [K in keyof Q]?: string | string[] } };
// The body as a client sends it (the body schema's input), so defaults may be left out.
type BodyOf<B> = unknown extends B ? { body?: undefined } : object extends B ? { body?: B } : { body: B };

export type OperationInput<Id extends OperationId> = PathParams<OperationMap[Id]['params']> &
  QueryValues<OperationMap[Id]['query']> &
  BodyOf<OperationMap[Id]['body']>;
// The input may be left out when nothing in it is required.
type InputArgs<Id extends OperationId> =
  object extends OperationInput<Id> ? [input?: OperationInput<Id>] : [input: OperationInput<Id>];

// A file (a claim's PDF, XLSX or CSV export) as the handler answers it: whole or streamed.
export type FileBody = Buffer | string | Readable;
type SuccessStatus = 200 | 201 | 202 | 204;
type BodyOfResponse<Doc> = Doc extends { contentType: string | string[] }
  ? FileBody
  : Doc extends { schema: infer Schema extends ZodType }
    ? z.output<Schema>
    : undefined;
type Responses<Id extends OperationId> = OperationMap[Id]['responses'];
export type OperationResponse<Id extends OperationId> = BodyOfResponse<
  Responses<Id>[Extract<keyof Responses<Id>, SuccessStatus>]
>;
// One record of a list operation's page (`data`).
export type ListItem<Id extends OperationId> = OperationResponse<Id> extends { data: (infer Item)[] } ? Item : never;

// The answer of an operation: its status, body and headers, as the HTTP response would carry them.
export interface OperationResult<Body = unknown> {
  status: number;
  body: Body;
  headers: Record<string, string>;
}

interface UntypedInput {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

const byOperationId = new Map(allRoutes.map((route) => [route.operationId, route]));

function operation(operationId: string): RouteDefinition {
  const route = byOperationId.get(operationId);
  if (!route) throw new Error(`no API operation ${operationId}`);
  return route;
}

// The web request's context as the operation's handler sees it: its request body is the body the
// operation was called with (a few handlers read what was sent before validation, e.g.
// updatePriceItems' entries as sent), never the web form's fields. Everything else is the request's.
function asSent(ctx: Context, sentBody: unknown): Context {
  const request = new Proxy(ctx.request, {
    get: (target, key): unknown => (key === 'body' ? sentBody : Reflect.get(target, key)),
  });
  return new Proxy(ctx, { get: (target, key): unknown => (key === 'request' ? request : Reflect.get(target, key)) });
}

export async function callOperation<Id extends OperationId>(
  deps: AppDeps,
  ctx: Context,
  credential: Credential,
  operationId: Id,
  ...[typedInput]: InputArgs<Id>
): Promise<OperationResult<OperationResponse<Id>>> {
  const route = operation(operationId);
  // The types were checked at the call; the route's schemas check the values.
  const input: UntypedInput = typedInput ?? {};
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
    ctx: asSent(ctx, input.body ?? {}),
    idempotencyKey: null,
  });
  const answer = response.body as OperationResponse<Id>;
  return { status: response.status ?? 200, body: answer, headers: response.headers ?? {} };
}

// Bound to one request's user: `await call('getInvoice', { params: { id } })` returns the body.
export type OperationCaller = <Id extends OperationId>(
  operationId: Id,
  ...input: InputArgs<Id>
) => Promise<OperationResponse<Id>>;

// `teamView`: the person looks at their teams' part (src/web/team-view.ts). Every operation that
// takes `mine` (the lists, totals and exports of invoices, agreements, alerts and claims) is then
// called with `mine=true`, unless the page chose a scope itself (`mine` or `team_ids`): one place
// narrows every page alike, so no page can forget it.
export function operationCaller(
  deps: AppDeps,
  ctx: Context,
  credential: Credential,
  options: { teamView?: boolean } = {},
): OperationCaller {
  return async (operationId, ...[input]) => {
    const scoped = options.teamView ? inTeamView(operationId, input) : input;
    const args = [scoped] as InputArgs<typeof operationId>;
    return (await callOperation(deps, ctx, credential, operationId, ...args)).body;
  };
}

function inTeamView<Input extends UntypedInput | undefined>(operationId: string, input: Input): Input {
  if (!queryKeysOf(operation(operationId)).includes('mine')) return input;
  const query = input?.query ?? {};
  if ('mine' in query || 'team_ids' in query) return input;
  return { ...input, query: { ...query, mine: 'true' } };
}

// Whether the credential may call an operation (to show or hide an action's button).
export function mayCall(credential: Credential, operationId: OperationId): boolean {
  try {
    authorize(credential, operation(operationId).access);
    return true;
  } catch {
    return false;
  }
}
