import type { Schemas } from '#contract/contract-types.js';
import type { ClientEntity } from '#database/entities/client.entity.js';
import { isoTime } from './iso-time.js';

/** Only the listed fields: guardian fields, consent and notes are stored but never returned. */
export function toClient(client: ClientEntity): Schemas['Client'] {
  return {
    id: client.id,
    name: client.name,
    phone: client.phone,
    email: client.email,
    birthDate: client.birthDate,
    createdAt: isoTime(client.createdAt),
    updatedAt: isoTime(client.updatedAt),
  };
}
