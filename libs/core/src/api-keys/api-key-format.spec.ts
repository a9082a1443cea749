import { apiKeyDisplayPrefix, apiKeyModeOf, generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key-format.js';

describe('API key format', () => {
  it('generates rk_live_ keys of 46 characters that pass their own checksum', () => {
    for (let i = 0; i < 200; i += 1) {
      const key = generateApiKey();
      expect(key).toMatch(/^rk_live_[0-9A-Za-z]{38}$/);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
  });

  it('refuses a key with one character changed, a wrong prefix or a wrong length', () => {
    const key = generateApiKey();
    const i = 12;
    const changed = key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1);
    expect(isWellFormedApiKey(changed)).toBe(false);
    expect(isWellFormedApiKey(key.replace('rk_live_', 'rk_test_'))).toBe(false);
    expect(isWellFormedApiKey(key.slice(0, -1))).toBe(false);
    expect(isWellFormedApiKey(`${key}0`)).toBe(false);
    expect(isWellFormedApiKey('')).toBe(false);
  });

  it('shows the first 12 characters and hashes with the pepper', () => {
    const key = generateApiKey();
    expect(apiKeyDisplayPrefix(key)).toBe(key.slice(0, 12));
    expect(hashApiKey('pepper-a', key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey('pepper-a', key)).not.toBe(hashApiKey('pepper-b', key));
  });

  describe('test keys (docs/design-record.md#d19)', () => {
    it('generates rk_test_ keys of the same length that pass their own checksum', () => {
      for (let i = 0; i < 200; i += 1) {
        const key = generateApiKey('test');
        expect(key).toMatch(/^rk_test_[0-9A-Za-z]{38}$/);
        expect(isWellFormedApiKey(key)).toBe(true);
        expect(apiKeyModeOf(key)).toBe('test');
        expect(apiKeyDisplayPrefix(key)).toMatch(/^rk_test_[0-9A-Za-z]{4}$/);
      }
      expect(apiKeyModeOf(generateApiKey())).toBe('live');
      expect(apiKeyModeOf('sk_test_abc')).toBeNull();
    });

    it('refuses a test key with a wrong checksum, one character changed, or its mode swapped', () => {
      const key = generateApiKey('test');
      const last = key.at(-1)!;
      expect(isWellFormedApiKey(`${key.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`)).toBe(false);
      const i = 20;
      expect(isWellFormedApiKey(key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1))).toBe(false);
      // The checksum covers the prefix: a live key renamed test (or back) is refused without a lookup.
      expect(isWellFormedApiKey(key.replace('rk_test_', 'rk_live_'))).toBe(false);
      expect(isWellFormedApiKey(key.replace('rk_test_', 'rk_demo_'))).toBe(false);
      expect(isWellFormedApiKey(key.slice(0, -1))).toBe(false);
    });
  });
});
