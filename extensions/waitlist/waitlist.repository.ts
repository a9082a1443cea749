import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import { defineStatement } from '#database/statement.js';
import type { WaitlistEntryRecord } from './waitlist-entry.js';

/** The unique index that keeps a client on a service's waitlist once. */
export const ONE_ENTRY_PER_CLIENT_AND_SERVICE = 'waitlist_entries_client_service_key';

const ENTRY_COLUMNS = `id, client_id AS "clientId", service_id AS "serviceId", from_date::text AS "from",
  to_date::text AS "to", note, created_at AS "createdAt"`;

const INSERT_ENTRY = defineStatement<
  [id: string, businessId: string, clientId: string, serviceId: string, from: string, to: string, note: string | null],
  WaitlistEntryRecord
>({
  name: 'waitlist_insert_entry',
  text: `INSERT INTO waitlist_entries (id, business_id, client_id, service_id, from_date, to_date, note)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${ENTRY_COLUMNS}`,
});
const FIND_ENTRY = defineStatement<[businessId: string, id: string], WaitlistEntryRecord>({
  name: 'waitlist_find_entry',
  text: `SELECT ${ENTRY_COLUMNS} FROM waitlist_entries WHERE business_id = $1 AND id = $2`,
});
const LIST_ENTRIES = defineStatement<[businessId: string, serviceId: string | null, limit: number], WaitlistEntryRecord>({
  name: 'waitlist_list_entries',
  text: `SELECT ${ENTRY_COLUMNS} FROM waitlist_entries
          WHERE business_id = $1 AND ($2::uuid IS NULL OR service_id = $2)
          ORDER BY created_at, id LIMIT $3`,
});
const FIND_CLIENT_CONSENT = defineStatement<[businessId: string, clientId: string], { consent: boolean }>({
  name: 'waitlist_find_client_consent',
  text: 'SELECT consent FROM clients WHERE business_id = $1 AND id = $2',
});
const FIND_ACTIVE_SERVICE = defineStatement<[businessId: string, serviceId: string], { id: string }>({
  name: 'waitlist_find_active_service',
  text: 'SELECT id FROM services WHERE business_id = $1 AND id = $2 AND active',
});

/** The waitlist's SQL, run through the project's statement layer on the ambient transaction. */
@Injectable()
export class WaitlistRepository {
  constructor(private readonly database: Database) {}

  /** A second entry of the client for the service violates ONE_ENTRY_PER_CLIENT_AND_SERVICE. */
  insert(businessId: string, entry: Omit<WaitlistEntryRecord, 'createdAt'>): Promise<WaitlistEntryRecord> {
    return this.database.one(INSERT_ENTRY, [entry.id, businessId, entry.clientId, entry.serviceId, entry.from, entry.to, entry.note]);
  }

  findById(businessId: string, id: string): Promise<WaitlistEntryRecord | null> {
    return this.database.maybeOne(FIND_ENTRY, [businessId, id]);
  }

  /** Oldest first: the order in which the business should offer a freed slot. */
  list(businessId: string, serviceId: string | null, limit: number): Promise<WaitlistEntryRecord[]> {
    return this.database.rows(LIST_ENTRIES, [businessId, serviceId, limit]);
  }

  /** The client's consent to be contacted; null when the business has no such client. */
  async clientConsent(businessId: string, clientId: string): Promise<boolean | null> {
    return (await this.database.maybeOne(FIND_CLIENT_CONSENT, [businessId, clientId]))?.consent ?? null;
  }

  async activeServiceExists(businessId: string, serviceId: string): Promise<boolean> {
    return (await this.database.maybeOne(FIND_ACTIVE_SERVICE, [businessId, serviceId])) !== null;
  }
}
