import { isUnexpired, oldKeyExpiry, ROLLED_KEY_LIVES, rolledKeyLifeProblems } from './rolled-key-life.js';

const now = new Date('2030-03-01T10:00:00Z');
const HOUR = 60 * 60 * 1000;

describe("the old key's life after a roll", () => {
  it("ends now, or in 1 h, 24 h or 7 days, as Stripe's choices", () => {
    expect(ROLLED_KEY_LIVES.map((life) => oldKeyExpiry(null, life, now).getTime() - now.getTime())).toEqual([
      0,
      HOUR,
      24 * HOUR,
      7 * 24 * HOUR,
    ]);
  });

  it('is never longer than an expiry the key already had, and may be shorter', () => {
    const soon = new Date(now.getTime() + HOUR);
    expect(oldKeyExpiry(soon, '7d', now)).toEqual(soon);
    expect(oldKeyExpiry(soon, 'now', now)).toEqual(now);
  });

  it('refuses any other value, naming the choices', () => {
    expect(rolledKeyLifeProblems('24h', '/oldKeyExpiresIn')).toEqual([]);
    expect(rolledKeyLifeProblems('2h', '/oldKeyExpiresIn')).toEqual([
      { path: '/oldKeyExpiresIn', message: 'must be one of now, 1h, 24h, 7d' },
    ]);
  });

  it('stops a key at the instant of its expiry', () => {
    expect(isUnexpired(null, now)).toBe(true);
    expect(isUnexpired(new Date(now.getTime() + 1), now)).toBe(true);
    expect(isUnexpired(now, now)).toBe(false);
  });
});
