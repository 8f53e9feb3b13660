import type { Context, Next } from 'koa';
import { ZodError } from 'zod';
import type { Logger } from '../logger.js';
import { outageSourceOf } from './outages.js';

// One error type for every failure a client may see; the middleware below renders it as the
// spec's body {error: {code, message, request_id, description?, details?}}.
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: {
      description?: string;
      details?: unknown;
      headers?: Record<string, string>;
      body?: Record<string, unknown>;
    } = {},
  ) {
    super(message);
  }
}

export interface FieldIssue {
  field: string;
  message: string;
}

export const errors = {
  validation: (message: string, details?: FieldIssue[] | Record<string, unknown>) =>
    new ApiError(400, 'validation_error', message, { details }),
  invalidToken: (message = 'The bearer token is missing or not valid.') => new ApiError(401, 'invalid_token', message),
  tokenDisabled: () => new ApiError(403, 'token_disabled', 'This token has been disabled.'),
  insufficientLevel: (required: string) =>
    new ApiError(403, 'insufficient_level', `This operation needs the ${required} level.`),
  insufficientScope: (required: string) =>
    new ApiError(403, 'insufficient_scope', `This operation needs a token with the ${required} scope.`),
  organizationNotAccessible: () =>
    new ApiError(403, 'organization_not_accessible', 'The key cannot use the organization named in X-Organization-Id.'),
  notFound: (what = 'resource', details?: FieldIssue[]) =>
    new ApiError(404, 'not_found', `The ${what} does not exist.`, { details }),
  conflict: (code: string, message: string, body?: Record<string, unknown>) =>
    new ApiError(409, code, message, { body }),
  preconditionFailed: () =>
    new ApiError(412, 'precondition_failed', 'If-Match does not match the current version; read it again and reapply.'),
  serviceUnavailable: (message: string) =>
    new ApiError(503, 'service_unavailable', message, {
      headers: { 'Retry-After': String(OUTAGE_RETRY_AFTER_SECONDS) },
    }),
};

// How long a client should wait after an outage of the database, storage or Temporal.
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

export function zodIssuesToDetails(error: ZodError, prefix?: string): FieldIssue[] {
  return error.issues.map((issue) => ({
    field: [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || (prefix ?? 'body'),
    message: issue.message,
  }));
}

// Koa and its middleware throw plain errors carrying `status` (body parsing, 405, 413);
// formidable (multipart bodies) carries `httpCode`.
function fromHttpError(err: {
  status?: number;
  statusCode?: number;
  httpCode?: number;
  expose?: boolean;
  message?: string;
  type?: string;
}): ApiError | null {
  const status = err.status ?? err.statusCode ?? err.httpCode;
  if (!status || status >= 500) return null;
  if (status === 413) {
    return new ApiError(413, 'payload_too_large', 'The request body is larger than the 2 MiB limit.');
  }
  if (status === 405) return new ApiError(405, 'method_not_allowed', 'This method is not allowed on this path.');
  if (status === 415) return new ApiError(415, 'unsupported_media_type', 'Send the body as application/json.');
  if (status === 400) {
    return new ApiError(400, 'validation_error', 'The request body could not be read.', {
      description: err.expose && err.message ? err.message : undefined,
    });
  }
  return new ApiError(
    status,
    'request_error',
    err.expose && err.message ? err.message : 'The request could not be processed.',
  );
}

export function renderError(ctx: Context, error: ApiError): void {
  ctx.status = error.status;
  for (const [name, value] of Object.entries(error.extra.headers ?? {})) ctx.set(name, value);
  ctx.body = {
    ...(error.extra.body ?? {}),
    error: {
      code: error.code,
      message: error.message,
      request_id: ctx.state.requestId as string,
      ...(error.extra.description ? { description: error.extra.description } : {}),
      ...(error.extra.details !== undefined ? { details: error.extra.details } : {}),
    },
  };
}

// PostgreSQL's SQLSTATE of a failed statement, however it arrives (Prisma with the pg driver
// adapter, or pg itself).
function sqlStateOf(error: unknown): string | null {
  const candidate = error as {
    code?: unknown;
    meta?: { code?: unknown; driverAdapterError?: { cause?: { originalCode?: unknown } } };
  } | null;
  const codes = [candidate?.meta?.driverAdapterError?.cause?.originalCode, candidate?.meta?.code, candidate?.code];
  const state = codes.find((code) => typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code));
  return (state as string | undefined) ?? null;
}

// Data exceptions (SQLSTATE class 22: a number too large for its column, a date out of range, a
// NUL character in text) come from values a request sent that passed validation but cannot be
// stored: the client's to fix, a 400, never a 500. The statement's transaction is rolled back.
function fromDatabaseError(error: unknown): ApiError | null {
  const state = sqlStateOf(error);
  const prismaCode = (error as { code?: unknown } | null)?.code;
  if (prismaCode === 'P2020' || state === '22003') {
    return errors.validation(
      'A number in the request is larger than the service can store (at most 16 digits before the decimal point).',
    );
  }
  if (prismaCode === 'P2000' || state === '22001')
    return errors.validation('A value in the request is longer than the service can store.');
  if (state === '22021' || state === '22P05')
    return errors.validation('The request contains a character that cannot be stored (such as a NUL character).');
  if (state?.startsWith('22'))
    return errors.validation('A value in the request cannot be stored (for example a date out of range).');
  return null;
}

export async function errorMiddleware(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
    if (ctx.status === 404 && ctx.body === undefined) throw errors.notFound('path');
  } catch (caught) {
    const logger = ctx.state.logger as Logger | undefined;
    const outage = caught instanceof ApiError ? null : outageSourceOf(caught);
    if (outage) {
      // Temporary: the client retries after Retry-After. The cause stays in the log, not in the body.
      logger?.warn({ err: caught, outage }, 'infrastructure unavailable');
      return renderError(
        ctx,
        errors.serviceUnavailable(
          'The service is temporarily unavailable; retry after the number of seconds in Retry-After.',
        ),
      );
    }
    const error = caught instanceof ApiError ? caught : (fromHttpError(caught as object) ?? fromDatabaseError(caught));
    if (error) {
      if (!(caught instanceof ApiError)) logger?.info({ err: caught }, 'request refused by a library or the database');
      return renderError(ctx, error);
    }
    logger?.error({ err: caught }, 'unexpected failure');
    renderError(
      ctx,
      new ApiError(
        500,
        'internal_error',
        'Something went wrong on our side. Quote the request_id when contacting support.',
      ),
    );
  }
}
