import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { addressNetwork } from '../rate-limit/address-network.js';
import { InMemoryRateLimiter } from '../rate-limit/in-memory-rate-limiter.js';
import type { RateLimitPolicy } from '../rate-limit/rate-limit.types.js';
import { RedisRateLimiter } from '../rate-limit/redis-rate-limiter.js';
import { InjectRedis, type RedisClient } from '../redis/redis.module.js';

/** Sign-in link requests one client address (an IPv6 /64) may make. */
export const LINK_REQUESTS_PER_ADDRESS: Readonly<RateLimitPolicy> = Object.freeze({ limit: 10, windowSeconds: 15 * 60 });
/** Sign-in links one e-mail may be sent: a stranger cannot flood an owner's mailbox. */
export const LINK_REQUESTS_PER_EMAIL: Readonly<RateLimitPolicy> = Object.freeze({ limit: 3, windowSeconds: 15 * 60 });

/**
 * The limits on sign-in link requests (docs/design-record.md#d26), counted on the shared Redis as
 * the API's own limit is (one count across instances), in memory in a process without Redis. Both
 * count every request, for a known e-mail or not, so a refusal tells nothing about the e-mail.
 */
@Injectable()
export class ConsoleLinkLimits {
  private readonly perAddress: RedisRateLimiter | InMemoryRateLimiter;
  private readonly perEmail: RedisRateLimiter | InMemoryRateLimiter;

  constructor(@InjectRedis() redis: RedisClient) {
    const logger = new Logger('ConsoleLinkLimits');
    this.perAddress = redis
      ? new RedisRateLimiter(redis, LINK_REQUESTS_PER_ADDRESS, logger, 'rl:console-address:')
      : new InMemoryRateLimiter(LINK_REQUESTS_PER_ADDRESS);
    this.perEmail = redis
      ? new RedisRateLimiter(redis, LINK_REQUESTS_PER_EMAIL, logger, 'rl:console-email:')
      : new InMemoryRateLimiter(LINK_REQUESTS_PER_EMAIL);
  }

  /** Counts the request; whether both limits admit it. */
  async admit(address: string, email: string): Promise<boolean> {
    // The e-mail is part of a Redis key: its digest, not the address itself, goes there.
    const emailSubject = createHash('sha256').update(email).digest('base64url');
    const [byAddress, byEmail] = await Promise.all([this.perAddress.consume(addressNetwork(address)), this.perEmail.consume(emailSubject)]);
    return byAddress.allowed && byEmail.allowed;
  }
}
