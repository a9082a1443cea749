import type { ClientEntity } from '#database/entities/client.entity.js';

/**
 * A client as the API may show it. Guardian fields, consent and notes are not part of it: the
 * list query never selects them.
 */
export type ClientRecord = Pick<ClientEntity, 'id' | 'name' | 'phone' | 'email' | 'birthDate' | 'metadata' | 'createdAt' | 'updatedAt'>;
