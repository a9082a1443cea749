import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { StaffServiceEntity } from '#database/entities/staff-service.entity.js';
import { StaffTimeBlockEntity } from '#database/entities/staff-time-block.entity.js';
import { StaffWorkingHoursEntity } from '#database/entities/staff-working-hours.entity.js';
import { StaffEntity } from '#database/entities/staff.entity.js';
import { managerFor } from '#database/transaction-context.js';

/** Staff members and what shapes their availability: weekly hours, time blocks, services performed. */
@Injectable()
export class StaffRepository {
  constructor(private readonly dataSource: DataSource) {}

  private manager(manager?: EntityManager): EntityManager {
    return managerFor(this.dataSource, manager);
  }

  async insert(staff: StaffEntity, manager?: EntityManager): Promise<void> {
    await this.manager(manager).getRepository(StaffEntity).insert(staff);
  }

  async insertWorkingHours(hours: StaffWorkingHoursEntity[], manager?: EntityManager): Promise<void> {
    if (hours.length > 0) await this.manager(manager).getRepository(StaffWorkingHoursEntity).insert(hours);
  }

  async insertTimeBlocks(blocks: StaffTimeBlockEntity[], manager?: EntityManager): Promise<void> {
    if (blocks.length > 0) await this.manager(manager).getRepository(StaffTimeBlockEntity).insert(blocks);
  }

  async insertServices(links: StaffServiceEntity[], manager?: EntityManager): Promise<void> {
    if (links.length > 0) await this.manager(manager).getRepository(StaffServiceEntity).insert(links);
  }

  // Joins the ambient transaction (managerFor): a write reads on its own connection.

  findById(businessId: string, staffId: string, manager?: EntityManager): Promise<StaffEntity | null> {
    return managerFor(this.dataSource, manager).getRepository(StaffEntity).findOneBy({ businessId, id: staffId });
  }
}
