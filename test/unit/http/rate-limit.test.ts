import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/http/errors.js';
import { RequestRateLimiter } from '../../../src/http/rate-limit.js';

// The in-process store; the PostgreSQL store (the default) is tried over HTTP with two API
// replicas in test/integration/http-hardening.test.ts.
// A refusal answered from memory: 429 rate_limit_exceeded with more than `seconds` to wait.
function expectRefusal(refuse: () => void, seconds: number): void {
  let refusal: unknown;
  try {
    refuse();
  } catch (error) {
    refusal = error;
  }
  expect((refusal as ApiError).code).toBe('rate_limit_exceeded');
  expect(Number((refusal as ApiError).extra.headers?.['Retry-After'])).toBeGreaterThan(seconds);
}

describe('rate limiter (memory store)', () => {
  const limiter = () =>
    new RequestRateLimiter({
      store: 'memory',
      requests: { points: 2, windowSeconds: 60 },
      authFailures: { points: 3, windowSeconds: 300 },
    });

  it('refuses a credential past its budget with 429 and Retry-After', async () => {
    const rl = limiter();
    await rl.consume('key:a');
    await rl.consume('key:a');
    const refusal = await rl.consume('key:a').catch((error: unknown) => error as ApiError);
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).status).toBe(429);
    expect((refusal as ApiError).code).toBe('rate_limit_exceeded');
    expect(Number((refusal as ApiError).extra.headers?.['Retry-After'])).toBeGreaterThan(0);
    await expect(rl.consume('key:b')).resolves.toBeUndefined();
  });

  it('remembers a budget it refused, so the next request is refused before any work', async () => {
    const rl = limiter();
    await rl.consume('key:c');
    await rl.consume('key:c');
    expect(() => rl.refuseKnownExhaustedBudget('key:c')).not.toThrow();
    await expect(rl.consume('key:c')).rejects.toBeInstanceOf(ApiError);
    expectRefusal(() => rl.refuseKnownExhaustedBudget('key:c'), 50);
    expect(() => rl.refuseKnownExhaustedBudget('key:d')).not.toThrow();
  });

  it('counts failed authentications per address and refuses the one past the budget, and only that address', async () => {
    const rl = limiter();
    for (let i = 0; i < 3; i += 1) await rl.spendAuthFailure('10.0.0.1');
    const refusal = await rl.spendAuthFailure('10.0.0.1').catch((error: unknown) => error as ApiError);
    expect((refusal as ApiError).code).toBe('rate_limit_exceeded');
    expect(Number((refusal as ApiError).extra.headers?.['Retry-After'])).toBeGreaterThan(250);
    await expect(rl.spendAuthFailure('10.0.0.2')).resolves.toBeUndefined();
  });

  it('takes sign-in attempts per pair before the check, at most the budget even in parallel, and forgives them', async () => {
    const rl = limiter();
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => rl.takeSignInAttempt('pair:a')));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    // Another pair (the same account from elsewhere) is untouched.
    await expect(rl.takeSignInAttempt('pair:b')).resolves.toBeUndefined();
    await rl.takeSignInAttempt('pair:c');
    await rl.takeSignInAttempt('pair:c');
    await rl.forgiveSignIns('pair:c');
    for (let i = 0; i < 3; i += 1) await rl.takeSignInAttempt('pair:c');
    await expect(rl.takeSignInAttempt('pair:c')).rejects.toBeInstanceOf(ApiError);
  });

  it('needs the pool for the PostgreSQL store', () => {
    expect(
      () =>
        new RequestRateLimiter({
          store: 'postgres',
          requests: { points: 1, windowSeconds: 1 },
          authFailures: { points: 1, windowSeconds: 1 },
        }),
    ).toThrow(/pool/);
  });
});
