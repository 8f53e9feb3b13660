// Tells an outage of the infrastructure (PostgreSQL, object storage, Temporal) from a bug, so a
// client is told to come back later (503 service_unavailable with Retry-After) instead of being
// told the request failed for good (500). Only plain properties are read (codes, kinds, names),
// never a regular expression over library text.

// 'network': a socket error whose owner is not known here (storage and the database both use sockets).
export type OutageSource = 'database' | 'storage' | 'temporal' | 'network';

// Prisma: P1001 can't reach, P1002 timed out reaching, P1008 operation timed out, P1017 server
// closed the connection, P2024 timed out waiting for a pooled connection, P2037 too many connections.
// A busy database is an outage too: P2028 a transaction that could not start or finish in its time
// (src/db/transactions.ts), P2034 a deadlock or serialization conflict still lost after the retries.
const PRISMA_OUTAGE_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028', 'P2034', 'P2037']);
// The pg driver adapter's classification of connection failures and conflicts.
const ADAPTER_OUTAGE_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
  'TransactionWriteConflict',
]);
// PostgreSQL: connection exceptions (class 08) except a protocol violation (08P01: what the server
// says to too many bind parameters, a bug of the statement and not an outage), shutting down or starting (57P01-57P03),
// too many connections (53300), out of resources (53000, 53100, 53200), serialization failure
// (40001), deadlock (40P01), lock not available (55P03), a statement cancelled at the
// statement_timeout (57014: the database too busy to answer in time; src/db/client.ts).
const POSTGRES_OUTAGE_CODES = new Set([
  '57014',
  '57P01',
  '57P02',
  '57P03',
  '53000',
  '53100',
  '53200',
  '53300',
  '40001',
  '40P01',
  '55P03',
]);
const PROTOCOL_VIOLATION = '08P01';
// Node and undici socket errors.
const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ECONNABORTED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);
// S3 error codes that mean "storage is busy or down", not "this request is wrong".
const STORAGE_OUTAGE_CODES = new Set([
  'ServiceUnavailable',
  'SlowDown',
  'InternalError',
  'RequestTimeout',
  'XMinioServerNotInitialized',
  'XMinioStorageFull',
]);
// pg and its pool report these without a code.
const PG_OUTAGE_MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
];
// gRPC UNAVAILABLE, as Temporal's client reports an unreachable server.
const GRPC_UNAVAILABLE = 14;

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  kind?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
  meta?: { driverAdapterError?: unknown };
  constructor?: { name?: string };
}

// A SQLSTATE of the server being down, restarting, out of connections, or of a conflict that a
// retry resolves. Class 08 is the connection's, except a protocol violation, which is the
// statement's own fault (too many bind parameters).
const isPostgresOutageCode = (code: string) =>
  (code.startsWith('08') && code !== PROTOCOL_VIOLATION) || POSTGRES_OUTAGE_CODES.has(code);

function classifyOne(error: ErrorLike): OutageSource | null {
  const className = error.constructor?.name ?? '';
  const code = typeof error.code === 'string' ? error.code : null;
  if (className === 'PrismaClientInitializationError') return 'database';
  if (className.startsWith('PrismaClient') && code && PRISMA_OUTAGE_CODES.has(code)) return 'database';
  if (typeof error.kind === 'string') {
    if (ADAPTER_OUTAGE_KINDS.has(error.kind)) return 'database';
    if (error.kind === 'postgres' && code && isPostgresOutageCode(code)) return 'database';
  }
  // pg's own error, from statements on the pool under Prisma (authentication, rate limits, a list
  // page's extras).
  if (className === 'DatabaseError' && code && isPostgresOutageCode(code)) return 'database';
  if (className === 'S3Error' && code && STORAGE_OUTAGE_CODES.has(code)) return 'storage';
  if (error.name === 'ServiceError' && (error.cause as { code?: unknown } | undefined)?.code === GRPC_UNAVAILABLE)
    return 'temporal';
  if (code && NETWORK_ERROR_CODES.has(code)) return 'network';
  if (typeof error.message === 'string' && PG_OUTAGE_MESSAGES.includes(error.message)) return 'database';
  return null;
}

// Looks through causes, Prisma's driver adapter error and aggregated errors (a few levels, no loops).
export function outageSourceOf(caught: unknown): OutageSource | null {
  const queue: unknown[] = [caught];
  const seen = new Set<unknown>();
  while (queue.length > 0 && seen.size < 16) {
    const current = queue.shift();
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const error = current as ErrorLike;
    const source = classifyOne(error);
    if (source) return source;
    queue.push(error.cause, error.meta?.driverAdapterError);
    if (Array.isArray(error.errors)) queue.push(...(error.errors as unknown[]).slice(0, 4));
  }
  return null;
}
