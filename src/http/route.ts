import type { Context } from 'koa';
import { z, type ZodType } from 'zod';
import type { AnyActor, MemberActor, RequestActor, TokenActor, UnscopedActor } from '../auth/actor.js';
import type { IngestionScope, Level } from '../auth/levels.js';
import type { AppDeps } from '../deps.js';
import type { AccessRule } from './auth.js';
import { errors, zodIssuesToDetails } from './errors.js';
import { fieldPathsOf } from './fields.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RouteResponse {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

// The actor a route's handler is handed, by its access rule (authorization has already passed):
// API-key levels only → a member of the organization; an ingestion scope only → the token; both →
// either; GET /v1/organizations → a member, or the key's user before any organization.
// (A rule not known literally, as in the route table's erased type, may be any of them.)
export type ActorFor<R extends AccessRule> = AccessRule extends R
  ? AnyActor
  : R extends { withoutOrganization: true }
    ? MemberActor | UnscopedActor
    : R extends { ingestionScope: IngestionScope }
      ? R extends { level: Level }
        ? RequestActor
        : TokenActor
      : MemberActor;

export interface RouteInput<P, Q, B, A extends AnyActor = AnyActor> {
  params: P;
  query: Q;
  body: B;
  actor: A;
  deps: AppDeps;
  ctx: Context;
  // Set when the request carried an Idempotency-Key; work-starting handlers derive workflow ids from it.
  idempotencyKey: string | null;
}

export interface ResponseDoc {
  description: string;
  schema?: ZodType;
  // application/json by default; several when the request chooses (an export's format).
  contentType?: string | string[];
}

// One declaration per operation: it validates the request, checks access, documents the
// operation in OpenAPI and carries the handler. Nothing about an endpoint lives anywhere else.
export interface RouteDefinition<P = unknown, Q = unknown, B = unknown, R extends AccessRule = AccessRule> {
  method: HttpMethod;
  // OpenAPI style: /v1/workflow-runs/{id}
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  access: R;
  params?: ZodType<P>;
  query?: ZodType<Q>;
  body?: ZodType<B>;
  // A multipart/form-data body (documentation only; the handler reads ctx.request.files).
  multipart?: ZodType;
  // The largest request body this operation reads, when not the API's 2 MiB (support contact:
  // 32 MiB). The body-size guard and the body parser apply it before the body is read.
  maxBodyBytes?: number;
  // Accepts Idempotency-Key: the first response is stored and replayed.
  idempotent?: boolean;
  // Single-resource reads send an ETag of the representation.
  etag?: boolean;
  // The schema of one returned record, for `fields` selection (lists apply it to each item of data).
  // Without it, a JSON read selects over its 200 response's schema (a list's item for lists).
  fieldsOf?: ZodType;
  // The record an Ingestion token reads, when its shape differs (Ingestion invoice: `invoice_id`).
  ingestionFieldsOf?: ZodType;
  responses: Record<number, ResponseDoc>;
  handler: (input: RouteInput<P, Q, B, ActorFor<R>>) => Promise<RouteResponse>;
}

// What an in-process caller (the web application, src/web/operations.ts) may know of an operation
// at compile time: its path parameters and query keys, its body as the client sends it (the body
// schema's input) and its 2xx JSON responses. A phantom member: it exists in types only.
declare const operationTypes: unique symbol;

export interface OperationTypes<P, Q, BodyInput, Responses> {
  params: P;
  query: Q;
  body: BodyInput;
  responses: Responses;
}

// A route as the route table holds it, with its operationId literal and its operation's types.
export type TypedRoute<
  Id extends string,
  Types extends OperationTypes<unknown, unknown, unknown, unknown>,
> = RouteDefinition & { operationId: Id; readonly [operationTypes]?: Types };

export type OperationTypesOf<Route> = Route extends { readonly [operationTypes]?: infer Types } ? Types : never;

export function defineRoute<
  P,
  Q,
  B,
  const R extends AccessRule,
  const Id extends string,
  BodyInput = unknown,
  Responses extends Record<number, ResponseDoc> = Record<number, ResponseDoc>,
>(
  route: RouteDefinition<P, Q, B, R> & { operationId: Id; body?: ZodType<B, BodyInput>; responses: Responses },
): TypedRoute<Id, OperationTypes<P, Q, BodyInput, Responses>> {
  return route as unknown as TypedRoute<Id, OperationTypes<P, Q, BodyInput, Responses>>;
}

export function parsePart<T>(schema: ZodType<T> | undefined, value: unknown, part: 'path' | 'query' | 'body'): T {
  if (!schema) return undefined as T;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw errors.validation(
    `The request ${part === 'body' ? 'body' : `${part} parameters`} did not validate.`,
    zodIssuesToDetails(parsed.error, part === 'body' ? undefined : part),
  );
}

// How `fields` applies to a route's answer: the schema of one record, where the records are (a
// list's array member, or null for a single record), and the identity always returned with them.
export interface FieldSelection {
  schema: ZodType;
  listKey: string | null;
  identity: readonly string[];
}

// A record's own identifier, returned whatever `fields` asks: `id`, a group's `key`, or for
// records without either their document's or invoice's id (a claim's files, Ingestion invoices).
const IDENTITIES = ['id', 'key', 'document_id', 'invoice_id'] as const;

function identityOf(schema: ZodType): readonly string[] {
  const top = fieldPathsOf(schema).filter((path) => !path.includes('.'));
  const identity = IDENTITIES.find((name) => top.includes(name));
  return identity ? [identity] : [];
}

function isJsonResponse(doc: ResponseDoc): boolean {
  return [doc.contentType ?? 'application/json'].flat().every((type) => type === 'application/json');
}

// Every JSON read selects fields (the spec: every read takes `fields`). The record schema is the
// route's `fieldsOf`, or else its 200 response's: a list's `data` item, or the whole object. A
// read whose answer is a file (CSV, XLSX, PDF) has no fields to select.
export function fieldSelectionOf(
  route: Pick<RouteDefinition, 'method' | 'fieldsOf' | 'ingestionFieldsOf' | 'responses'>,
  ingestion = false,
): FieldSelection | null {
  const ok = route.responses[200];
  if (route.method !== 'get' && !route.fieldsOf) return null;
  if (ok && !isJsonResponse(ok)) return null;
  const schema = ok?.schema;
  const listItem = schema instanceof z.ZodObject ? listItemOf(schema) : null;
  // The Ingestion API's list is {invoices, next_cursor}.
  if (ingestion && route.ingestionFieldsOf)
    return {
      schema: route.ingestionFieldsOf,
      listKey: listItem ? 'invoices' : null,
      identity: identityOf(route.ingestionFieldsOf),
    };
  const record = route.fieldsOf ?? listItem ?? (schema instanceof z.ZodObject ? schema : null);
  if (!record) return null;
  return { schema: record, listKey: listItem ? 'data' : null, identity: identityOf(record) };
}

function listItemOf(schema: z.ZodObject): ZodType | null {
  const data: unknown = schema.shape.data;
  return data instanceof z.ZodArray ? (data.element as ZodType) : null;
}

// The query parameters a route understands: its query schema's keys, plus `fields` where the route
// selects fields. Anything else is refused rather than dropped: a client that sends a filter the
// route does not know (a typo, or one that does not exist yet) would otherwise get every record.
export function queryKeysOf(
  route: Pick<RouteDefinition, 'method' | 'query' | 'fieldsOf' | 'ingestionFieldsOf' | 'responses'>,
): string[] {
  const keys = route.query instanceof z.ZodObject ? Object.keys(route.query.shape) : [];
  if (fieldSelectionOf(route) && !keys.includes('fields')) keys.push('fields');
  return keys.sort();
}

export function assertKnownQueryKeys(allowed: readonly string[], query: Record<string, unknown>): void {
  const unknown = Object.keys(query).filter((key) => !allowed.includes(key));
  if (unknown.length === 0) return;
  const valid =
    allowed.length > 0 ? `Valid parameters: ${allowed.join(', ')}.` : 'This operation takes no query parameters.';
  // Same shape as an unknown `fields` name: the issues, and the valid names beside them.
  throw errors.validation(`Unknown query parameter${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}. ${valid}`, {
    fields: unknown.map((key) => ({ field: `query.${key}`, message: 'unknown parameter' })),
    valid_parameters: allowed,
  });
}

// Path ids are UUIDs throughout the API; anything else is a validation_error naming the parameter.
export const idParams = z.object({ id: z.string().uuid() });
