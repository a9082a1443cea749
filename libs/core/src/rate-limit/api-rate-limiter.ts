import { Injectable, Logger } from '@nestjs/common';
import { InjectRedis, type RedisClient } from '../redis/redis.module.js';
import { InMemoryRateLimiter } from './in-memory-rate-limiter.js';
import { RedisRateLimiter } from './redis-rate-limiter.js';
import { API_RATE_LIMIT_POLICY, type RateLimitDecision } from './rate-limit.types.js';

/**
 * The API's per-key limit (docs/design-record.md#d11) as a Nest provider: the shared Redis limiter, or, in a process
 * that runs without Redis (IN_PROCESS_JOBS, one process), the same sliding log in memory, which
 * is then the intended limiter and not a fallback, so nothing is logged for it.
 */
@Injectable()
export class ApiRateLimiter {
  private readonly limiter: RedisRateLimiter | InMemoryRateLimiter;

  constructor(@InjectRedis() redis: RedisClient) {
    this.limiter = redis
      ? new RedisRateLimiter(redis, API_RATE_LIMIT_POLICY, new Logger('RateLimit'), 'rl:key:')
      : new InMemoryRateLimiter(API_RATE_LIMIT_POLICY);
  }

  async consume(keyId: string): Promise<RateLimitDecision> {
    return this.limiter.consume(keyId);
  }
}
