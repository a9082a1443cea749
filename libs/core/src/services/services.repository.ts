import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { ServiceEntity } from '#database/entities/service.entity.js';
import { managerFor } from '#database/transaction-context.js';

@Injectable()
export class ServicesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return managerFor(this.dataSource, manager).getRepository(ServiceEntity);
  }

  /** Every service of the business, by name: a catalogue is small, so it is not paginated. */
  listByBusiness(businessId: string): Promise<ServiceEntity[]> {
    return this.repo().find({ where: { businessId }, order: { name: 'ASC', id: 'ASC' } });
  }

  findById(businessId: string, serviceId: string, manager?: EntityManager): Promise<ServiceEntity | null> {
    return this.repo(manager).findOneBy({ businessId, id: serviceId });
  }

  async insert(service: ServiceEntity, manager?: EntityManager): Promise<void> {
    await this.repo(manager).insert(service);
  }
}
