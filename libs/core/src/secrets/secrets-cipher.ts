import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
import { parseSecretsKeys, type SecretsKey } from '#config/secrets-keys.js';

const VERSION = 'v1';
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
    this.current = keys[0];
    this.keys = new Map(keys.map((key) => [key.id, key.key]));
  }

  get currentKeyId(): string {
    return this.current.id;
  }

  /** The prefix of every value sealed under the current key (to find the others). */
  get currentPrefix(): string {
    return `${VERSION}:${this.current.id}:`;
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
    if (!stored.startsWith(`${VERSION}:`)) return stored;
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
    if (!stored.startsWith(`${VERSION}:`)) return stored;
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
