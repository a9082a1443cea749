import { randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { jest } from '@jest/globals';
import { Redis, type RedisOptions } from 'ioredis';
import { rateLimitHeaders } from '#core/rate-limit/rate-limit-headers.js';
import { API_RATE_LIMIT_POLICY, type RateLimitPolicy } from '#core/rate-limit/rate-limit.types.js';
import { RedisRateLimiter } from '#core/rate-limit/redis-rate-limiter.js';

const REDIS_HOST = process.env.REDIS_HOST ?? '127.0.0.1';
const REDIS_PORT = Number(process.env.REDIS_PORT ?? 6379);
// The options RedisRateLimiter documents: fail fast instead of queueing while disconnected.
const FAIL_FAST: RedisOptions = { enableOfflineQueue: false, maxRetriesPerRequest: 1 };

describe('RedisRateLimiter against Redis', () => {
  const prefix = `rl-test:${randomUUID()}:`;
  const clients: Redis[] = [];
  const logger = { error: jest.fn<(msg: string, ...rest: unknown[]) => void>() };

  async function connect(options: RedisOptions = {}): Promise<Redis> {
    const client = new Redis({ host: REDIS_HOST, port: REDIS_PORT, ...FAIL_FAST, lazyConnect: true, ...options });
    client.on('error', () => undefined);
    clients.push(client);
    await client.connect();
    return client;
  }

  function limiter(redis: Redis, policy: RateLimitPolicy = API_RATE_LIMIT_POLICY): RedisRateLimiter {
    return new RedisRateLimiter(redis, policy, logger, prefix);
  }

  beforeEach(() => logger.error.mockClear());

  afterAll(async () => {
    const cleaner = await connect();
    const keys = await cleaner.keys(`${prefix}*`);
    if (keys.length > 0) await cleaner.del(...keys);
    // Without an offline queue only a ready client can send QUIT; the others are simply dropped.
    for (const client of clients) {
      if (client.status === 'ready') await client.quit();
      else client.disconnect();
    }
  });

  it('refuses the 121st request in a window with remaining 0 and Retry-After within the window', async () => {
    const rl = limiter(await connect());
    const subject = randomUUID();

    const admitted = [];
    for (let i = 0; i < 120; i++) admitted.push(await rl.consume(subject));
    const refused = await rl.consume(subject);

    expect(admitted.every((d) => d.allowed)).toBe(true);
    expect(admitted.map((d) => d.remaining).slice(-3)).toEqual([2, 1, 0]);
    expect(refused).toMatchObject({ allowed: false, limit: 120, remaining: 0 });
    const headers = rateLimitHeaders(refused, API_RATE_LIMIT_POLICY);
    expect(Number(headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    expect(Number(headers['Retry-After'])).toBeLessThanOrEqual(60);
    expect(headers['RateLimit-Remaining']).toBe('0');
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('admits exactly 120 of 1,000 concurrent requests split across two instances', async () => {
    const first = limiter(await connect());
    const second = limiter(await connect());
    const subject = randomUUID();

    const decisions = await Promise.all(Array.from({ length: 1000 }, (_, i) => (i % 2 === 0 ? first : second).consume(subject)));

    expect(decisions.filter((d) => d.allowed)).toHaveLength(120);
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('admits a client that waits Retry-After', async () => {
    const policy = { limit: 5, windowSeconds: 2 };
    const rl = limiter(await connect(), policy);
    const subject = randomUUID();
    for (let i = 0; i < 5; i++) await rl.consume(subject);

    const refused = await rl.consume(subject);
    expect(refused.allowed).toBe(false);
    const retryAfter = Number(rateLimitHeaders(refused, policy)['Retry-After']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(2);

    await sleep(retryAfter * 1000);
    expect(await rl.consume(subject)).toMatchObject({ allowed: true });
  });

  it('expires the key once its window has passed', async () => {
    const redis = await connect();
    const rl = limiter(redis, { limit: 5, windowSeconds: 1 });
    const subject = randomUUID();
    await rl.consume(subject);

    const ttl = await redis.pttl(`${prefix}${subject}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(1000);
  });

  it('falls back to a per-instance in-memory limit when Redis is unreachable, logging once', async () => {
    // disconnectTimeout: ioredis otherwise arms a 2 s timer on disconnect that would outlive the run.
    const unreachable = new Redis({ host: '127.0.0.1', port: 1, ...FAIL_FAST, disconnectTimeout: 10 });
    unreachable.on('error', () => undefined);
    clients.push(unreachable);
    const rl = new RedisRateLimiter(unreachable, { limit: 5, windowSeconds: 60 }, logger, prefix);
    const subject = randomUUID();

    const decisions = [];
    for (let i = 0; i < 8; i++) decisions.push(await rl.consume(subject));

    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, false, false, false]);
    expect(decisions[5]).toMatchObject({ remaining: 0 });
    expect(decisions[5]?.retryAfterSeconds).toBeGreaterThan(0);
    expect(logger.error).toHaveBeenCalledTimes(1);
    expect(logger.error.mock.calls[0]?.[0]).toMatch(/Redis unavailable/);
  });

  describe('when Redis accepts connections but never answers', () => {
    let server: Server;
    const sockets = new Set<Socket>();

    beforeAll(async () => {
      server = createServer((socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });

    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    });

    it('gives up after the timeout and limits in memory', async () => {
      const address = server.address();
      if (address === null || typeof address === 'string') throw new Error('server is not listening on TCP');
      // Handshake off: the silent server never answers INFO or CLIENT SETINFO, so it would never be ready.
      const hung = new Redis({
        host: '127.0.0.1',
        port: address.port,
        ...FAIL_FAST,
        enableReadyCheck: false,
        disableClientInfo: true,
        disconnectTimeout: 10,
      });
      hung.on('error', () => undefined);
      try {
        await new Promise((resolve) => hung.once('ready', resolve));
        const rl = new RedisRateLimiter(hung, { limit: 2, windowSeconds: 60 }, logger, prefix, { timeoutMs: 100 });
        const subject = randomUUID();

        const started = performance.now();
        const decisions = [];
        for (let i = 0; i < 3; i++) decisions.push(await rl.consume(subject));

        expect(decisions.map((d) => d.allowed)).toEqual([true, true, false]);
        // One timeout, then the cool-down keeps the next calls off the hung connection.
        expect(performance.now() - started).toBeLessThan(1000);
        expect(logger.error).toHaveBeenCalledTimes(1);
        expect(logger.error.mock.calls[0]?.[0]).toMatch(/no reply within 100 ms/);
      } finally {
        hung.disconnect();
      }
    });
  });
});
