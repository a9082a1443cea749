import { randomBytes } from 'node:crypto';
import { jest } from '@jest/globals';
import type { AppConfig } from '#config/app-config.js';
import { SecretsCipher } from './secrets-cipher.js';

const key = () => randomBytes(32).toString('base64');
const cipherOf = (SECRETS_KEY: string) => new SecretsCipher({ SECRETS_KEY } as AppConfig);
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ROW = '01944c2e-5b7a-7d3f-9c1e-3a8b6f2d4e10';

describe('SecretsCipher', () => {
  it('seals under the first key, naming it, with a new IV each time, and opens what it sealed', () => {
    const cipher = cipherOf(`k2:${key()},k1:${key()}`);
    const a = cipher.seal(SECRET, ROW);
    const b = cipher.seal(SECRET, ROW);
    expect(a).toMatch(/^v1:k2:[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('MfKQ9r8G');
    expect(cipher.open(a, ROW)).toBe(SECRET);
  });

  it('opens values of an older key while SECRETS_KEY still holds it, and names the key when it does not', () => {
    const old = key();
    const sealedByOld = cipherOf(`k1:${old}`).seal(SECRET, ROW);
    expect(cipherOf(`k2:${key()},k1:${old}`).open(sealedByOld, ROW)).toBe(SECRET);
    expect(() => cipherOf(`k2:${key()}`).open(sealedByOld, ROW)).toThrow(/key "k1", which SECRETS_KEY does not hold/);
  });

  it('refuses a sealed value moved to another row, or changed', () => {
    const cipher = cipherOf(`k1:${key()}`);
    const sealed = cipher.seal(SECRET, ROW);
    expect(() => cipher.open(sealed, '01944c2e-5b7a-7d3f-9c1e-3a8b6f2d4e11')).toThrow();
    // The next-to-last character (all six of its bits are the tag's) becomes another one: the
    // character it replaces decides which, so the value always changes.
    const at = sealed.length - 2;
    const tampered = `${sealed.slice(0, at)}${sealed[at] === 'A' ? 'B' : 'A'}${sealed.slice(at + 1)}`;
    expect(tampered).not.toBe(sealed);
    expect(() => cipher.open(tampered, ROW)).toThrow();
  });

  it('refuses a SECRETS_KEY that gives a key id twice (made without loadConfig), rather than keep one of the keys', () => {
    expect(() => cipherOf(`k1:${key()},k1:${key()}`)).toThrow(/key id k1 more than once/);
  });

  it('passes a secret stored before encryption through as it is', () => {
    expect(cipherOf(`k1:${key()}`).open(SECRET, ROW)).toBe(SECRET);
  });

  it('keeps what openKept opened, per row and sealed value: a re-sealed secret is opened afresh, a bad value is never kept', () => {
    const cipher = cipherOf(`k1:${key()}`);
    const open = jest.spyOn(cipher, 'open');
    const sealed = cipher.seal(SECRET, ROW);
    expect(cipher.openKept(sealed, ROW)).toBe(SECRET);
    expect(cipher.openKept(sealed, ROW)).toBe(SECRET);
    expect(open).toHaveBeenCalledTimes(1);

    const rotated = 'whsec_c2Vjb25kLXNlY3JldC1zZWNvbmQtc2VjcmV0';
    expect(cipher.openKept(cipher.seal(rotated, ROW), ROW)).toBe(rotated);
    expect(open).toHaveBeenCalledTimes(2);

    expect(() => cipher.openKept(sealed, '01944c2e-5b7a-7d3f-9c1e-3a8b6f2d4e11')).toThrow();
    expect(() => cipher.openKept(sealed, '01944c2e-5b7a-7d3f-9c1e-3a8b6f2d4e11')).toThrow();
    expect(cipher.openKept(SECRET, ROW)).toBe(SECRET);
  });
});
