import { jest } from '@jest/globals';
import type { Redis } from 'ioredis';
import { RECENT_AUTHENTICATION_MS, RecentlyAuthenticatedKeys } from './recently-authenticated-keys.js';

type Command = (...args: unknown[]) => Promise<unknown>;

/** Only the three commands the set sends, on a Map; real Redis is covered by the end-to-end and isolation tests. */
function fakeRedis() {
  const store = new Map<string, string>();
  const fake = {
    set: jest.fn<Command>((key, value) => {
      store.set(String(key), String(value));
      return Promise.resolve('OK');
    }),
    exists: jest.fn<Command>((key) => Promise.resolve(store.has(String(key)) ? 1 : 0)),
    del: jest.fn<Command>((key) => Promise.resolve(store.delete(String(key)) ? 1 : 0)),
  };
  return { fake, store, redis: fake as unknown as Redis };
}

const HASH = 'a'.repeat(64);
const OTHER = 'b'.repeat(64);

describe('RecentlyAuthenticatedKeys', () => {
  const logger = { error: jest.fn<(msg: string, ...rest: unknown[]) => void>() };
  let now: number;
  const options = { clock: () => now, timeoutMs: 20 };

  beforeEach(() => {
    now = 0;
    logger.error.mockClear();
  });

  it('shares a key between instances through Redis, under a keyed tag rather than the stored hash', async () => {
    const { fake, store, redis } = fakeRedis();
    const here = new RecentlyAuthenticatedKeys(redis, 'pepper-1', 'p:authok:', logger, options);
    const there = new RecentlyAuthenticatedKeys(redis, 'pepper-1', 'p:authok:', logger, options);

    expect(await there.has(HASH)).toBe(false);
    await here.remember(HASH);
    expect(await there.has(HASH)).toBe(true);
    expect(await there.has(OTHER)).toBe(false);

    expect(fake.set).toHaveBeenCalledWith(expect.stringMatching(/^p:authok:[0-9a-f]{32}$/), '1', 'PX', RECENT_AUTHENTICATION_MS);
    expect([...store.keys()].join()).not.toContain(HASH.slice(0, 32));
    // Another pepper (another deployment) tags the same hash differently.
    expect(await new RecentlyAuthenticatedKeys(redis, 'pepper-2', 'p:authok:', logger, options).has(HASH)).toBe(false);
  });

  it('writes a busy key to Redis at most once a minute per instance', async () => {
    const { fake, redis } = fakeRedis();
    const keys = new RecentlyAuthenticatedKeys(redis, 'pepper', 'p:', logger, options);
    for (let i = 0; i < 100; i++) await keys.remember(HASH);
    expect(fake.set).toHaveBeenCalledTimes(1);
    now = 60_000;
    await keys.remember(HASH);
    expect(fake.set).toHaveBeenCalledTimes(2);
  });

  it('forgets a key everywhere at once once a lookup finds it invalid', async () => {
    const { redis } = fakeRedis();
    const here = new RecentlyAuthenticatedKeys(redis, 'pepper', 'p:', logger, options);
    const there = new RecentlyAuthenticatedKeys(redis, 'pepper', 'p:', logger, options);
    await here.remember(HASH);
    await here.forget(HASH);
    expect(await here.has(HASH)).toBe(false);
    expect(await there.has(HASH)).toBe(false);
  });

  it('knows, while Redis fails, only the keys this instance saw in the last minute, and logs the outage once per interval', async () => {
    const { fake, redis } = fakeRedis();
    fake.set.mockRejectedValue(new Error('Connection is closed.'));
    fake.exists.mockRejectedValue(new Error('Connection is closed.'));
    const keys = new RecentlyAuthenticatedKeys(redis, 'pepper', 'p:', logger, { ...options, errorLogIntervalMs: 120_000 });
    await keys.remember(HASH);
    expect(await keys.has(HASH)).toBe(true);
    expect(await keys.has(OTHER)).toBe(false);
    now = 60_000;
    expect(await keys.has(HASH)).toBe(false);
    expect(logger.error).toHaveBeenCalledTimes(1);
    expect(logger.error.mock.calls[0][0]).toMatch(/Redis unavailable \(Connection is closed\.\)/);
  });

  it('does not wait on a Redis that does not answer', async () => {
    const { fake, redis } = fakeRedis();
    fake.exists.mockReturnValue(new Promise(() => undefined));
    const keys = new RecentlyAuthenticatedKeys(redis, 'pepper', 'p:', logger, options);
    expect(await keys.has(HASH)).toBe(false);
    expect(logger.error.mock.calls[0][0]).toMatch(/no reply within 20 ms/);
  });

  it('keeps keys in memory for the whole period in a process without Redis', async () => {
    const keys = new RecentlyAuthenticatedKeys(null, 'pepper', 'p:', logger, options);
    await keys.remember(HASH);
    now = RECENT_AUTHENTICATION_MS - 1;
    expect(await keys.has(HASH)).toBe(true);
    now = RECENT_AUTHENTICATION_MS;
    expect(await keys.has(HASH)).toBe(false);
    expect(logger.error).not.toHaveBeenCalled();
  });
});
