import { Webhook } from 'standardwebhooks';
import type { components } from './generated/openapi.js';

/**
 * A change notice the API signs and sends (the contract's webhooks), or an endpoint's test ping.
 * Notices are shaped for the receiving endpoint's API version, not the key's: `mode` (1.4.0) is
 * absent from the notices of an endpoint pinned to an earlier version.
 */
export type SchedulingNotice = WithOptionalMode<components['schemas']['Notice'] | components['schemas']['TestNotice']>;

/** Each member of the union, with `mode` optional. */
type WithOptionalMode<T> = T extends { mode: infer Mode } ? Omit<T, 'mode'> & { mode?: Mode } : T;

/** Request headers as a web `Headers` or as Node's `req.headers`. */
export type NoticeHeaders = Headers | Record<string, string | string[] | undefined>;

/**
 * A notice that must not be trusted: a header missing, a timestamp over 5 minutes off, or no
 * signature made with any of the secrets. The SDK's own class, so that its type declarations do not
 * pull in standardwebhooks' (which need Node's types).
 */
export class NoticeVerificationError extends Error {
  override readonly name = 'NoticeVerificationError';
}

/**
 * Checks a notice's Standard Webhooks signature and returns its body, typed by the contract. `body`
 * must be the raw bytes or text as received (not re-serialised JSON). During a secret rotation
 * (24 hours, D17) give both secrets: each is tried, and the notice is accepted when any one signed it.
 * Throws NoticeVerificationError for a missing header, a stale timestamp (over 5 minutes) or a bad
 * signature.
 */
export function verifyNotice(body: string | Uint8Array, headers: NoticeHeaders, secret: string | readonly string[]): SchedulingNotice {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (secrets.length === 0) throw new Error('verifyNotice needs at least one secret');
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const plain = plainHeaders(headers);
  let failure: unknown;
  for (const candidate of secrets) {
    try {
      new Webhook(candidate).verify(text, plain);
    } catch (error) {
      failure = error;
      continue;
    }
    return JSON.parse(text) as SchedulingNotice;
  }
  throw new NoticeVerificationError(failure instanceof Error ? failure.message : 'The notice could not be verified', { cause: failure });
}

function plainHeaders(headers: NoticeHeaders): Record<string, string> {
  const plain: Record<string, string> = {};
  if (typeof Headers !== 'undefined' && headers instanceof Headers) {
    headers.forEach((value, name) => (plain[name] = value));
    return plain;
  }
  for (const [name, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (value !== undefined) plain[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return plain;
}
