import { createHash, randomUUID } from 'node:crypto';
import type { RedisConnection } from '#core/redis/redis-connection.js';
import type { ConcurrencyLimiter, LimiterOptions, LimiterSlot } from '../../concurrency-limiter.js';

/**
 * One sorted set per key: a member per slot, scored with the end of its lease by Redis's own clock
 * (every worker reads the same one). Expired leases are dropped, then a slot is taken if fewer than
 * `cap` are held, in one script, so two workers never both take the last slot.
 */
const ACQUIRE = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;
const ACQUIRE_SHA = createHash('sha1').update(ACQUIRE).digest('hex');

/** Slots in Redis, shared by every worker of the service (the BullMQ driver's). */
export class RedisConcurrencyLimiter implements ConcurrencyLimiter {
  constructor(
    private readonly client: () => RedisConnection,
    private readonly prefix: string,
    private readonly options: LimiterOptions,
  ) {}

  async acquire(key: string): Promise<LimiterSlot | null> {
    const redisKey = `${this.prefix}:limiter:${this.options.name}:${key}`;
    const token = randomUUID();
    const redis = this.client();
    const args = [redisKey, this.options.cap, this.options.leaseMs, token] as const;
    // Every delivery takes a slot: EVALSHA keeps the script off the wire and Redis from hashing it
    // again each time; EVAL is only needed once after a restart or SCRIPT FLUSH.
    let taken: unknown;
    try {
      taken = await redis.evalsha(ACQUIRE_SHA, 1, ...args);
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
      taken = await redis.eval(ACQUIRE, 1, ...args);
    }
    if (taken !== 1) return null;
    return {
      release: async () => {
        await redis.zrem(redisKey, token);
      },
    };
  }
}
