import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
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

  constructor(config: AppConfig, @InjectRedis() redis: RedisClient) {
    this.policy = Object.freeze({ limit: config.AUTH_FAILURE_LIMIT, windowSeconds: 60 });
    // The deployment's prefix: addresses, unlike key ids, are shared by deployments on one Redis.
    this.limiter = redis
      ? new RedisRateLimiter(redis, this.policy, new Logger('AuthFailureLimit'), `${config.QUEUE_PREFIX}:rl:authfail:`)
      : new InMemoryRateLimiter(this.policy);
  }

  /** Whether the address may try a key now (its log of failures is not full). */
  async isOpen(address: string): Promise<RateLimitDecision> {
    return this.limiter.peek(address);
  }

  /** Records one failure; refused (not recorded) once the address has used up its window. */
  async recordFailure(address: string): Promise<RateLimitDecision> {
    return this.limiter.consume(address);
  }
}
