import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { ClientEntity } from '#database/entities/client.entity.js';
import { managerFor } from '#database/transaction-context.js';
import { violatedConstraint } from '#database/violated-constraint.js';
import { DomainError } from '../errors/domain-error.js';

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
}
