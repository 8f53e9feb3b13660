import {
  ApplicationFailure,
  CancelledFailure,
  TemporalFailure,
  TerminatedFailure,
  TimeoutFailure,
} from '@temporalio/common';

// What background work tells the customer when it fails, and whether a failure is worth another
// attempt. One place for both: every activity goes through classifyActivityFailure
// (activities/failures.ts), and every failure stored on a record (an invoice's processing or
// alert check, an import, a run or run item, a check) goes through publicFailure first.
// Workflow-safe: no I/O and nothing but @temporalio/common (workflows/ use it too).
// Codes and messages: docs/failures.md.

export interface PublicFailure {
  code: string;
  message: string;
}

export const INTERNAL_ERROR: PublicFailure = {
  code: 'internal_error',
  message:
    'The work could not be completed because of an internal error. It was logged under the run id; retry the run, and contact support with the run id if it fails again.',
};

export const SERVICE_UNAVAILABLE: PublicFailure = {
  code: 'service_unavailable',
  message:
    'A service this work needs (database or file storage) was unavailable, and stayed so through several attempts. Retry the run later.',
};

const CANCELLED: PublicFailure = { code: 'cancelled', message: 'The work was cancelled.' };
const TIMED_OUT: PublicFailure = {
  code: 'timed_out',
  message:
    'The work took too long and was stopped. Retry the run; contact support with the run id if it happens again.',
};
const TERMINATED: PublicFailure = { code: 'workflow_terminated', message: 'The work was stopped by an operator.' };

// Our own failures carry snake_case codes and messages written for the customer. A failure type
// in any other shape is the class name of an error that escaped (PrismaClientKnownRequestError,
// S3Error, TypeError): its message is not for the customer. The few PascalCase types our own
// workflows throw are listed.
const OWN_PASCAL_CASE_TYPES = new Map([
  ['AllItemsFailed', 'all_items_failed'],
  ['RunFailed', 'run_failed'],
  ['TestItemFailed', 'test_item_failed'],
]);
const isOwnCode = (code: string) => code.length <= 64 && /^[a-z][a-z0-9_]*$/.test(code);

// A last guard on messages: text that smells of code, SQL or storage is never shown, whatever
// code it came with (e.g. an old message stored before this existed).
const INTERNAL_MARKERS = [
  'node_modules',
  '/src/',
  '/activities/',
  '/workflows/',
  '.ts:',
  '.js:',
  '.mjs:',
  'prisma',
  'invocation',
  'minio',
  's3error',
  'econn',
  'storage_key',
  'storagekey',
];
// SQL keywords only as written in SQL (upper case): "update" is an ordinary word.
const SQL_MARKERS = ['SELECT ', 'INSERT INTO', 'UPDATE ', 'DELETE FROM', ' WHERE '];
function looksInternal(message: string): boolean {
  const lower = message.toLowerCase();
  return (
    message.length > 2000 ||
    INTERNAL_MARKERS.some((marker) => lower.includes(marker)) ||
    SQL_MARKERS.some((marker) => message.includes(marker))
  );
}

function ownFailure(code: string, message: string): PublicFailure | null {
  const own = OWN_PASCAL_CASE_TYPES.get(code) ?? (isOwnCode(code) ? code : null);
  if (own === null) return null;
  // A reader's internal_error may quote the exception it caught.
  if (own === 'internal_error' || looksInternal(message)) return INTERNAL_ERROR;
  return { code: own, message };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * Any error (or a failure object already made) as the customer may see it: our own codes keep
 * their message; anything else becomes internal_error, or service_unavailable when it was an
 * infrastructure error that outlived its retries. `fallback` replaces internal_error's message
 * where the context can say more (e.g. "The check could not be completed").
 */
export function publicFailure(error: unknown, fallback: PublicFailure = INTERNAL_ERROR): PublicFailure {
  const unknownFailure = () => (isRetryableError(error) ? SERVICE_UNAVAILABLE : fallback);
  if (error instanceof CancelledFailure) return CANCELLED;
  if (error instanceof TimeoutFailure) return TIMED_OUT;
  if (error instanceof TerminatedFailure) return TERMINATED;
  if (error instanceof ApplicationFailure) {
    const own = error.type ? ownFailure(error.type, error.message) : null;
    // A type that is not ours is an escaped error's class name: whatever it was, it is internal.
    return own === null || own === INTERNAL_ERROR ? fallback : own;
  }
  // An activity's or child workflow's failure: what counts is its cause.
  if (error instanceof TemporalFailure) return error.cause ? publicFailure(error.cause, fallback) : fallback;
  if (
    !(error instanceof Error) &&
    isRecord(error) &&
    typeof error.code === 'string' &&
    typeof error.message === 'string'
  ) {
    const own = ownFailure(error.code, error.message);
    return own === INTERNAL_ERROR || own === null ? fallback : own;
  }
  return unknownFailure();
}

// ---- retryable or not ----

// Node and undici network errors.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);
// Prisma: database not reachable, timeouts, connection closed, pool exhausted, transaction timed
// out, write conflict or deadlock, too many connections.
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028', 'P2034', 'P2037']);
// The driver adapter's own kinds for the same.
const ADAPTER_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TransactionWriteConflict',
  'TooManyConnections',
]);
// SQLSTATE: serialization failure, deadlock, lock not available, query cancelled (statement
// timeout), server shutting down or starting, resources exhausted, I/O errors.
const RETRYABLE_SQLSTATES = new Set(['40001', '40P01', '55P03', '57014', '57P01', '57P02', '57P03', '58000', '58030']);
const RETRYABLE_SQLSTATE_CLASSES = ['08', '53'];
// 08P01 (protocol violation) is in the connection class but deterministic: it is what too many
// bind parameters in one statement end in.
const DETERMINISTIC_SQLSTATES = new Set(['08P01']);
// S3 / MinIO answers that mean "try again".
const S3_CODES = new Set([
  'InternalError',
  'ServiceUnavailable',
  'SlowDown',
  'RequestTimeout',
  'XMinioServerNotInitialized',
  'XMinioStorageFull',
]);
// The pg driver's own messages when the server goes away.
const PG_MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
];

function isRetryableSqlState(code: unknown): boolean {
  if (typeof code !== 'string' || code.length !== 5 || DETERMINISTIC_SQLSTATES.has(code)) return false;
  return RETRYABLE_SQLSTATES.has(code) || RETRYABLE_SQLSTATE_CLASSES.includes(code.slice(0, 2));
}

function isInfrastructureError(error: Record<string, unknown>): boolean {
  const { code, name, message } = error;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || S3_CODES.has(code) || isRetryableSqlState(code)))
    return true;
  if (typeof code === 'string' && typeof name === 'string' && name.startsWith('PrismaClient') && PRISMA_CODES.has(code))
    return true;
  if (name === 'PrismaClientInitializationError' || name === 'AbortError' || name === 'TimeoutError') return true;
  if (typeof message === 'string' && PG_MESSAGES.some((text) => message.includes(text))) return true;
  // The driver adapter's error, as Prisma passes it on (meta.driverAdapterError.cause).
  const adapter =
    isRecord(error.meta) && isRecord(error.meta.driverAdapterError) ? error.meta.driverAdapterError.cause : undefined;
  const kind = isRecord(adapter) ? adapter.kind : isRecord(error.cause) ? error.cause.kind : undefined;
  if (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) return true;
  if (isRecord(adapter) && (isRetryableSqlState(adapter.originalCode) || isRetryableSqlState(adapter.code)))
    return true;
  return false;
}

/**
 * Whether another attempt could succeed: only infrastructure errors (connection refused or
 * reset, timeouts, S3 network errors, serialization failures and deadlocks). Validation,
 * constraint, parameter-limit, parse errors and bugs fail the same way every time. An
 * ApplicationFailure says for itself.
 */
export function isRetryableError(error: unknown): boolean {
  if (error instanceof ApplicationFailure) return !error.nonRetryable;
  let current: unknown = error;
  // fetch wraps the network error as its cause; Prisma, the adapter's.
  for (let depth = 0; depth < 5 && isRecord(current); depth++) {
    if (isInfrastructureError(current)) return true;
    current = current.cause;
  }
  return false;
}
