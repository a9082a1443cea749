import { Injectable, Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { InjectRedis } from '../redis/redis.module.js';
import { RedisRateLimiter } from './redis-rate-limiter.js';
import { API_RATE_LIMIT_POLICY, type RateLimitDecision } from './rate-limit.types.js';

/** The API's per-key limit (D11) as a Nest provider around the shared Redis limiter. */
@Injectable()
export class ApiRateLimiter {
  private readonly limiter: RedisRateLimiter;

  constructor(@InjectRedis() redis: Redis) {
    this.limiter = new RedisRateLimiter(redis, API_RATE_LIMIT_POLICY, new Logger('RateLimit'), 'rl:key:');
  }

  consume(keyId: string): Promise<RateLimitDecision> {
    return this.limiter.consume(keyId);
  }
}
