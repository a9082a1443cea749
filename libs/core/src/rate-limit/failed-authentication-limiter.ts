import { performance } from 'node:perf_hooks';
import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
import { LookupCache } from '../caching/lookup-cache.js';
import { InjectRedis, type RedisClient } from '../redis/redis.module.js';
import { addressNetwork } from './address-network.js';
import { InMemoryRateLimiter } from './in-memory-rate-limiter.js';
import { RecentlyAuthenticatedKeys } from './recently-authenticated-keys.js';
import { RedisRateLimiter } from './redis-rate-limiter.js';
import type { RateLimitDecision, RateLimitPolicy } from './rate-limit.types.js';

/**
 * Failed authentications per client network (docs/design-record.md#d2, "Unauthenticated floods",
 * and #d24): AUTH_FAILURE_LIMIT per rolling minute for an IPv4 address or an IPv6 /64
 * (`addressNetwork`), shared by every instance through Redis like the per-key limit. Only
 * failures are recorded. Once a network's log is full, a key is looked up only if it authenticated
 * recently (RecentlyAuthenticatedKeys): a flood from an address costs no database lookup, and a
 * partner behind the same address or proxy keeps being served.
 */
@Injectable()
export class FailedAuthenticationLimiter {
  readonly policy: Readonly<RateLimitPolicy>;
  private readonly limiter: RedisRateLimiter | InMemoryRateLimiter;
  private readonly recentKeys: RecentlyAuthenticatedKeys;
  /** Networks that failed on this instance within the window. */
  private readonly failedHere = new LookupCache<true>(10_000);
  /**
   * Networks this instance learnt are over the limit, with the time (ms) until which they stay so:
   * the log only grows until its oldest entry leaves the window, whatever other instances record,
   * so until then the answer is known without asking Redis again.
   */
  private readonly refusedHere = new LookupCache<number>(10_000);
  private readonly open: RateLimitDecision;

  constructor(config: AppConfig, @InjectRedis() redis: RedisClient) {
    this.policy = Object.freeze({ limit: config.AUTH_FAILURE_LIMIT, windowSeconds: 60 });
    // The deployment's prefix: addresses, unlike key ids, are shared by deployments on one Redis.
    const logger = new Logger('AuthFailureLimit');
    this.limiter = redis
      ? new RedisRateLimiter(redis, this.policy, logger, `${config.QUEUE_PREFIX}:rl:authfail:`)
      : new InMemoryRateLimiter(this.policy);
    this.recentKeys = new RecentlyAuthenticatedKeys(redis, config.API_KEY_PEPPER, `${config.QUEUE_PREFIX}:authok:`, logger);
    this.open = { allowed: true, limit: this.policy.limit, remaining: this.policy.limit, resetSeconds: 0, retryAfterSeconds: null };
  }

  /**
   * Whether the key with this stored hash, presented from this address, may be looked up in the
   * database: yes while the address's network has failures left in its window, and after that only
   * for a key that authenticated recently. Redis is asked about the network only when it has failed
   * on this instance within the window: well-behaved clients, nearly all traffic, cost no round
   * trip; a flood pays one database lookup per instance before it is seen. Under a flood, a key
   * this instance saw authenticate costs no round trip either (a partner behind the flooding
   * address is served as before it began), and a key it did not see costs one: whether the
   * deployment knows it (docs/design-record.md#d24).
   */
  async admitsLookup(address: string, keyHash: string): Promise<RateLimitDecision> {
    const network = addressNetwork(address);
    const now = performance.now();
    if (this.failedHere.get(network, now) === undefined) return this.open;
    if (this.recentKeys.knownHere(keyHash)) return this.open;
    const decision = this.refusedUntil(network, now) ?? this.noteRefusal(network, await this.limiter.peek(network));
    if (decision.allowed || (await this.recentKeys.has(keyHash))) return this.open;
    return decision;
  }

  /** What a lookup found: a valid key is known from now on, an invalid one no longer. */
  async recordLookup(keyHash: string, valid: boolean): Promise<void> {
    await (valid ? this.recentKeys.remember(keyHash) : this.recentKeys.forget(keyHash));
  }

  /** Records one failure of the address's network; refused (not recorded) once it has used up its window. */
  async recordFailure(address: string): Promise<RateLimitDecision> {
    const network = addressNetwork(address);
    this.failedHere.set(network, true, performance.now() + this.policy.windowSeconds * 1000);
    return this.noteRefusal(network, await this.limiter.consume(network));
  }

  /** The refusal this instance knows the network is under, with the time left; null when it knows of none. */
  private refusedUntil(network: string, now: number): RateLimitDecision | null {
    const until = this.refusedHere.get(network, now);
    if (until === undefined) return null;
    const seconds = (until - now) / 1000;
    return { allowed: false, limit: this.policy.limit, remaining: 0, resetSeconds: seconds, retryAfterSeconds: seconds };
  }

  private noteRefusal(network: string, decision: RateLimitDecision): RateLimitDecision {
    if (!decision.allowed && decision.retryAfterSeconds !== null) {
      const until = performance.now() + decision.retryAfterSeconds * 1000;
      this.refusedHere.set(network, until, until);
    }
    return decision;
  }
}
