import { createHmac } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { LookupCache } from '../caching/lookup-cache.js';
import type { RedisConnection } from '../redis/redis-connection.js';
import type { Clock, RateLimitLogger } from './rate-limit.types.js';

/** How long a key stays known after it last authenticated (docs/design-record.md#d24). */
export const RECENT_AUTHENTICATION_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * How long an instance trusts its own memory of a key before asking Redis again: it bounds both how
 * often an instance refreshes a busy key in Redis and how long a key forgotten elsewhere (revoked)
 * stays known here.
 */
const LOCAL_MS = 60_000;
const MAX_LOCAL_KEYS = 10_000;

export interface RecentlyAuthenticatedKeysOptions {
  clock?: Clock;
  timeoutMs?: number;
  errorLogIntervalMs?: number;
}

/**
 * The keys that authenticated in the deployment within RECENT_AUTHENTICATION_MS, shared by every
 * instance through Redis (docs/design-record.md#d24): over the failed-authentication limit, a key
 * in this set is still looked up and served, any other key is refused without a lookup.
 *
 * An entry is a keyed hash of the key's stored hash (not the stored hash itself), so what Redis
 * holds cannot be matched with the api_keys table without the pepper. A key whose lookup finds it
 * invalid (revoked) is forgotten at once. Without Redis (IN_PROCESS_JOBS, one process) the set is
 * this process's memory; when Redis fails, an instance knows only the keys it saw itself in the
 * last minute, and a check it cannot make counts as not known: the limit stays as strict as before.
 */
export class RecentlyAuthenticatedKeys {
  /** Tags this instance saw authenticate (or Redis confirmed) recently. */
  private readonly local = new LookupCache<true>(MAX_LOCAL_KEYS);
  private readonly localMs: number;
  private readonly clock: Clock;
  private readonly timeoutMs: number;
  private readonly errorLogIntervalMs: number;
  private lastErrorLoggedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly redis: RedisConnection | null,
    private readonly pepper: string,
    private readonly keyPrefix: string,
    private readonly logger: RateLimitLogger,
    options: RecentlyAuthenticatedKeysOptions = {},
  ) {
    this.localMs = redis ? LOCAL_MS : RECENT_AUTHENTICATION_MS;
    this.clock = options.clock ?? (() => performance.now());
    this.timeoutMs = options.timeoutMs ?? 250;
    this.errorLogIntervalMs = options.errorLogIntervalMs ?? 10_000;
  }

  /** Notes that the key with this stored hash has just authenticated. */
  async remember(keyHash: string): Promise<void> {
    const tag = this.tag(keyHash);
    const now = this.clock();
    // A busy key is written to Redis at most once a minute per instance.
    if (this.local.get(tag, now)) return;
    this.local.set(tag, true, now + this.localMs);
    await this.send((redis) => redis.set(this.keyPrefix + tag, '1', 'PX', RECENT_AUTHENTICATION_MS));
  }

  /** Notes that the key with this stored hash is not valid (any more). */
  async forget(keyHash: string): Promise<void> {
    const tag = this.tag(keyHash);
    this.local.delete(tag);
    await this.send((redis) => redis.del(this.keyPrefix + tag));
  }

  /** Whether this instance knows, without asking Redis, that the key with this stored hash authenticated recently. */
  knownHere(keyHash: string): boolean {
    return this.local.get(this.tag(keyHash), this.clock()) === true;
  }

  /** Whether the key with this stored hash authenticated recently, here or on another instance. */
  async has(keyHash: string): Promise<boolean> {
    const tag = this.tag(keyHash);
    const now = this.clock();
    if (this.local.get(tag, now)) return true;
    const found = await this.send((redis) => redis.exists(this.keyPrefix + tag));
    if (found !== 1) return false;
    this.local.set(tag, true, now + this.localMs);
    return true;
  }

  private tag(keyHash: string): string {
    return createHmac('sha256', this.pepper).update('recently-authenticated\0').update(keyHash).digest('hex').slice(0, 32);
  }

  /** The command's reply, or null without Redis or when it failed or took longer than timeoutMs. */
  private async send<T>(command: (redis: RedisConnection) => Promise<T>): Promise<T | null> {
    if (!this.redis) return null;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no reply within ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    try {
      return await Promise.race([command(this.redis), timeout]);
    } catch (error) {
      this.report(error);
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  private report(error: unknown): void {
    const now = this.clock();
    if (now - this.lastErrorLoggedAt < this.errorLogIntervalMs) return;
    this.lastErrorLoggedAt = now;
    const reason = error instanceof Error ? error.message : String(error);
    this.logger.error(`Recently authenticated keys: Redis unavailable (${reason}); only this instance's last minute is known`);
  }
}
