import { createHmac, hkdfSync } from 'node:crypto';
import type { SecretsKey } from '#config/secrets-keys.js';

/** Its own key, derived from the key-encryption key: the check value never uses the key that seals. */
const DERIVATION_INFO = 'business-scheduling secrets-key check value';

/**
 * The check value of one key of SECRETS_KEY (docs/design-record.md#d25): an HMAC of the key's id
 * under a key derived from it. Kept in the database per key id, it tells at start whether the key
 * given under an id is the one that sealed under that id, without opening any stored value; it
 * reveals nothing of the key.
 */
export function keyCheckValue(key: SecretsKey): string {
  const macKey = Buffer.from(hkdfSync('sha256', key.key, Buffer.alloc(0), DERIVATION_INFO, 32));
  return `v1:${createHmac('sha256', macKey).update(key.id, 'utf8').digest('base64url')}`;
}
