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

/** The key ids a SECRETS_KEY value gives more than once, in the order they first appear. */
export function duplicateSecretsKeyIds(keys: readonly SecretsKey[]): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const { id } of keys) (seen.has(id) ? repeated : seen).add(id);
  return [...repeated];
}

/**
 * What is wrong with a well-formed SECRETS_KEY beyond its form (docs/design-record.md#d25): an id
 * given twice would seal with one key and open with the other, so values sealed by one process
 * could not be opened by the next.
 */
export function secretsKeyProblems(value: string | undefined): string[] {
  if (value === undefined || !SECRETS_KEY_PATTERN.test(value)) return [];
  const repeated = duplicateSecretsKeyIds(parseSecretsKeys(value));
  if (repeated.length === 0) return [];
  return [
    `  SECRETS_KEY: the key id ${repeated.map((id) => `"${id}"`).join(', ')} is given more than once; each key needs its own id, ` +
      'as a sealed value names the id that opens it (to rotate, put the new key first under a new id and keep the old one after it)',
  ];
}
