import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from '../config.js';
import type { Store } from '../db/database.js';
import type { RateLimitTier } from '../http/operation.js';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  retryAfter: number;
}

export interface RateLimiter {
  consume(tier: RateLimitTier, key: string): Promise<RateLimitDecision>;
}

/**
 * Fixed windows per tier (DESIGN §5), counted per API key (or user, or client IP). In memory on
 * SQLite (one node); in Postgres when the database is Postgres, so that limits hold across every
 * server process sharing it. If Postgres cannot answer, an in-memory limiter stands in.
 */
export function createRateLimiter(config: Config['rateLimit'], store: Store): RateLimiter {
  const limiters = {} as Record<RateLimitTier, RateLimiterAbstract>;
  for (const tier of ['read', 'write', 'strict'] as const) {
    const opts = { keyPrefix: `lemma_${tier}`, points: config[tier], duration: config.windowSeconds };
    limiters[tier] = store.pgPool
      ? new RateLimiterPostgres({
          ...opts,
          storeClient: store.pgPool,
          storeType: 'pool',
          tableName: 'rate_limits',
          tableCreated: true,
          clearExpiredByTimeout: true,
          insuranceLimiter: new RateLimiterMemory(opts),
        })
      : new RateLimiterMemory(opts);
  }
  return {
    async consume(tier, key) {
      const limiter = limiters[tier];
      try {
        const res = await limiter.consume(key);
        return decision(true, limiter.points, res);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return decision(false, limiter.points, rejection);
        throw rejection;
      }
    },
  };
}

const decision = (allowed: boolean, limit: number, res: RateLimiterRes): RateLimitDecision => ({
  allowed,
  limit,
  remaining: res.remainingPoints,
  retryAfter: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
});
