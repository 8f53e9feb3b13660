import type { Context } from 'koa';
import type { Credential } from '../auth/credential.js';
import type { AppDeps } from '../deps.js';
import { authenticate, authorize, readBearer } from './auth.js';
import { ApiError } from './errors.js';
import type { RouteDefinition } from './route.js';

// Whether a request may be answered: who it is (its credential, allowed on the route), and its
// request budget (each API key, ingestion token and session has its own, named by its token's
// digest, so that it is spent while the token is looked up).
//
// The two go to the database side by side. The handler needs the credential only; the budget need
// only be passed before an answer is written. So a read (GET, no side effects) runs beside it, one
// round trip less on its path, and a write waits for both. Either way the budget's refusal
// replaces whatever the handler answered. A budget this process has seen refused is refused before
// anything starts, so a client past its budget costs no handler work.
//
// The client address's budget of failed authentications is looked at only when the token is not
// valid: such a request is 401, or 429 once the address has failed too often. A valid credential
// is never refused for what others sent from the same address (behind a proxy without
// TRUST_PROXY, every client has one address).

export interface Admission {
  credential: Credential;
  // Resolves once the address and the budget are passed; throws their 429 otherwise.
  passed(): Promise<void>;
}

export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

// A promise that never rejects, so a check can run unawaited without an unhandled rejection.
export function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

export function unwrap<T>(settled: Settled<T>): T {
  if (!settled.ok) throw settled.error;
  return settled.value;
}

// Failures that count against the client address (a token that is wrong, not a malformed header).
const AUTH_FAILURE_CODES = new Set(['invalid_token', 'token_disabled']);

export async function admit(deps: AppDeps, ctx: Context, route: RouteDefinition): Promise<Admission> {
  const { rateLimiter } = deps;
  // ctx.ip honours TRUST_PROXY (src/app.ts); a socket already gone has no address.
  const address = ctx.ip || 'unknown';
  const bearer = readBearer(ctx);
  const budgetKey = bearer?.digest ?? null;
  if (budgetKey) rateLimiter.refuseKnownExhaustedBudget(budgetKey);
  // The lookup is sent first: it is the statement the handler waits for.
  const lookup = settle(authenticate(deps, ctx, route.access, bearer));
  // A request without a bearer is refused by authentication and spends nothing. From an address
  // that is out of failures (most likely still guessing), the budget is spent only once the token
  // proved valid, so a flood of guesses writes no budget rows.
  const afterLookup = budgetKey !== null && rateLimiter.isKnownBlockedAddress(address);
  let budget = settle(budgetKey && !afterLookup ? rateLimiter.consume(budgetKey) : Promise.resolve());

  const found = await lookup;
  if (!found.ok) {
    if (found.error instanceof ApiError && AUTH_FAILURE_CODES.has(found.error.code))
      await rateLimiter.spendAuthFailure(address);
    throw found.error;
  }
  authorize(found.value, route.access);
  if (afterLookup) budget = settle(rateLimiter.consume(budgetKey));
  return {
    credential: found.value,
    passed: async () => {
      unwrap(await budget);
    },
  };
}
