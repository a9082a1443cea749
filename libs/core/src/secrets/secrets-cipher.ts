import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
import { duplicateSecretsKeyIds, parseSecretsKeys, type SecretsKey } from '#config/secrets-keys.js';
import { keyCheckValue } from './key-check-value.js';

const VERSION = 'v1';

/** How every sealed value begins, whatever its key. */
export const SEALED_VALUE_PREFIX = `${VERSION}:`;

/** How every value sealed under the key `keyId` begins. */
export function sealedPrefixOf(keyId: string): string {
  return `${SEALED_VALUE_PREFIX}${keyId}:`;
}
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Opened secrets kept by openKept: more endpoints than a worker delivers to at once, and cheap to open again. */
const MAX_KEPT_OPENED = 1_000;

/**
 * Webhook secrets at rest (docs/design-record.md#hardening): AES-256-GCM under a
 * key-encryption key of SECRETS_KEY, stored as `v1:<key id>:<base64url(iv | ciphertext | tag)>`,
 * so each value names the key that sealed it and the keys can be rotated (`admin secrets
 * re-encrypt`). The additional data is the row's id: a sealed value copied onto another endpoint
 * does not open. A database dump alone therefore signs nothing.
 */
@Injectable()
export class SecretsCipher {
  private readonly keys: Map<string, Buffer>;
  private readonly current: SecretsKey;
  private readonly kept = new Map<string, string>();

  constructor(config: AppConfig) {
    const keys = parseSecretsKeys(config.SECRETS_KEY);
    // loadConfig refuses it first; a configuration made another way must not reach a Map that
    // would keep one of the two keys silently.
    const repeated = duplicateSecretsKeyIds(keys);
    if (repeated.length > 0) throw new Error(`SECRETS_KEY gives the key id ${repeated.join(', ')} more than once.`);
    this.current = keys[0];
    this.keys = new Map(keys.map((key) => [key.id, key.key]));
  }

  get currentKeyId(): string {
    return this.current.id;
  }

  /** Every key id of SECRETS_KEY, the current one first. */
  get keyIds(): string[] {
    return [...this.keys.keys()];
  }

  /** The prefix of every value sealed under the current key (to find the others). */
  get currentPrefix(): string {
    return sealedPrefixOf(this.current.id);
  }

  /** The check value of the key SECRETS_KEY gives under `keyId` (see keyCheckValue). */
  checkValueOf(keyId: string): string {
    const key = this.keys.get(keyId);
    if (!key) throw new Error(`SECRETS_KEY holds no key "${keyId}".`);
    return keyCheckValue({ id: keyId, key });
  }

  seal(plain: string, rowId: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv).setAAD(Buffer.from(rowId, 'utf8'));
    const sealed = Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${this.currentPrefix}${sealed.toString('base64url')}`;
  }

  /**
   * The plain secret. A value that is not sealed (`whsec_…`, written before secrets were
   * encrypted and not yet re-encrypted) is returned as it is.
   */
  open(stored: string, rowId: string): string {
    if (!stored.startsWith(SEALED_VALUE_PREFIX)) return stored;
    const [, keyId, payload] = stored.split(':');
    const key = this.keys.get(keyId);
    if (!key) throw new Error(`A webhook secret is sealed under key "${keyId}", which SECRETS_KEY does not hold.`);
    const sealed = Buffer.from(payload, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES)).setAAD(Buffer.from(rowId, 'utf8'));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  }

  /**
   * open, remembered: the worker opens the same endpoint's secret for every notice it sends, and
   * AES-GCM with a fresh decipher each time costs more than signing the notice. Keyed by the row
   * and the sealed value itself, so a rotated or re-sealed secret (a new value, with a new IV) is
   * opened afresh, and a value that does not open is never kept.
   */
  openKept(stored: string, rowId: string): string {
    if (!stored.startsWith(SEALED_VALUE_PREFIX)) return stored;
    const key = `${rowId}/${stored}`;
    let plain = this.kept.get(key);
    if (plain === undefined) {
      plain = this.open(stored, rowId);
      if (this.kept.size >= MAX_KEPT_OPENED) this.kept.clear();
      this.kept.set(key, plain);
    }
    return plain;
  }
}
