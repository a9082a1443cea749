import type { ClientRecord } from '#core/clients/client-record.js';
import type { Schemas } from '#contract/contract-types.js';
import { isoTime } from './iso-time.js';

/** Only the listed fields: guardian fields, consent and notes are stored but never returned. */
export function toClient(client: ClientRecord): Schemas['Client'] {
  return {
    id: client.id,
    name: client.name,
    phone: client.phone,
    email: client.email,
    birthDate: client.birthDate,
    metadata: client.metadata,
    createdAt: isoTime(client.createdAt),
    updatedAt: isoTime(client.updatedAt),
  };
}
