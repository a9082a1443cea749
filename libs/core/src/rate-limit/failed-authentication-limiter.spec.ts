import type { AppConfig } from '#config/app-config.js';
import { FailedAuthenticationLimiter } from './failed-authentication-limiter.js';

/** The limiter of a process without Redis (the same sliding log in memory); with Redis, see test/e2e and test/isolation. */
function limiter(limit: number): FailedAuthenticationLimiter {
  const config = { AUTH_FAILURE_LIMIT: limit, QUEUE_PREFIX: 'test', API_KEY_PEPPER: 'p'.repeat(32) } as AppConfig;
  return new FailedAuthenticationLimiter(config, null);
}

const UNKNOWN = '0'.repeat(64);
const VALID = '1'.repeat(64);

describe('FailedAuthenticationLimiter', () => {
  it('counts every address of an IPv6 /64 as one client', async () => {
    const failures = limiter(3);
    for (const address of ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:ffff::3']) {
      expect((await failures.recordFailure(address)).allowed).toBe(true);
    }
    expect((await failures.recordFailure('2001:db8:1:2::4')).allowed).toBe(false);
    expect((await failures.admitsLookup('2001:db8:1:2::5', UNKNOWN)).allowed).toBe(false);
    // The next /64 is another client.
    expect((await failures.admitsLookup('2001:db8:1:3::1', UNKNOWN)).allowed).toBe(true);
  });

  it('counts an IPv4 address seen through an IPv6 socket as that address', async () => {
    const failures = limiter(2);
    await failures.recordFailure('203.0.113.7');
    await failures.recordFailure('::ffff:203.0.113.7');
    expect((await failures.admitsLookup('::ffff:cb00:7107', UNKNOWN)).allowed).toBe(false);
    expect((await failures.admitsLookup('203.0.113.7', UNKNOWN)).allowed).toBe(false);
    expect((await failures.admitsLookup('203.0.113.8', UNKNOWN)).allowed).toBe(true);
  });

  it('over the limit, still admits a key that authenticated recently, until a lookup finds it invalid', async () => {
    const failures = limiter(1);
    await failures.recordLookup(VALID, true);
    await failures.recordFailure('198.51.100.1');
    const refused = await failures.admitsLookup('198.51.100.1', UNKNOWN);
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    expect((await failures.admitsLookup('198.51.100.1', VALID)).allowed).toBe(true);

    await failures.recordLookup(VALID, false);
    expect((await failures.admitsLookup('198.51.100.1', VALID)).allowed).toBe(false);
  });
});
