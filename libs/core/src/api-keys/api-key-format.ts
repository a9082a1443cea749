import { createHmac, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/** The two modes of a key (docs/design-record.md#d19): live data, or the business's sandbox. */
export const API_KEY_MODES = ['live', 'test'] as const;
export type ApiKeyMode = (typeof API_KEY_MODES)[number];

export const API_KEY_PREFIXES: Readonly<Record<ApiKeyMode, string>> = { live: 'rk_live_', test: 'rk_test_' };
/** The live prefix, which 1.2.0's keys all have. */
export const API_KEY_PREFIX = API_KEY_PREFIXES.live;
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
// Both prefixes have the same length, so a shown prefix is 12 characters in either mode.
const PREFIX_SHOWN_LENGTH = API_KEY_PREFIX.length + 4;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = new RegExp(`^(?:rk_live_|rk_test_)[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

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

/**
 * A new key: rk_live_ (or rk_test_ for a sandbox key, docs/design-record.md#d19) + 32 random base62
 * + 6 base62 of CRC32 over the rest, prefix included (docs/design-record.md#d2).
 */
export function generateApiKey(mode: ApiKeyMode = 'live'): string {
  const body = API_KEY_PREFIXES[mode] + randomBase62(RANDOM_LENGTH);
  return body + checksum(body);
}

/** True when the key has the right shape and checksum; lets a typo be refused without a lookup. */
export function isWellFormedApiKey(key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false;
  const body = key.slice(0, -CHECKSUM_LENGTH);
  return checksum(body) === key.slice(-CHECKSUM_LENGTH);
}

/** The mode a key (or a shown prefix of one) names by its prefix; null for neither. */
export function apiKeyModeOf(keyOrPrefix: string): ApiKeyMode | null {
  if (keyOrPrefix.startsWith(API_KEY_PREFIXES.test)) return 'test';
  if (keyOrPrefix.startsWith(API_KEY_PREFIXES.live)) return 'live';
  return null;
}

/** The part of a key that may be shown and logged. */
export function apiKeyDisplayPrefix(key: string): string {
  return key.slice(0, PREFIX_SHOWN_LENGTH);
}

/** What is stored: a keyed hash. Keys are random, so a fast HMAC is as safe as a slow hash. */
export function hashApiKey(pepper: string, key: string): string {
  return createHmac('sha256', pepper).update(key).digest('hex');
}
