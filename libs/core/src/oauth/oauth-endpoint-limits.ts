import { Injectable, Logger } from '@nestjs/common';
import { addressNetwork } from '../rate-limit/address-network.js';
import { InMemoryRateLimiter } from '../rate-limit/in-memory-rate-limiter.js';
import type { RateLimitDecision, RateLimitPolicy } from '../rate-limit/rate-limit.types.js';
import { RedisRateLimiter } from '../rate-limit/redis-rate-limiter.js';
import { InjectRedis, type RedisClient } from '../redis/redis.module.js';

/** App registrations one client address (an IPv6 /64) may make: a person registers a few apps. */
export const REGISTRATIONS_PER_ADDRESS: Readonly<RateLimitPolicy> = Object.freeze({ limit: 20, windowSeconds: 60 * 60 });
/** Token and revocation requests one client address may make: refreshes are hourly per grant. */
export const TOKEN_REQUESTS_PER_ADDRESS: Readonly<RateLimitPolicy> = Object.freeze({ limit: 300, windowSeconds: 60 });

export type OAuthEndpointKind = 'register' | 'token';

/**
 * Limits on the OAuth server's open endpoints (docs/design-record.md#d30), per client network and
 * counted on the shared Redis as the API's own limit is: registration is open to anyone, and the
 * token endpoint is where codes and refresh tokens would be guessed.
 */
@Injectable()
export class OAuthEndpointLimits {
  private readonly limiters: Record<OAuthEndpointKind, RedisRateLimiter | InMemoryRateLimiter>;

  constructor(@InjectRedis() redis: RedisClient) {
    const logger = new Logger('OAuthEndpointLimits');
    const limiter = (policy: Readonly<RateLimitPolicy>, prefix: string) =>
      redis ? new RedisRateLimiter(redis, policy, logger, prefix) : new InMemoryRateLimiter(policy);
    this.limiters = {
      register: limiter(REGISTRATIONS_PER_ADDRESS, 'rl:oauth-register:'),
      token: limiter(TOKEN_REQUESTS_PER_ADDRESS, 'rl:oauth-token:'),
    };
  }

  async admit(kind: OAuthEndpointKind, address: string): Promise<RateLimitDecision> {
    return this.limiters[kind].consume(addressNetwork(address));
  }
}
