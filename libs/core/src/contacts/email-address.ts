/**
 * A deliberately plain shape check (something@domain.tld, no spaces): the contract's `format:
 * email` already guards the API; this guards the admin side, where no schema runs.
 */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmailAddress(value: string): boolean {
  return value.length <= 254 && EMAIL_PATTERN.test(value);
}
