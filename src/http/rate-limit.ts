import type { Pool } from 'pg';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { ApiError } from './errors.js';

// Three budgets, all answered 429 rate_limit_exceeded with Retry-After:
// - requests per credential (each API key or ingestion token has its own);
// - failed authentications per client address, so guessing tokens from one address stops soon.
//   Only requests whose token is not valid are refused by it: a valid credential always passes,
//   whatever others sent from the same address (src/http/admission.ts);
// - sign-in attempts per account and client address together (the web application's form), taken
//   before the password is checked and given back when it is right: guessing one account's
//   password from one place stops, and nobody can lock an account out by failing from elsewhere.
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

function limiter(
  settings: RateLimitSettings,
  keyPrefix: string,
  budget: { points: number; windowSeconds: number },
): RateLimiterAbstract {
  if (settings.store === 'memory')
    return new RateLimiterMemory({ keyPrefix, points: budget.points, duration: budget.windowSeconds });
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
const SIGN_INS_EXCEEDED = 'Too many failed sign-ins';

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

  has(key: string): boolean {
    const until = this.until.get(key);
    return until !== undefined && until > Date.now();
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
  private readonly blockedSignIns = new RememberedRefusals();
  private readonly requests: RateLimiterAbstract;
  private readonly authFailures: RateLimiterAbstract;
  private readonly signIns: RateLimiterAbstract;

  constructor(settings: RateLimitSettings) {
    this.requests = limiter(settings, 'requests', settings.requests);
    this.authFailures = limiter(settings, 'auth_failures', settings.authFailures);
    // Same number and window as the address's failures (RATE_LIMIT_AUTH_FAILURES), but per pair.
    this.signIns = limiter(settings, 'sign_in', settings.authFailures);
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

  // Without a round trip: whether this process has refused the address's bad tokens lately.
  isKnownBlockedAddress(address: string): boolean {
    return this.blockedAddresses.has(address);
  }

  // After a token was found not valid (unknown or disabled): the failure counts against the
  // address, and past its budget the answer is 429 instead of 401. Counted in one atomic step, so
  // parallel failures cannot all read the same count. An address this process has already seen
  // refused is refused from memory. Never called for a valid credential.
  async spendAuthFailure(address: string): Promise<void> {
    this.blockedAddresses.refuse(address, FAILURES_EXCEEDED);
    try {
      await this.authFailures.consume(address);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      this.blockedAddresses.remember(address, rejection);
      throw exceeded(rejection, FAILURES_EXCEEDED);
    }
  }

  // Before a password is checked: one attempt of the pair (account, address) is taken, in one
  // atomic step; past the budget the password is not checked at all. A burst of parallel sign-ins
  // therefore gets at most the budget's number of checks.
  async takeSignInAttempt(accountAtAddress: string): Promise<void> {
    this.blockedSignIns.refuse(accountAtAddress, SIGN_INS_EXCEEDED);
    try {
      await this.signIns.consume(accountAtAddress);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      this.blockedSignIns.remember(accountAtAddress, rejection);
      throw exceeded(rejection, SIGN_INS_EXCEEDED);
    }
  }

  // After a right password: the pair's attempts start over (a few typos do not add up).
  async forgiveSignIns(accountAtAddress: string): Promise<void> {
    await this.signIns.delete(accountAtAddress);
  }
}
