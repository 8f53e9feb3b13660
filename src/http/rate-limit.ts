import type { Pool } from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ApiError } from './errors.js';

// Two budgets, both answered 429 rate_limit_exceeded with Retry-After:
// - requests per credential (each API key or ingestion token has its own);
// - failed authentications per client address, so guessing tokens from one address stops soon.
// The budgets live in PostgreSQL (table rate_limits) by default, so every API replica draws from
// the same ones; `memory` keeps them in the process (one replica, or tests of the limiter itself).

export type RateLimitStore = 'postgres' | 'memory';

export interface RateLimitSettings {
  store: RateLimitStore;
  // Needed for the postgres store: the pool the API already has.
  pool?: Pool;
  requests: { points: number; windowSeconds: number };
  authFailures: { points: number; windowSeconds: number };
}

// The migration creates this table (prisma/schema.prisma, model RateLimit).
const TABLE = 'rate_limits';

function limiter(settings: RateLimitSettings, keyPrefix: string, budget: { points: number; windowSeconds: number }): RateLimiterAbstract {
  if (settings.store === 'memory') return new RateLimiterMemory({ keyPrefix, points: budget.points, duration: budget.windowSeconds });
  if (!settings.pool) throw new Error('the postgres rate-limit store needs the database pool');
  return new RateLimiterPostgres({
    storeClient: settings.pool,
    storeType: 'pool',
    tableName: TABLE,
    tableCreated: true,
    keyPrefix,
    points: budget.points,
    duration: budget.windowSeconds,
  });
}

function exceeded(rejection: RateLimiterRes, what: string): ApiError {
  const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
  return new ApiError(429, 'rate_limit_exceeded', `${what}; retry after ${retryAfter} seconds.`, {
    headers: { 'Retry-After': String(retryAfter) },
  });
}

// A store failure (the database is down) is thrown as it is: the error middleware answers 503.
async function spend(target: RateLimiterAbstract, key: string, what: string): Promise<void> {
  try {
    await target.consume(key);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) throw exceeded(rejection, what);
    throw rejection;
  }
}

export class RequestRateLimiter {
  private readonly requests: RateLimiterAbstract;
  private readonly authFailures: RateLimiterAbstract;
  private readonly authFailurePoints: number;

  constructor(settings: RateLimitSettings) {
    this.requests = limiter(settings, 'requests', settings.requests);
    this.authFailures = limiter(settings, 'auth_failures', settings.authFailures);
    this.authFailurePoints = settings.authFailures.points;
  }

  async consume(credentialKey: string): Promise<void> {
    await spend(this.requests, credentialKey, 'Too many requests');
  }

  // Before authenticating: an address that has used up its failures is refused without a lookup.
  async assertMayAuthenticate(address: string): Promise<void> {
    const state = await this.authFailures.get(address);
    if (state && state.consumedPoints >= this.authFailurePoints) throw exceeded(state, 'Too many failed authentications from this address');
  }

  // After a failed authentication: the failure counts against the address.
  async recordAuthFailure(address: string): Promise<void> {
    await spend(this.authFailures, address, 'Too many failed authentications from this address');
  }
}
