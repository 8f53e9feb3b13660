import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/client.js';
import { outageSourceOf } from '../../../src/http/outages.js';
import { freePort } from '../../../src/infra/process.js';

const pgError = (code: string) => Object.assign(new pg.DatabaseError('server message', 0, 'error'), { code });

// The HTTP answer to a real outage is proven in test/integration/http-hardening.test.ts; this
// covers the shapes the classifier reads, including a real Prisma error from a closed port.
describe('outage classifier', () => {
  it('recognises a database that cannot be reached, through Prisma and its pg adapter', async () => {
    const db = createDb(`postgresql://postgres@127.0.0.1:${await freePort()}/none`, 1);
    const caught = await db.apiKey.findUnique({ where: { tokenDigest: 'x' } }).catch((error: unknown) => error);
    const raw = await db.$queryRaw`SELECT 1`.catch((error: unknown) => error);
    await db.$disconnect();
    expect(outageSourceOf(caught)).toBe('database');
    expect(outageSourceOf(raw)).toBe('database');
  });

  it('recognises connection loss, pool timeouts, socket errors and storage back-pressure', () => {
    expect(outageSourceOf(new Error('Connection terminated unexpectedly'))).toBe('database');
    expect(outageSourceOf(Object.assign(new Error('x'), { code: 'ECONNREFUSED', syscall: 'connect' }))).toBe('network');
    expect(outageSourceOf(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })], 'x'))).toBe(
      'network',
    );
    class S3Error extends Error {
      code = 'SlowDown';
    }
    expect(outageSourceOf(new S3Error('slow down'))).toBe('storage');
    class PrismaClientKnownRequestError extends Error {
      code = 'P2024';
    }
    expect(outageSourceOf(new PrismaClientKnownRequestError('pool timeout'))).toBe('database');
    expect(outageSourceOf({ meta: { driverAdapterError: { cause: { kind: 'postgres', code: '57P01' } } } })).toBe(
      'database',
    );
    // Straight from the pg pool (authentication, rate limits, list extras), not through Prisma.
    expect(outageSourceOf(pgError('57P01'))).toBe('database');
    expect(outageSourceOf(pgError('53300'))).toBe('database');
  });

  it('leaves bugs and refusals alone', () => {
    expect(outageSourceOf(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBeNull();
    class PrismaClientKnownRequestError extends Error {
      code = 'P2002';
    }
    expect(outageSourceOf(new PrismaClientKnownRequestError('unique'))).toBeNull();
    class S3Error extends Error {
      code = 'AccessDenied';
    }
    expect(outageSourceOf(new S3Error('denied'))).toBeNull();
    expect(outageSourceOf({ kind: 'postgres', code: '23505' })).toBeNull();
    // Too many bind parameters: the statement's fault, not the database's.
    expect(outageSourceOf({ kind: 'postgres', code: '08P01' })).toBeNull();
    expect(outageSourceOf({ kind: 'postgres', code: '08006' })).toBe('database');
    expect(outageSourceOf(pgError('23505'))).toBeNull();
    expect(outageSourceOf(pgError('08P01'))).toBeNull();
    expect(outageSourceOf(null)).toBeNull();
  });
});
