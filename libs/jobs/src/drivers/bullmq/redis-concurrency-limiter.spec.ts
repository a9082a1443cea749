import { jest } from '@jest/globals';
import type { RedisConnection } from '#core/redis/redis-connection.js';
import { RedisConcurrencyLimiter } from './redis-concurrency-limiter.js';

type Command = (...args: unknown[]) => Promise<unknown>;

/** Only the commands the limiter sends; real Redis behaviour is covered by test/integration/worker/endpoint-slots.int-spec.ts. */
function scriptedRedis() {
  const redis = { evalsha: jest.fn<Command>(), eval: jest.fn<Command>(), zrem: jest.fn<Command>().mockResolvedValue(1) };
  return {
    redis,
    limiter: new RedisConcurrencyLimiter(() => redis as unknown as RedisConnection, 'p', { name: 'n', cap: 2, leaseMs: 1_000 }),
  };
}

describe('RedisConcurrencyLimiter (a scripted Redis)', () => {
  it('takes a slot by the script’s digest, and gives it back by its token', async () => {
    const { redis, limiter } = scriptedRedis();
    redis.evalsha.mockResolvedValue(1);
    const slot = await limiter.acquire('endpoint-a');
    expect(redis.evalsha).toHaveBeenCalledWith(
      expect.stringMatching(/^[0-9a-f]{40}$/),
      1,
      'p:limiter:n:endpoint-a',
      2,
      1_000,
      expect.any(String),
    );
    expect(redis.eval).not.toHaveBeenCalled();
    await slot!.release();
    expect(redis.zrem).toHaveBeenCalledWith('p:limiter:n:endpoint-a', redis.evalsha.mock.calls[0][5]);
  });

  it('sends the script itself when Redis no longer has it (a restart, SCRIPT FLUSH)', async () => {
    const { redis, limiter } = scriptedRedis();
    redis.evalsha.mockRejectedValue(new Error('NOSCRIPT No matching script. Please use EVAL.'));
    redis.eval.mockResolvedValueOnce(1).mockResolvedValueOnce(0);
    expect(await limiter.acquire('endpoint-a')).not.toBeNull();
    expect(redis.eval).toHaveBeenCalledWith(
      expect.stringContaining("redis.call('TIME')"),
      1,
      'p:limiter:n:endpoint-a',
      2,
      1_000,
      expect.any(String),
    );
    expect(await limiter.acquire('endpoint-a')).toBeNull();
  });

  it('lets any other error through', async () => {
    const { redis, limiter } = scriptedRedis();
    redis.evalsha.mockRejectedValue(new Error('ECONNREFUSED'));
    await expect(limiter.acquire('endpoint-a')).rejects.toThrow('ECONNREFUSED');
    expect(redis.eval).not.toHaveBeenCalled();
  });
});
