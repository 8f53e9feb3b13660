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
    // No inMemoryBlockOnConsumed: RequestRateLimiter remembers a used-up budget or address itself
    // (RememberedRefusals), early enough to refuse before the request's handler starts.
  });
}

function exceeded(rejection: RateLimiterRes, what: string): ApiError {
  const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
  return new ApiError(429, 'rate_limit_exceeded', `${what}; retry after ${retryAfter} seconds.`, {
    headers: { 'Retry-After': String(retryAfter) },
  });
}

const REQUESTS_EXCEEDED = 'Too many requests';
const FAILURES_EXCEEDED = 'Too many failed authentications from this address';

// Refusals this process has answered, until their window ends, so that the same key (a budget
// or an address) is refused again before any statement. Bounded: past the cap the memory starts
// over (the store still refuses those keys, one statement each).
class RememberedRefusals {
  private static readonly MAX_KEYS = 10_000;
  private readonly until = new Map<string, number>();

  remember(key: string, state: RateLimiterRes): void {
    if (this.until.size >= RememberedRefusals.MAX_KEYS) this.until.clear();
    this.until.set(key, Date.now() + state.msBeforeNext);
  }

  refuse(key: string, what: string): void {
    const until = this.until.get(key);
    if (until === undefined) return;
    const msLeft = until - Date.now();
    if (msLeft <= 0) {
      this.until.delete(key);
      return;
    }
    throw exceeded(new RateLimiterRes(0, msLeft), what);
  }
}

export class RequestRateLimiter {
  private readonly exhaustedBudgets = new RememberedRefusals();
  private readonly blockedAddresses = new RememberedRefusals();
  private readonly requests: RateLimiterAbstract;
  private readonly authFailures: RateLimiterAbstract;
  private readonly authFailurePoints: number;

  constructor(settings: RateLimitSettings) {
    this.requests = limiter(settings, 'requests', settings.requests);
    this.authFailures = limiter(settings, 'auth_failures', settings.authFailures);
    this.authFailurePoints = settings.authFailures.points;
  }

  // A store failure (the database is down) is thrown as it is: the error middleware answers 503.
  async consume(credentialKey: string): Promise<void> {
    try {
      await this.requests.consume(credentialKey);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      this.exhaustedBudgets.remember(credentialKey, rejection);
      throw exceeded(rejection, REQUESTS_EXCEEDED);
    }
  }

  // Without a round trip: a budget this process has already seen run out is refused before any
  // work for the request starts.
  refuseKnownExhaustedBudget(credentialKey: string): void {
    this.exhaustedBudgets.refuse(credentialKey, REQUESTS_EXCEEDED);
  }

  // Without a round trip: an address this process has already seen run out of failures is
  // refused before anything about its request is looked up.
  refuseKnownBlockedAddress(address: string): void {
    this.blockedAddresses.refuse(address, FAILURES_EXCEEDED);
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
    this.blockedAddresses.remember(address, state);
    return exceeded(state, FAILURES_EXCEEDED);
  }
}
