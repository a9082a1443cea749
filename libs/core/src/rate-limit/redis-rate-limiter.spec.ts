import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { jest } from '@jest/globals';
import type { Redis } from 'ioredis';
import { RedisRateLimiter, type RedisRateLimiterOptions } from './redis-rate-limiter.js';
import type { RateLimitPolicy } from './rate-limit.types.js';

type Eval = (...args: unknown[]) => Promise<unknown>;
interface RedisStub {
  evalsha: jest.Mock<Eval>;
  eval: jest.Mock<Eval>;
}

/** Only the two commands the limiter sends; real Redis behaviour is covered by the integration tests. */
function stubRedis(): { stub: RedisStub; redis: Redis } {
  const stub: RedisStub = { evalsha: jest.fn<Eval>(), eval: jest.fn<Eval>() };
  return { stub, redis: stub as unknown as Redis };
}

const SHA1 = expect.stringMatching(/^[0-9a-f]{40}$/);

describe('RedisRateLimiter (stubbed Redis)', () => {
  const policy: RateLimitPolicy = { limit: 2, windowSeconds: 60 };
  const logger = { error: jest.fn<(msg: string, ...rest: unknown[]) => void>() };
  let now: number;
  const options: RedisRateLimiterOptions = { clock: () => now, timeoutMs: 20, failureCooldownMs: 0 };

  beforeEach(() => {
    now = 0;
    logger.error.mockClear();
  });

  it('maps the script reply to a decision', async () => {
    const { stub, redis } = stubRedis();
    stub.evalsha.mockResolvedValue([0, 0, 1500]);

    const decision = await new RedisRateLimiter(redis, policy, logger, 'rl:', options).consume('key-1');

    expect(decision).toEqual({ allowed: false, limit: 2, remaining: 0, resetSeconds: 1.5, retryAfterSeconds: 1.5 });
    expect(stub.evalsha).toHaveBeenCalledWith(SHA1, 1, 'rl:key-1', 2, 60_000, expect.any(String));
  });

  it('sends the script itself when Redis does not have it cached', async () => {
    const { stub, redis } = stubRedis();
    stub.evalsha.mockRejectedValue(new Error('NOSCRIPT No matching script. Please use EVAL.'));
    stub.eval.mockResolvedValue([1, 1, 60_000]);

    const decision = await new RedisRateLimiter(redis, policy, logger, 'rl:', options).consume('key-1');

    expect(decision.allowed).toBe(true);
    const script = expect.stringContaining("redis.call('TIME')");
    expect(stub.eval).toHaveBeenCalledWith(script, 1, 'rl:key-1', 2, 60_000, expect.any(String));
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('gives every request its own sorted-set member', async () => {
    const { stub, redis } = stubRedis();
    stub.evalsha.mockResolvedValue([1, 1, 60_000]);
    const limiter = new RedisRateLimiter(redis, policy, logger, 'rl:', options);

    await limiter.consume('key-1');
    await limiter.consume('key-1');

    const members = stub.evalsha.mock.calls.map((call) => call[5]);
    expect(new Set(members).size).toBe(2);
  });

  it.each<[string, (stub: RedisStub) => void]>([
    ['fails', (stub) => stub.evalsha.mockRejectedValue(new Error('ECONNREFUSED'))],
    ['hangs', (stub) => stub.evalsha.mockReturnValue(new Promise(() => undefined))],
    ['answers nonsense', (stub) => stub.evalsha.mockResolvedValue('OK')],
  ])('limits in memory when Redis %s', async (_, breakRedis) => {
    const { stub, redis } = stubRedis();
    breakRedis(stub);
    const limiter = new RedisRateLimiter(redis, policy, logger, 'rl:', options);

    const allowed = [];
    for (let i = 0; i < 3; i++) allowed.push((await limiter.consume('key-1')).allowed);

    expect(allowed).toEqual([true, true, false]);
    expect(logger.error).toHaveBeenCalledTimes(1);
  });

  it('logs an outage at most once every 10 s, counting the failures in between', async () => {
    const { stub, redis } = stubRedis();
    stub.evalsha.mockRejectedValue(new Error('ECONNREFUSED'));
    const limiter = new RedisRateLimiter(redis, { limit: 1000, windowSeconds: 60 }, logger, 'rl:', options);

    for (let i = 0; i < 5; i++) await limiter.consume('key-1');
    now = 9_999;
    await limiter.consume('key-1');
    expect(logger.error).toHaveBeenCalledTimes(1);

    now = 10_000;
    await limiter.consume('key-1');
    expect(logger.error).toHaveBeenCalledTimes(2);
    expect(logger.error.mock.calls[1]?.[0]).toMatch(/ECONNREFUSED.*\(6 failure\(s\) since last report\)/);
  });

  it('skips Redis during the cool-down after a failure, then uses it again', async () => {
    const { stub, redis } = stubRedis();
    stub.evalsha.mockRejectedValueOnce(new Error('ECONNREFUSED')).mockResolvedValue([1, 1, 60_000]);
    const limiter = new RedisRateLimiter(redis, policy, logger, 'rl:', { ...options, failureCooldownMs: 1000 });

    await limiter.consume('key-1');
    now = 999;
    await limiter.consume('key-1');
    expect(stub.evalsha).toHaveBeenCalledTimes(1);

    now = 1000;
    expect(await limiter.consume('key-1')).toMatchObject({ allowed: true, remaining: 1 });
    expect(stub.evalsha).toHaveBeenCalledTimes(2);
  });

  it("counts this instance's admissions through Redis when Redis fails mid-window: no fresh window for the key", async () => {
    const { stub, redis } = stubRedis();
    stub.evalsha.mockResolvedValueOnce([1, 1, 60_000]).mockResolvedValueOnce([1, 0, 60_000]).mockRejectedValue(new Error('ECONNREFUSED'));
    const limiter = new RedisRateLimiter(redis, policy, logger, 'rl:', options);

    const allowed = [];
    for (let i = 0; i < 3; i++) allowed.push((await limiter.consume('key-1')).allowed);

    expect(allowed).toEqual([true, true, false]);
    expect(logger.error).toHaveBeenCalledTimes(1);
  });

  it('takes a reply already received over a timeout that fired while the event loop was busy', async () => {
    // A real socket, because the order that matters is the event loop's: the timers phase (the
    // timeout) comes before the poll phase that reads a reply already in the socket's buffer.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
    const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
    const peer = await accepted;
    try {
      const { stub, redis } = stubRedis();
      stub.evalsha.mockImplementation(() => {
        client.write('reply');
        return new Promise((resolve) => peer.once('data', () => resolve([1, 1, 60_000])));
      });
      const limiter = new RedisRateLimiter(redis, policy, logger, 'rl:', options);
      // From the check phase: the next turn of the loop starts with its timers.
      await new Promise((resolve) => setImmediate(resolve));

      const decision = limiter.consume('key-1');
      const busyUntil = performance.now() + 3 * (options.timeoutMs ?? 0);
      while (performance.now() < busyUntil) {
        // the event loop is blocked past the timeout, while the reply arrives
      }

      expect(await decision).toMatchObject({ allowed: true, remaining: 1 });
      expect(logger.error).not.toHaveBeenCalled();
    } finally {
      client.destroy();
      peer.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('rejects an invalid policy at construction', () => {
    const { redis } = stubRedis();
    expect(() => new RedisRateLimiter(redis, { limit: 0, windowSeconds: 60 }, logger)).toThrow(RangeError);
  });
});
