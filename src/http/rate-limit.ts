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
    // A budget used up is also remembered in this process until its window ends, so a flood from
    // a credential out of requests is refused without a statement each.
    inMemoryBlockOnConsumed: budget.points,
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

const FAILURES_EXCEEDED = 'Too many failed authentications from this address';
const MAX_REMEMBERED_ADDRESSES = 10_000;

export class RequestRateLimiter {
  // Addresses out of failed authentications, until their window ends (ms since the epoch).
  private readonly blockedAddresses = new Map<string, number>();
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

  // Without a round trip: an address this process has already seen run out of failures is
  // refused before anything about its request is looked up.
  refuseKnownBlockedAddress(address: string): void {
    const until = this.blockedAddresses.get(address);
    if (until === undefined) return;
    if (until <= Date.now()) {
      this.blockedAddresses.delete(address);
      return;
    }
    throw exceeded(new RateLimiterRes(0, until - Date.now()), FAILURES_EXCEEDED);
  }

  // Before or beside authenticating: an address that has used up its failures is refused.
  async assertMayAuthenticate(address: string): Promise<void> {
    const state = await this.authFailures.get(address);
    if (state && state.consumedPoints >= this.authFailurePoints) throw this.blocked(address, state);
  }

  // After a failed authentication: the failure counts against the address.
  async recordAuthFailure(address: string): Promise<void> {
    try {
      await this.authFailures.consume(address);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) throw this.blocked(address, rejection);
      throw rejection;
    }
  }

  private blocked(address: string, state: RateLimiterRes): ApiError {
    // Bounded: a burst of blocked addresses beyond the cap starts the memory over (the store
    // still refuses them, one statement each).
    if (this.blockedAddresses.size >= MAX_REMEMBERED_ADDRESSES) this.blockedAddresses.clear();
    this.blockedAddresses.set(address, Date.now() + state.msBeforeNext);
    return exceeded(state, FAILURES_EXCEEDED);
  }
}
