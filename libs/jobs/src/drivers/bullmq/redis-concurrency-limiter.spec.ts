import { jest } from '@jest/globals';
import type { RedisConnection } from '#core/redis/redis-connection.js';
import { RedisConcurrencyLimiter } from './redis-concurrency-limiter.js';

type Command = (...args: unknown[]) => Promise<unknown>;

/** Only the commands the limiter sends; real Redis behaviour is covered by test/integration/worker/endpoint-slots.int-spec.ts. */
function stubRedis() {
  const stub = { evalsha: jest.fn<Command>(), eval: jest.fn<Command>(), zrem: jest.fn<Command>().mockResolvedValue(1) };
  return {
    stub,
    limiter: new RedisConcurrencyLimiter(() => stub as unknown as RedisConnection, 'p', { name: 'n', cap: 2, leaseMs: 1_000 }),
  };
}

describe('RedisConcurrencyLimiter (stubbed Redis)', () => {
  it('takes a slot by the script’s digest, and gives it back by its token', async () => {
    const { stub, limiter } = stubRedis();
    stub.evalsha.mockResolvedValue(1);
    const slot = await limiter.acquire('endpoint-a');
    expect(stub.evalsha).toHaveBeenCalledWith(
      expect.stringMatching(/^[0-9a-f]{40}$/),
      1,
      'p:limiter:n:endpoint-a',
      2,
      1_000,
      expect.any(String),
    );
    expect(stub.eval).not.toHaveBeenCalled();
    await slot!.release();
    expect(stub.zrem).toHaveBeenCalledWith('p:limiter:n:endpoint-a', stub.evalsha.mock.calls[0][5]);
  });

  it('sends the script itself when Redis no longer has it (a restart, SCRIPT FLUSH)', async () => {
    const { stub, limiter } = stubRedis();
    stub.evalsha.mockRejectedValue(new Error('NOSCRIPT No matching script. Please use EVAL.'));
    stub.eval.mockResolvedValueOnce(1).mockResolvedValueOnce(0);
    expect(await limiter.acquire('endpoint-a')).not.toBeNull();
    expect(stub.eval).toHaveBeenCalledWith(
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
    const { stub, limiter } = stubRedis();
    stub.evalsha.mockRejectedValue(new Error('ECONNREFUSED'));
    await expect(limiter.acquire('endpoint-a')).rejects.toThrow('ECONNREFUSED');
    expect(stub.eval).not.toHaveBeenCalled();
  });
});
