import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import type { ClientEntity } from '#database/entities/client.entity.js';
import { defineStatement, type BoundStatement, type Statement, type StatementParams } from '#database/statement.js';
import { clientExists } from './client-exists.js';
import { violatedConstraint } from '#database/violated-constraint.js';
import type { EpochMicros } from '../pagination/epoch-micros.js';
import type { PageRequest, PositionedRow } from '../pagination/page.js';
import { pageStart, type PageStart } from '../pagination/page-start.js';
import type { ClientLookup } from './client-lookup.js';
import type { ClientRecord } from './client-record.js';

interface ClientRow {
  id: string;
  name: string;
  phone: string | null;
  email: string | null;
  birth_date: string | null;
  metadata: Record<string, string>;
  created_at: Date;
  updated_at: Date;
  position: string;
}

type ClientPageParams = [businessId: string, ...start: PageStart, take: number];
type ClientByPhonePageParams = [businessId: string, ...start: PageStart, take: number, phone: string];
type ClientByEmailPageParams = [businessId: string, ...start: PageStart, take: number, email: string];
type ClientByContactPageParams = [businessId: string, ...start: PageStart, take: number, phone: string, email: string];

const INSERT_CLIENT = defineStatement<
  [
    id: string,
    businessId: string,
    name: string,
    phone: string | null,
    email: string | null,
    birthDate: string | null,
    guardianName: string | null,
    guardianEmail: string | null,
    consent: boolean,
    consentAt: Date | null,
    notes: string | null,
    createdAt: Date,
    updatedAt: Date,
    metadata: string,
  ],
  { createdAt: Date; updatedAt: Date }
>({
  name: 'insert_client',
  text: `INSERT INTO clients (id, business_id, name, phone, email, birth_date, guardian_name, guardian_email, consent, consent_at,
                     notes, created_at, updated_at, metadata)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::jsonb)
ON CONFLICT DO NOTHING
RETURNING created_at AS "createdAt", updated_at AS "updatedAt"`,
});

/**
 * The existing client a new one clashed with: the one with its phone first, else the one with its
 * e-mail (in any case). Asked only after an insert that did nothing (ON CONFLICT DO NOTHING keeps
 * the transaction usable, so the clash is named in it: docs/design-record.md#d23).
 */
export const CLIENT_CLASH = defineStatement<[businessId: string, phone: string | null, email: string | null], ClientClash>({
  name: 'client_clash',
  text: `SELECT id, coalesce(phone = $2::text, false) AS "samePhone"
  FROM clients
 WHERE business_id = $1 AND (phone = $2::text OR lower(email) = lower($3::text))
 ORDER BY 2 DESC
 LIMIT 1`,
});

/** The existing client a new one clashed with, and whether it was on the phone (else the e-mail). */
export interface ClientClash {
  id: string;
  samePhone: boolean;
}

/**
 * The CLIENT_EXISTS of a new client that was not inserted because it clashed, naming the existing
 * client; shared by POST /clients and a booking's Form B (AppointmentsRepository).
 */
export async function clientClashError(database: Database, client: Pick<ClientEntity, 'businessId' | 'phone' | 'email'>): Promise<Error> {
  const clash = await database.maybeOne(CLIENT_CLASH, [client.businessId, client.phone, client.email]);
  // Gone between the two statements (deleted meanwhile): still a clash, without its id.
  return clientExists(clash?.samePhone === false ? 'clients_business_email_key' : 'clients_business_phone_key', client, clash?.id) as Error;
}

// The birth date is read as text, as the entity holds it (the driver would make a local-midnight
// Date of a date column).
const CLIENT_BY_ID = defineStatement<[businessId: string, id: string], ClientEntity>({
  name: 'client_by_id',
  text: `SELECT id, business_id AS "businessId", name, phone, email, to_char(birth_date, 'YYYY-MM-DD') AS "birthDate",
       guardian_name AS "guardianName", guardian_email AS "guardianEmail", consent, consent_at AS "consentAt", notes,
       metadata, created_at AS "createdAt", updated_at AS "updatedAt"
  FROM clients WHERE business_id = $1 AND id = $2`,
});

/**
 * A page of clients in (updated_at, id) order: every condition is a bound of the (business_id,
 * updated_at, id) index, so a page deep in the list is an index range scan that stops after
 * `take` rows, with no OFFSET and no sort. Only the returned columns are selected: guardian
 * fields, consent and notes never leave the database.
 */
const CLIENT_PAGE = defineStatement<ClientPageParams, ClientRow>({
  name: 'client_page',
  text: `SELECT c.id, c.name, c.phone, c.email, to_char(c.birth_date, 'YYYY-MM-DD') AS birth_date, c.metadata, c.created_at, c.updated_at,
       (extract(epoch FROM c.updated_at) * 1000000)::bigint::text AS position
  FROM clients c
 WHERE c.business_id = $1 AND (c.updated_at, c.id) > ($2::timestamptz, $3::uuid)
 ORDER BY c.updated_at, c.id
 LIMIT $4`,
});

/**
 * The lookups of D21, one fixed statement each. Phone and e-mail are unique per business, so each
 * is a probe of its unique index (`clients_business_phone_key` on (business_id, phone),
 * `clients_business_email_key` on (business_id, lower(email))) that finds at most one row; the
 * keyset bound and the order are kept so that `updatedSince`, `limit` and cursors mean what they
 * mean on the plain list. `$5`/`$6` arrive normalised (E.164, lower case).
 */
const CLIENT_PAGE_BY_PHONE = defineStatement<ClientByPhonePageParams, ClientRow>({
  name: 'client_page_by_phone',
  text: `SELECT c.id, c.name, c.phone, c.email, to_char(c.birth_date, 'YYYY-MM-DD') AS birth_date, c.metadata, c.created_at, c.updated_at,
       (extract(epoch FROM c.updated_at) * 1000000)::bigint::text AS position
  FROM clients c
 WHERE c.business_id = $1 AND c.phone = $5 AND (c.updated_at, c.id) > ($2::timestamptz, $3::uuid)
 ORDER BY c.updated_at, c.id
 LIMIT $4`,
});

const CLIENT_PAGE_BY_EMAIL = defineStatement<ClientByEmailPageParams, ClientRow>({
  name: 'client_page_by_email',
  text: `SELECT c.id, c.name, c.phone, c.email, to_char(c.birth_date, 'YYYY-MM-DD') AS birth_date, c.metadata, c.created_at, c.updated_at,
       (extract(epoch FROM c.updated_at) * 1000000)::bigint::text AS position
  FROM clients c
 WHERE c.business_id = $1 AND lower(c.email) = $5 AND (c.updated_at, c.id) > ($2::timestamptz, $3::uuid)
 ORDER BY c.updated_at, c.id
 LIMIT $4`,
});

const CLIENT_PAGE_BY_CONTACT = defineStatement<ClientByContactPageParams, ClientRow>({
  name: 'client_page_by_contact',
  text: `SELECT c.id, c.name, c.phone, c.email, to_char(c.birth_date, 'YYYY-MM-DD') AS birth_date, c.metadata, c.created_at, c.updated_at,
       (extract(epoch FROM c.updated_at) * 1000000)::bigint::text AS position
  FROM clients c
 WHERE c.business_id = $1 AND c.phone = $5 AND lower(c.email) = $6 AND (c.updated_at, c.id) > ($2::timestamptz, $3::uuid)
 ORDER BY c.updated_at, c.id
 LIMIT $4`,
});

/** A page statement with its parameters, checked against that statement's own tuple. */
const bound = <P extends StatementParams>(statement: Statement<P, ClientRow>, params: P): BoundStatement<StatementParams, ClientRow> => ({
  statement,
  params,
});

@Injectable()
export class ClientsRepository {
  constructor(private readonly database: Database) {}

  /**
   * Inserts a client. The unique indexes on phone and lower(email) decide whether the client
   * already exists, so two concurrent creations cannot both succeed: their violation is CLIENT_EXISTS.
   */
  async insert(client: ClientEntity): Promise<void> {
    let inserted: { createdAt: Date; updatedAt: Date } | null;
    try {
      inserted = await this.database.maybeOne(INSERT_CLIENT, [
        client.id,
        client.businessId,
        client.name,
        client.phone,
        client.email,
        client.birthDate,
        client.guardianName,
        client.guardianEmail,
        client.consent,
        client.consentAt,
        client.notes,
        client.createdAt,
        client.updatedAt,
        JSON.stringify(client.metadata),
      ]);
    } catch (error) {
      throw clientExists(violatedConstraint(error), client) ?? error;
    }
    if (!inserted) throw await clientClashError(this.database, client);
    // The change clock's stamp (docs/design-record.md#d27), as the row holds it.
    Object.assign(client, inserted);
  }

  findById(businessId: string, clientId: string): Promise<ClientEntity | null> {
    return this.database.maybeOne(CLIENT_BY_ID, [businessId, clientId]);
  }

  /**
   * Clients after the request's position in (updated_at, id) order, from `since` (inclusive) when
   * given, only the one with the lookup's phone and/or e-mail when it names them (D21).
   */
  async listPage(
    businessId: string,
    since: EpochMicros | null,
    request: PageRequest,
    lookup: ClientLookup = { phone: null, email: null },
  ): Promise<PositionedRow<ClientRecord>[]> {
    const { statement, params } = this.pageStatement(businessId, since, request, lookup);
    const rows = await this.database.rows(statement, params);
    return rows.map((row) => ({
      record: {
        id: row.id,
        name: row.name,
        phone: row.phone,
        email: row.email,
        birthDate: row.birth_date,
        metadata: row.metadata,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
      },
      position: { micros: BigInt(row.position), id: row.id },
    }));
  }

  /** The statement listPage runs: the plain page, or with a lookup the statement of its form (D21). */
  pageStatement(
    businessId: string,
    since: EpochMicros | null,
    request: PageRequest,
    lookup: ClientLookup = { phone: null, email: null },
  ): BoundStatement<StatementParams, ClientRow> {
    const start = pageStart(request.after, since);
    if (lookup.phone !== null && lookup.email !== null) {
      return bound(CLIENT_PAGE_BY_CONTACT, [businessId, ...start, request.take, lookup.phone, lookup.email]);
    }
    if (lookup.phone !== null) return bound(CLIENT_PAGE_BY_PHONE, [businessId, ...start, request.take, lookup.phone]);
    if (lookup.email !== null) return bound(CLIENT_PAGE_BY_EMAIL, [businessId, ...start, request.take, lookup.email]);
    return bound(CLIENT_PAGE, [businessId, ...start, request.take]);
  }
}
