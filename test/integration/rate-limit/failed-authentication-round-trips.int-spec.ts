import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { FailedAuthenticationLimiter } from '#core/rate-limit/failed-authentication-limiter.js';
import { testConfig } from '../../utils/test-config.js';

/** The commands the limiter sends, on a real Redis client whose sends are counted. */
const COUNTED = ['evalsha', 'eval', 'exists', 'set', 'del'] as const;

const FLOODING = '127.0.0.1';
const PARTNER_KEY = 'a'.repeat(64);
const unknownKey = (): string => randomUUID().replace(/-/g, '').repeat(2);

/**
 * What a flood of failed authentications from a partner's own address costs that partner
 * (issue 38, bench S9): before, every one of the partner's requests asked Redis whether the
 * address was over the limit, and every request of the flood asked twice. Counted in commands
 * sent, not in time.
 */
describe('failed-authentication limit under a flood: Redis round trips', () => {
  const config = testConfig({ AUTH_FAILURE_LIMIT: '5', QUEUE_PREFIX: `authtrips-${randomUUID()}` });
  const redis = new Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
  const sent = new Map<string, number>();
  const counted = new Proxy(redis, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || !(COUNTED as readonly (string | symbol)[]).includes(property)) return value;
      return (...args: unknown[]) => {
        sent.set(String(property), (sent.get(String(property)) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const commands = (): number => [...sent.values()].reduce((a, b) => a + b, 0);

  beforeAll(() => redis.connect());
  afterAll(async () => {
    const keys = await redis.keys(`${config.QUEUE_PREFIX}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  /** An instance whose network has used up its failures, with the partner's key authenticated on `known`. */
  async function flooded(known: FailedAuthenticationLimiter): Promise<void> {
    await known.recordLookup(PARTNER_KEY, true);
    for (let i = 0; i <= config.AUTH_FAILURE_LIMIT; i++) await known.recordFailure(FLOODING);
  }

  it('serves a key this instance saw authenticate without a round trip, and refuses the flood with one each', async () => {
    const limiter = new FailedAuthenticationLimiter(config, counted);
    await flooded(limiter);

    sent.clear();
    const partner = await Promise.all(Array.from({ length: 50 }, () => limiter.admitsLookup(FLOODING, PARTNER_KEY)));
    expect(partner.every((decision) => decision.allowed)).toBe(true);
    expect(commands()).toBe(0);

    sent.clear();
    const flood = [];
    for (let i = 0; i < 50; i++) flood.push(await limiter.admitsLookup(FLOODING, unknownKey()));
    expect(flood.every((decision) => !decision.allowed && decision.retryAfterSeconds! > 0)).toBe(true);
    // Whether the deployment knows each key; the network is known to be over the limit here.
    expect(Object.fromEntries(sent)).toEqual({ exists: 50 });
  });

  it('asks once about a key another instance saw authenticate, then serves it from memory', async () => {
    const elsewhere = new FailedAuthenticationLimiter(config, counted);
    await elsewhere.recordLookup(PARTNER_KEY, true);
    const here = new FailedAuthenticationLimiter(config, counted);
    for (let i = 0; i <= config.AUTH_FAILURE_LIMIT; i++) await here.recordFailure('192.0.2.9');

    sent.clear();
    expect((await here.admitsLookup('192.0.2.9', PARTNER_KEY)).allowed).toBe(true);
    expect(Object.fromEntries(sent)).toEqual({ exists: 1 });
    sent.clear();
    for (let i = 0; i < 20; i++) expect((await here.admitsLookup('192.0.2.9', PARTNER_KEY)).allowed).toBe(true);
    expect(commands()).toBe(0);
  });

  it('forgets a key found invalid at once: the flood rule applies to it again', async () => {
    const limiter = new FailedAuthenticationLimiter(config, counted);
    await flooded(limiter);
    expect((await limiter.admitsLookup(FLOODING, PARTNER_KEY)).allowed).toBe(true);
    await limiter.recordLookup(PARTNER_KEY, false);
    expect((await limiter.admitsLookup(FLOODING, PARTNER_KEY)).allowed).toBe(false);
  });
});
