import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { ApiError } from './errors.js';

// Per credential (each API key or ingestion token has its own budget). The budget lives in the
// API process; with several API replicas, swap in rate-limiter-flexible's Postgres or Redis store.
export class RequestRateLimiter {
  private readonly limiter: RateLimiterMemory;

  constructor(points: number, windowSeconds: number) {
    this.limiter = new RateLimiterMemory({ points, duration: windowSeconds });
  }

  async consume(credentialKey: string): Promise<void> {
    try {
      await this.limiter.consume(credentialKey);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw new ApiError(429, 'rate_limit_exceeded', `Too many requests; retry after ${retryAfter} seconds.`, {
        headers: { 'Retry-After': String(retryAfter) },
      });
    }
  }
}
