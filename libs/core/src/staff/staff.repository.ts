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

  // The reads below join the ambient transaction (managerFor), so a write that checks a slot reads
  // on its own connection and sees its own uncommitted rows.

  findById(businessId: string, staffId: string, manager?: EntityManager): Promise<StaffEntity | null> {
    return managerFor(this.dataSource, manager).getRepository(StaffEntity).findOneBy({ businessId, id: staffId });
  }

  listWorkingHours(businessId: string, staffId: string, manager?: EntityManager): Promise<StaffWorkingHoursEntity[]> {
    return managerFor(this.dataSource, manager).getRepository(StaffWorkingHoursEntity).findBy({ businessId, staffId });
  }

  /** Ids of the services the staff member performs; empty means every service. */
  async listServiceIds(businessId: string, staffId: string, manager?: EntityManager): Promise<string[]> {
    const links = await managerFor(this.dataSource, manager)
      .getRepository(StaffServiceEntity)
      .find({ select: { serviceId: true }, where: { businessId, staffId } });
    return links.map((link) => link.serviceId);
  }

  /** The staff member's time blocks that overlap [start, end). */
  listTimeBlocksOverlapping(
    businessId: string,
    staffId: string,
    start: Date,
    end: Date,
    manager?: EntityManager,
  ): Promise<StaffTimeBlockEntity[]> {
    return managerFor(this.dataSource, manager)
      .getRepository(StaffTimeBlockEntity)
      .createQueryBuilder('b')
      .where('b.business_id = :businessId AND b.staff_id = :staffId', { businessId, staffId })
      .andWhere('b.starts_at < :end AND b.ends_at > :start', { start, end })
      .getMany();
  }
}
