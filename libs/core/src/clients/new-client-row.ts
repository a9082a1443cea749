import { ClientEntity } from '#database/entities/client.entity.js';
import { newId } from '#database/new-id.js';

/** What a creation decides about a new client; the rules that decide it stay with the caller. */
export interface ClientRowFields {
  businessId: string;
  name: string;
  /** E.164, already normalised. */
  phone: string | null;
  email?: string | null;
  /** YYYY-MM-DD, already checked. */
  birthDate?: string | null;
  guardianName?: string | null;
  guardianEmail?: string | null;
  consent: boolean;
  notes?: string | null;
  /** The partner's own data (docs/design-record.md#d23); default `{}`. */
  metadata?: Record<string, string>;
}

/**
 * A new client row, filled the same way by every creation (the API, a booking's new client, a
 * fixture): a fresh id, both timestamps at `now`, consent dated when it is given, and null for
 * what was not said.
 */
export function newClientRow(fields: ClientRowFields, now: Date): ClientEntity {
  return Object.assign(new ClientEntity(), {
    id: newId(),
    businessId: fields.businessId,
    name: fields.name,
    phone: fields.phone,
    email: fields.email ?? null,
    birthDate: fields.birthDate ?? null,
    guardianName: fields.guardianName ?? null,
    guardianEmail: fields.guardianEmail ?? null,
    consent: fields.consent,
    consentAt: fields.consent ? now : null,
    notes: fields.notes ?? null,
    metadata: fields.metadata ?? {},
    createdAt: now,
    updatedAt: now,
  } satisfies ClientEntity);
}
