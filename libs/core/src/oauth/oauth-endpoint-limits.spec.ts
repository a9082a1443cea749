import { OAuthEndpointLimits, REGISTRATIONS_PER_ADDRESS, TOKEN_REQUESTS_PER_ADDRESS } from './oauth-endpoint-limits.js';

describe('OAuthEndpointLimits (without Redis: counted in memory)', () => {
  it('refuses the registration past the limit from one network, and counts token requests apart', async () => {
    const limits = new OAuthEndpointLimits(null);
    for (let n = 0; n < REGISTRATIONS_PER_ADDRESS.limit; n++) expect((await limits.admit('register', '203.0.113.7')).allowed).toBe(true);
    const refused = await limits.admit('register', '203.0.113.7');
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds ?? refused.resetSeconds).toBeGreaterThan(0);
    expect((await limits.admit('register', '198.51.100.1')).allowed).toBe(true);
    expect((await limits.admit('token', '203.0.113.7')).allowed).toBe(true);
  });

  it('counts an IPv6 /64 as one client', async () => {
    const limits = new OAuthEndpointLimits(null);
    for (let n = 0; n < TOKEN_REQUESTS_PER_ADDRESS.limit; n++) await limits.admit('token', `2001:db8:1:2::${(n % 9000).toString(16)}`);
    expect((await limits.admit('token', '2001:db8:1:2::ffff')).allowed).toBe(false);
  });
});
