import { createHmac, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

export const API_KEY_PREFIX = 'rk_live_';
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const PREFIX_SHOWN_LENGTH = API_KEY_PREFIX.length + 4;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 × 62: rejecting the rest keeps every character equally likely.
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

function checksum(body: string): string {
  let value = crc32(body);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i += 1) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

/** A new key: rk_live_ + 32 random base62 + 6 base62 of CRC32 over the rest (docs/design-record.md#d2). */
export function generateApiKey(): string {
  const body = API_KEY_PREFIX + randomBase62(RANDOM_LENGTH);
  return body + checksum(body);
}

/** True when the key has the right shape and checksum; lets a typo be refused without a lookup. */
export function isWellFormedApiKey(key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false;
  const body = key.slice(0, -CHECKSUM_LENGTH);
  return checksum(body) === key.slice(-CHECKSUM_LENGTH);
}

/** The part of a key that may be shown and logged. */
export function apiKeyDisplayPrefix(key: string): string {
  return key.slice(0, PREFIX_SHOWN_LENGTH);
}

/** What is stored: a keyed hash. Keys are random, so a fast HMAC is as safe as a slow hash. */
export function hashApiKey(pepper: string, key: string): string {
  return createHmac('sha256', pepper).update(key).digest('hex');
}
