import { performance } from 'node:perf_hooks';
import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
import { LookupCache } from '../caching/lookup-cache.js';
import { InjectRedis, type RedisClient } from '../redis/redis.module.js';
import { InMemoryRateLimiter } from './in-memory-rate-limiter.js';
import { RedisRateLimiter } from './redis-rate-limiter.js';
import type { RateLimitDecision, RateLimitPolicy } from './rate-limit.types.js';

/**
 * Failed authentications per client address (docs/design-record.md#d2, "Unauthenticated floods"):
 * AUTH_FAILURE_LIMIT per rolling minute, shared by every instance through Redis like the per-key
 * limit. Only failures are recorded; `isOpen` lets the key guard refuse an address whose log is
 * full before its next key costs a database lookup.
 */
@Injectable()
export class FailedAuthenticationLimiter {
  readonly policy: Readonly<RateLimitPolicy>;
  private readonly limiter: RedisRateLimiter | InMemoryRateLimiter;
  /** Addresses that failed on this instance within the window. */
  private readonly failedHere = new LookupCache<true>(10_000);
  private readonly open: RateLimitDecision;

  constructor(config: AppConfig, @InjectRedis() redis: RedisClient) {
    this.policy = Object.freeze({ limit: config.AUTH_FAILURE_LIMIT, windowSeconds: 60 });
    // The deployment's prefix: addresses, unlike key ids, are shared by deployments on one Redis.
    this.limiter = redis
      ? new RedisRateLimiter(redis, this.policy, new Logger('AuthFailureLimit'), `${config.QUEUE_PREFIX}:rl:authfail:`)
      : new InMemoryRateLimiter(this.policy);
    this.open = { allowed: true, limit: this.policy.limit, remaining: this.policy.limit, resetSeconds: 0, retryAfterSeconds: null };
  }

  /**
   * Whether the address may try a key now (its log of failures is not full). Redis is asked only
   * about an address that has failed on this instance within the window: well-behaved clients,
   * nearly all traffic, cost no round trip; a flood pays one database lookup per instance before
   * it is seen.
   */
  async isOpen(address: string): Promise<RateLimitDecision> {
    if (this.failedHere.get(address, performance.now()) === undefined) return this.open;
    return this.limiter.peek(address);
  }

  /** Records one failure; refused (not recorded) once the address has used up its window. */
  async recordFailure(address: string): Promise<RateLimitDecision> {
    this.failedHere.set(address, true, performance.now() + this.policy.windowSeconds * 1000);
    return this.limiter.consume(address);
  }
}
