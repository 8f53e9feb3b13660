import { Writable } from 'node:stream';
import { ActivityFailure, ApplicationFailure, RetryState, TimeoutFailure, TimeoutType } from '@temporalio/common';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { withFailureClassification } from '../../../activities/failures.js';
import { Prisma } from '../../../src/db/client.js';
import { INTERNAL_ERROR, isRetryableError, publicFailure, SERVICE_UNAVAILABLE } from '../../../src/shared/failures.js';

// Errors as the libraries throw them (built with their own classes or in their exact shape).

const PRISMA_MESSAGE = [
  '',
  'Invalid `db.invoiceLine.findMany()` invocation in',
  '/work/main/src/checks/input.ts:132:36',
  '',
  '  129 const lines = await db.invoiceLine.findMany({',
  '→ 132   where: { organizationId: invoice.organizationId,',
  'Raw query failed. Code: `08P01`. Message: `bind message has 140002 parameter formats but 0 parameters`',
].join('\n');

function prismaError(code: string, meta: Record<string, unknown> = {}) {
  return new Prisma.PrismaClientKnownRequestError(PRISMA_MESSAGE, { code, clientVersion: '7.10.0', meta });
}

function systemError(code: string, message = `connect ${code} 127.0.0.1:5432`) {
  return Object.assign(new Error(message), { code, errno: -111, syscall: 'connect' });
}

const S3_ERROR = (code: string) =>
  Object.assign(new Error(`S3 says ${code} for invoices/org/abc/key.xml`), { name: 'S3Error', code });

function expectNoInternals(failure: { message: string }) {
  expect(failure.message).not.toMatch(/\/work\/|\.ts:|invocation|Raw query|S3|invoices\/org|SELECT/);
}

describe('isRetryableError: only infrastructure errors are worth another attempt', () => {
  it.each([
    ['connection refused', systemError('ECONNREFUSED')],
    ['connection reset', systemError('ECONNRESET', 'read ECONNRESET')],
    ['socket timeout', systemError('ETIMEDOUT')],
    ['fetch failing on a reset socket', new TypeError('fetch failed', { cause: systemError('ECONNRESET') })],
    ['database not reachable (Prisma P1001)', prismaError('P1001')],
    ['connection closed (Prisma P1017)', prismaError('P1017')],
    ['pool timeout (Prisma P2024)', prismaError('P2024')],
    ['write conflict or deadlock (Prisma P2034)', prismaError('P2034')],
    [
      'serialization failure in a raw query',
      prismaError('P2010', { driverAdapterError: { cause: { kind: 'postgres', originalCode: '40001' } } }),
    ],
    [
      'deadlock in a raw query',
      prismaError('P2010', { driverAdapterError: { cause: { kind: 'postgres', originalCode: '40P01' } } }),
    ],
    [
      'the server shutting down',
      prismaError('P2039', { driverAdapterError: { cause: { kind: 'postgres', originalCode: '57P01' } } }),
    ],
    ['the pg driver losing its connection', new Error('Connection terminated unexpectedly')],
    ['S3 slow down', S3_ERROR('SlowDown')],
    ['S3 service unavailable', S3_ERROR('ServiceUnavailable')],
    [
      'an explicitly retryable failure of ours',
      ApplicationFailure.retryable('stored concurrently', 'concurrent_duplicate'),
    ],
  ])('%s: retryable', (_, error) => {
    expect(isRetryableError(error)).toBe(true);
  });

  it.each([
    [
      'too many bind parameters',
      prismaError('P2010', { driverAdapterError: { cause: { kind: 'postgres', originalCode: '08P01' } } }),
    ],
    ['a unique constraint', prismaError('P2002')],
    ['a foreign key', prismaError('P2003')],
    ['a record not found', prismaError('P2025')],
    ['a value out of range', prismaError('P2020')],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a validation error', new Error('amount must be a decimal')],
    ['an S3 key that does not exist', S3_ERROR('NoSuchKey')],
    [
      'a non-retryable failure of ours',
      ApplicationFailure.nonRetryable('The invoice file is not in storage.', 'document_missing'),
    ],
    ['a string', 'boom'],
  ])('%s: not retryable', (_, error) => {
    expect(isRetryableError(error)).toBe(false);
  });
});

describe('publicFailure: a stable code and a message for the customer, never internals', () => {
  it('keeps our own failures as they are, directly or as the cause of an activity failure', () => {
    const own = ApplicationFailure.nonRetryable('The invoice file is not in storage.', 'document_missing');
    expect(publicFailure(own)).toEqual({ code: 'document_missing', message: 'The invoice file is not in storage.' });
    const wrapped = new ActivityFailure(
      'Activity task failed',
      'runInvoiceImport',
      '1',
      RetryState.NON_RETRYABLE_FAILURE,
      'worker',
      own,
    );
    expect(publicFailure(wrapped)).toEqual({
      code: 'document_missing',
      message: 'The invoice file is not in storage.',
    });
    expect(
      publicFailure({ code: 'malformed_xml', message: 'The XML is not well-formed: unclosed tag (line 3, column 5).' }),
    ).toEqual({
      code: 'malformed_xml',
      message: 'The XML is not well-formed: unclosed tag (line 3, column 5).',
    });
  });

  it('turns a Prisma error, as it is or as Temporal passes it on, into internal_error without the path or source excerpt', () => {
    const error = prismaError('P2010');
    expect(publicFailure(error)).toEqual(INTERNAL_ERROR);
    // What the Temporal SDK makes of an error that escapes an activity unclassified.
    const converted = ApplicationFailure.create({ type: 'PrismaClientKnownRequestError', message: PRISMA_MESSAGE });
    expect(publicFailure(converted)).toEqual(INTERNAL_ERROR);
    expectNoInternals(publicFailure(converted));
  });

  it('says service_unavailable for an infrastructure error that outlived its retries', () => {
    expect(publicFailure(systemError('ECONNREFUSED'))).toEqual(SERVICE_UNAVAILABLE);
    expect(publicFailure(S3_ERROR('ServiceUnavailable'))).toEqual(SERVICE_UNAVAILABLE);
  });

  it('hides an internal message even under a known code, and a reader internal_error quoting its exception', () => {
    expect(publicFailure({ code: 'item_failed', message: `matching failed: ${PRISMA_MESSAGE}` })).toEqual(
      INTERNAL_ERROR,
    );
    expect(
      publicFailure({
        code: 'internal_error',
        message: 'The document could not be parsed because of an internal error: x is undefined',
      }),
    ).toEqual(INTERNAL_ERROR);
    expect(
      publicFailure({ code: 'run_failed', message: 'select failed: SELECT id FROM invoices WHERE id = $1' }),
    ).toEqual(INTERNAL_ERROR);
  });

  it('uses the caller’s message for an unknown error where the context says more', () => {
    const checkFailed = { code: 'check_failed', message: 'The check could not be completed.' };
    expect(publicFailure(new TypeError('x is undefined'), checkFailed)).toEqual(checkFailed);
  });

  it('names timeouts and cancellations', () => {
    expect(publicFailure(new TimeoutFailure('timed out', undefined, TimeoutType.START_TO_CLOSE)).code).toBe(
      'timed_out',
    );
    expect(publicFailure({ code: 'cancelled', message: 'The import was cancelled.' })).toEqual({
      code: 'cancelled',
      message: 'The import was cancelled.',
    });
  });

  it('keeps ordinary words that happen to be SQL keywords in lower case', () => {
    const failure = {
      code: 'not_invoice',
      message: 'The file is an order update, not an invoice; select the invoice itself and upload it at most once.',
    };
    expect(publicFailure(failure)).toEqual(failure);
  });
});

describe('withFailureClassification: the wrapper every activity runs in', () => {
  function capturingLogger() {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    return { logger: pino({ level: 'info' }, stream), lines };
  }

  it('hands Temporal a non-retryable public failure for a deterministic error, and logs the detail', async () => {
    const { logger, lines } = capturingLogger();
    const activities = withFailureClassification(
      {
        async loadLines() {
          throw prismaError('P2010', { driverAdapterError: { cause: { kind: 'postgres', originalCode: '08P01' } } });
        },
      },
      logger,
    );
    const thrown = await activities.loadLines().catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(ApplicationFailure);
    expect(thrown).toMatchObject({ type: 'internal_error', nonRetryable: true, message: INTERNAL_ERROR.message });
    expectNoInternals(thrown as ApplicationFailure);
    expect(lines.join('')).toContain('input.ts:132');
  });

  it('lets Temporal retry an infrastructure error', async () => {
    const { logger } = capturingLogger();
    const activities = withFailureClassification(
      {
        async read() {
          throw systemError('ECONNRESET');
        },
      },
      logger,
    );
    expect(await activities.read().catch((error: unknown) => error)).toMatchObject({
      type: 'service_unavailable',
      nonRetryable: false,
    });
  });

  it('passes our own failures and results through unchanged', async () => {
    const { logger } = capturingLogger();
    const own = ApplicationFailure.nonRetryable('The invoice file is not in storage.', 'document_missing');
    const activities = withFailureClassification(
      {
        async fail() {
          throw own;
        },
        async succeed(value: number) {
          return value + 1;
        },
      },
      logger,
    );
    expect(await activities.fail().catch((error: unknown) => error)).toBe(own);
    expect(await activities.succeed(1)).toBe(2);
  });
});
