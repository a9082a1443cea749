/** One key-encryption key of SECRETS_KEY: an id stored beside what it seals, and 32 bytes. */
export interface SecretsKey {
  id: string;
  key: Buffer;
}

/** `<id>:<base64 of 32 bytes>`, comma-separated; the first seals, all open. */
export const SECRETS_KEY_PATTERN = /^[A-Za-z0-9_-]{1,32}:[A-Za-z0-9+/]{43}=(,[A-Za-z0-9_-]{1,32}:[A-Za-z0-9+/]{43}=)*$/;

/** The keys of a SECRETS_KEY value that matched SECRETS_KEY_PATTERN, current first. */
export function parseSecretsKeys(value: string): SecretsKey[] {
  return value.split(',').map((entry) => {
    const [id, key] = entry.split(':');
    return { id, key: Buffer.from(key, 'base64') };
  });
}
