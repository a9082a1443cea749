import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { preparedQuery } from '#database/prepared-query.js';
import { managerFor } from '#database/transaction-context.js';
import type { WaitlistEntryRecord } from './waitlist-entry.js';

/** The unique index that keeps a client on a service's waitlist once. */
export const ONE_ENTRY_PER_CLIENT_AND_SERVICE = 'waitlist_entries_client_service_key';

const ENTRY_COLUMNS = `id, client_id AS "clientId", service_id AS "serviceId", from_date::text AS "from",
  to_date::text AS "to", note, created_at AS "createdAt"`;

const INSERT_ENTRY = {
  name: 'waitlist_insert_entry',
  text: `INSERT INTO waitlist_entries (id, business_id, client_id, service_id, from_date, to_date, note)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${ENTRY_COLUMNS}`,
};
const FIND_ENTRY = {
  name: 'waitlist_find_entry',
  text: `SELECT ${ENTRY_COLUMNS} FROM waitlist_entries WHERE business_id = $1 AND id = $2`,
};
const LIST_ENTRIES = {
  name: 'waitlist_list_entries',
  text: `SELECT ${ENTRY_COLUMNS} FROM waitlist_entries
          WHERE business_id = $1 AND ($2::uuid IS NULL OR service_id = $2)
          ORDER BY created_at, id LIMIT $3`,
};
const FIND_CLIENT_CONSENT = {
  name: 'waitlist_find_client_consent',
  text: 'SELECT consent FROM clients WHERE business_id = $1 AND id = $2',
};
const SERVICE_EXISTS = {
  name: 'waitlist_service_exists',
  text: 'SELECT 1 AS found FROM services WHERE business_id = $1 AND id = $2 AND active',
};

@Injectable()
export class WaitlistRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Inserts in the ambient transaction; a second entry of the client for the service violates ONE_ENTRY_PER_CLIENT_AND_SERVICE. */
  async insert(businessId: string, entry: Omit<WaitlistEntryRecord, 'createdAt'>): Promise<WaitlistEntryRecord> {
    const [row] = await preparedQuery<WaitlistEntryRecord>(managerFor(this.dataSource), INSERT_ENTRY, [
      entry.id,
      businessId,
      entry.clientId,
      entry.serviceId,
      entry.from,
      entry.to,
      entry.note,
    ]);
    return row;
  }

  async findById(businessId: string, id: string): Promise<WaitlistEntryRecord | undefined> {
    const [row] = await preparedQuery<WaitlistEntryRecord>(managerFor(this.dataSource), FIND_ENTRY, [businessId, id]);
    return row;
  }

  /** Oldest first: the order in which the business should offer a freed slot. */
  list(businessId: string, serviceId: string | null, limit: number): Promise<WaitlistEntryRecord[]> {
    return preparedQuery<WaitlistEntryRecord>(managerFor(this.dataSource), LIST_ENTRIES, [businessId, serviceId, limit]);
  }

  /** The client's consent to be contacted; undefined when the business has no such client. */
  async clientConsent(businessId: string, clientId: string): Promise<boolean | undefined> {
    const [row] = await preparedQuery<{ consent: boolean }>(managerFor(this.dataSource), FIND_CLIENT_CONSENT, [businessId, clientId]);
    return row?.consent;
  }

  async activeServiceExists(businessId: string, serviceId: string): Promise<boolean> {
    const rows = await preparedQuery(managerFor(this.dataSource), SERVICE_EXISTS, [businessId, serviceId]);
    return rows.length > 0;
  }
}
