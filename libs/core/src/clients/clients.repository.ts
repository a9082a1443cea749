import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { ClientEntity } from '#database/entities/client.entity.js';
import { managerFor } from '#database/transaction-context.js';
import { violatedConstraint } from '#database/violated-constraint.js';
import { DomainError } from '../errors/domain-error.js';
import type { EpochMicros } from '../pagination/epoch-micros.js';
import { positionOf, SqlParams, type SqlQuery } from '../pagination/keyset-sql.js';
import type { PageRequest, PositionedRow } from '../pagination/page.js';
import { updateOrderTail } from '../pagination/update-order.js';
import type { ClientRecord } from './client-record.js';

interface ClientRow {
  id: string;
  name: string;
  phone: string | null;
  email: string | null;
  birth_date: string | null;
  created_at: Date;
  updated_at: Date;
  position: string;
}

@Injectable()
export class ClientsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Inserts a client. The unique indexes on phone and lower(email) decide whether the client
   * already exists, so two concurrent creations cannot both succeed: their violation is CLIENT_EXISTS.
   */
  async insert(client: ClientEntity, manager?: EntityManager): Promise<void> {
    try {
      await managerFor(this.dataSource, manager).getRepository(ClientEntity).insert(client);
    } catch (error) {
      const constraint = violatedConstraint(error);
      if (constraint === 'clients_business_phone_key') {
        throw new DomainError('CLIENT_EXISTS', `A client with the phone ${client.phone} already exists.`);
      }
      if (constraint === 'clients_business_email_key') {
        throw new DomainError('CLIENT_EXISTS', `A client with the e-mail ${client.email} already exists.`);
      }
      throw error;
    }
  }

  findById(businessId: string, clientId: string, manager?: EntityManager): Promise<ClientEntity | null> {
    return managerFor(this.dataSource, manager).getRepository(ClientEntity).findOneBy({ businessId, id: clientId });
  }

  /** Clients after the request's position in (updated_at, id) order, from `since` (inclusive) when given. */
  async listPage(
    businessId: string,
    since: EpochMicros | null,
    request: PageRequest,
    manager?: EntityManager,
  ): Promise<PositionedRow<ClientRecord>[]> {
    const { sql, params } = this.pageQuery(businessId, since, request);
    const rows: ClientRow[] = await managerFor(this.dataSource, manager).query(sql, params);
    return rows.map((row) => ({
      record: {
        id: row.id,
        name: row.name,
        phone: row.phone,
        email: row.email,
        birthDate: row.birth_date,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
      },
      position: { micros: BigInt(row.position), id: row.id },
    }));
  }

  /**
   * The SQL listPage runs. Only the returned columns are selected: guardian fields, consent and
   * notes never leave the database. The birth date is read as text, as the entity holds it
   * (the driver would make a local-midnight Date of a date column).
   */
  pageQuery(businessId: string, since: EpochMicros | null, request: PageRequest): SqlQuery {
    const params = new SqlParams();
    const sql = `
SELECT c.id, c.name, c.phone, c.email, to_char(c.birth_date, 'YYYY-MM-DD') AS birth_date, c.created_at, c.updated_at,
       ${positionOf('c.updated_at')} AS position
  FROM clients c${updateOrderTail('c', businessId, since, request, params)}`;
    return { sql, params: params.values };
  }
}
