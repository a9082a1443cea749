import { randomBytes } from 'node:crypto';
import { keyCheckValue } from './key-check-value.js';

describe('keyCheckValue', () => {
  const key = randomBytes(32);

  it('is the same for the same id and key, so a later process can compare it', () => {
    expect(keyCheckValue({ id: 'k1', key })).toBe(keyCheckValue({ id: 'k1', key: Buffer.from(key) }));
    expect(keyCheckValue({ id: 'k1', key })).toMatch(/^v1:[A-Za-z0-9_-]{43}$/);
  });

  it('differs for another key under the same id, and for the same key under another id', () => {
    expect(keyCheckValue({ id: 'k1', key: randomBytes(32) })).not.toBe(keyCheckValue({ id: 'k1', key }));
    expect(keyCheckValue({ id: 'k2', key })).not.toBe(keyCheckValue({ id: 'k1', key }));
  });

  it('does not carry the key', () => {
    const value = keyCheckValue({ id: 'k1', key });
    for (const encoding of ['base64', 'base64url', 'hex'] as const) expect(value).not.toContain(key.toString(encoding).slice(0, 12));
  });
});
