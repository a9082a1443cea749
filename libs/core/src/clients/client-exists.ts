import type { ClientEntity } from '#database/entities/client.entity.js';
import { DomainError } from '../errors/domain-error.js';

/**
 * CLIENT_EXISTS for an insert of `client` that violated `constraint`, or null when that is not why
 * it failed: a business has one client per phone and per e-mail (in any case).
 */
export function clientExists(
  constraint: string | undefined,
  client: Pick<ClientEntity, 'phone' | 'email'> | undefined,
  /** The existing client's id, when known: the problem carries it to keys that may read clients (docs/design-record.md#d23). */
  existingId?: string,
): DomainError | null {
  if (!client) return null;
  const members = existingId === undefined ? {} : { clientId: existingId };
  if (constraint === 'clients_business_phone_key') {
    return new DomainError('CLIENT_EXISTS', `A client with the phone ${client.phone} already exists.`, [], undefined, members);
  }
  if (constraint === 'clients_business_email_key') {
    return new DomainError('CLIENT_EXISTS', `A client with the e-mail ${client.email} already exists.`, [], undefined, members);
  }
  return null;
}
