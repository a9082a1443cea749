import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import type { StaffServiceEntity } from '#database/entities/staff-service.entity.js';
import type { StaffTimeBlockEntity } from '#database/entities/staff-time-block.entity.js';
import type { StaffWorkingHoursEntity } from '#database/entities/staff-working-hours.entity.js';
import type { StaffEntity } from '#database/entities/staff.entity.js';
import { defineStatement } from '#database/statement.js';

const INSERT_STAFF = defineStatement<[id: string, businessId: string, name: string, active: boolean, createdAt: Date, updatedAt: Date]>({
  name: 'insert_staff',
  text: 'INSERT INTO staff (id, business_id, name, active, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)',
});

// The rows of a list travel as one array per column: one statement, whatever the count.
const INSERT_WORKING_HOURS = defineStatement<
  [ids: string[], businessIds: string[], staffIds: string[], weekdays: number[], startTimes: string[], endTimes: string[]]
>({
  name: 'insert_staff_working_hours',
  text: `INSERT INTO staff_working_hours (id, business_id, staff_id, weekday, start_time, end_time)
SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::smallint[], $5::time[], $6::time[])`,
});

const INSERT_TIME_BLOCKS = defineStatement<[ids: string[], businessIds: string[], staffIds: string[], startsAt: Date[], endsAt: Date[]]>({
  name: 'insert_staff_time_blocks',
  text: `INSERT INTO staff_time_blocks (id, business_id, staff_id, starts_at, ends_at)
SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::timestamptz[], $5::timestamptz[])`,
});

const INSERT_STAFF_SERVICES = defineStatement<[staffIds: string[], serviceIds: string[], businessIds: string[]]>({
  name: 'insert_staff_services',
  text: `INSERT INTO staff_services (staff_id, service_id, business_id)
SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[])`,
});

const STAFF_BY_ID = defineStatement<[businessId: string, id: string], StaffEntity>({
  name: 'staff_by_id',
  text: `SELECT id, business_id AS "businessId", name, active, created_at AS "createdAt", updated_at AS "updatedAt"
  FROM staff WHERE business_id = $1 AND id = $2`,
});

/** Staff members and what shapes their availability: weekly hours, time blocks, services performed. */
@Injectable()
export class StaffRepository {
  constructor(private readonly database: Database) {}

  async insert(staff: StaffEntity): Promise<void> {
    await this.database.execute(INSERT_STAFF, [staff.id, staff.businessId, staff.name, staff.active, staff.createdAt, staff.updatedAt]);
  }

  async insertWorkingHours(hours: StaffWorkingHoursEntity[]): Promise<void> {
    if (hours.length === 0) return;
    await this.database.execute(INSERT_WORKING_HOURS, [
      hours.map((h) => h.id),
      hours.map((h) => h.businessId),
      hours.map((h) => h.staffId),
      hours.map((h) => h.weekday),
      hours.map((h) => h.startTime),
      hours.map((h) => h.endTime),
    ]);
  }

  async insertTimeBlocks(blocks: StaffTimeBlockEntity[]): Promise<void> {
    if (blocks.length === 0) return;
    await this.database.execute(INSERT_TIME_BLOCKS, [
      blocks.map((b) => b.id),
      blocks.map((b) => b.businessId),
      blocks.map((b) => b.staffId),
      blocks.map((b) => b.startsAt),
      blocks.map((b) => b.endsAt),
    ]);
  }

  async insertServices(links: StaffServiceEntity[]): Promise<void> {
    if (links.length === 0) return;
    await this.database.execute(INSERT_STAFF_SERVICES, [
      links.map((l) => l.staffId),
      links.map((l) => l.serviceId),
      links.map((l) => l.businessId),
    ]);
  }

  findById(businessId: string, staffId: string): Promise<StaffEntity | null> {
    return this.database.maybeOne(STAFF_BY_ID, [businessId, staffId]);
  }
}
