import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '../endpoints/webhook-secret.js';

/**
 * The HMAC key of a secret: the bytes its base64 part decodes to, as the Standard Webhooks
 * libraries use it (signing with the text itself would not verify there).
 */
export function webhookSecretKey(secret: string): Buffer {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) throw new Error('A webhook secret must be whsec_ followed by base64.');
  return key;
}

/** Secrets whose HMAC keys are kept; more than any worker signs for at once, and cheap to rebuild. */
const MAX_KEPT_KEYS = 1_000;
const keptKeys = new Map<string, KeyObject>();

/**
 * The secret's HMAC key as a KeyObject, kept between notices: node turns a Buffer key into a key
 * object on every createHmac, which costs several times the HMAC of a notice.
 */
function signingKey(secret: string): KeyObject {
  let key = keptKeys.get(secret);
  if (!key) {
    if (keptKeys.size >= MAX_KEPT_KEYS) keptKeys.clear();
    key = createSecretKey(webhookSecretKey(secret));
    keptKeys.set(secret, key);
  }
  return key;
}

export interface SignatureInput {
  /** The notice id, sent as webhook-id. */
  id: string;
  /** Unix seconds of this attempt, sent as webhook-timestamp. */
  timestamp: number;
  /** The body exactly as sent. */
  body: string;
  /** The endpoint's secrets, newest first: two during a rotation. */
  secrets: readonly string[];
}

/**
 * The webhook-signature value (Standard Webhooks, docs/design-record.md#d9): `v1,<base64 HMAC-SHA256(key, id.timestamp.body)>`
 * per secret, separated by spaces, so a receiver holding either secret verifies the notice.
 */
export function signNotice(input: SignatureInput): string {
  const content = `${input.id}.${input.timestamp}.${input.body}`;
  return input.secrets.map((secret) => `v1,${createHmac('sha256', signingKey(secret)).update(content, 'utf8').digest('base64')}`).join(' ');
}

export interface EndpointSecrets {
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

/** The secrets to sign with now: the current one, and the previous one while its 24 hours last. */
export function activeSecrets(endpoint: EndpointSecrets, now: Date): string[] {
  const { secret, previousSecret, previousSecretExpiresAt } = endpoint;
  if (previousSecret !== null && previousSecretExpiresAt !== null && previousSecretExpiresAt.getTime() > now.getTime()) {
    return [secret, previousSecret];
  }
  return [secret];
}
