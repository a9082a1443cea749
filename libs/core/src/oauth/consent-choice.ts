import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/**
 * The grant the owner just chose on the consent page (docs/design-record.md#d30), handed to Better
 * Auth's OAuth provider as the consent's reference: the plugin asks for it (consentReferenceId)
 * while the console's approval runs, never from the request, so no query string can name a grant.
 */
const chosen = new AsyncLocalStorage<string>();

export function withChosenGrant<T>(grantId: string, work: () => Promise<T>): Promise<T> {
  return chosen.run(grantId, work);
}

/**
 * The consent's reference: the chosen grant during an approval; otherwise a value no consent holds,
 * so that every authorization shows the consent page (the owner picks the business and mode each
 * time) rather than reusing an earlier consent of the same app.
 */
export function consentReference(): string {
  return chosen.getStore() ?? `unchosen:${randomUUID()}`;
}
