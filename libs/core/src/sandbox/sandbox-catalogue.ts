import { Injectable } from '@nestjs/common';
import { newId } from '#database/new-id.js';
import { ServicesRepository } from '../services/services.repository.js';
import { StaffRepository } from '../staff/staff.repository.js';
import { SandboxRepository } from './sandbox.repository.js';

/** What a copy made: each live id mapped to its sandbox copy's, and how many rows of each kind. */
export interface CatalogueCopy {
  services: Record<string, string>;
  staff: Record<string, string>;
  counts: { services: number; staff: number; staffServices: number; workingHours: number; timeBlocks: number };
}

function mapped(ids: Map<string, string>, id: string): string {
  const copy = ids.get(id);
  // Every row read belongs to the same business as the staff and services copied before it.
  if (copy === undefined) throw new Error(`Catalogue row points at ${id}, which was not copied.`);
  return copy;
}

/**
 * Copies a business's catalogue (services, staff, the services each performs, working hours, time
 * blocks) to another business row under new ids, through the repositories' own inserts
 * (docs/design-record.md#d19). Clients, appointments, payments, sales, notices and endpoints are
 * not catalogue and are never copied. Runs in the caller's transaction.
 */
@Injectable()
export class SandboxCatalogue {
  constructor(
    private readonly sandboxes: SandboxRepository,
    private readonly services: ServicesRepository,
    private readonly staff: StaffRepository,
  ) {}

  async copy(fromBusinessId: string, toBusinessId: string): Promise<CatalogueCopy> {
    const serviceIds = new Map<string, string>();
    for (const service of await this.services.listByBusiness(fromBusinessId)) {
      const id = newId();
      serviceIds.set(service.id, id);
      await this.services.insert({ ...service, id, businessId: toBusinessId });
    }
    const staffIds = new Map<string, string>();
    for (const member of await this.sandboxes.staffOf(fromBusinessId)) {
      const id = newId();
      staffIds.set(member.id, id);
      await this.staff.insert({
        id,
        businessId: toBusinessId,
        name: member.name,
        active: member.active,
        createdAt: member.created_at,
        updatedAt: member.updated_at,
      });
    }
    const links = await this.sandboxes.staffServicesOf(fromBusinessId);
    await this.staff.insertServices(
      links.map((link) => ({
        businessId: toBusinessId,
        staffId: mapped(staffIds, link.staff_id),
        serviceId: mapped(serviceIds, link.service_id),
      })),
    );
    const hours = await this.sandboxes.workingHoursOf(fromBusinessId);
    await this.staff.insertWorkingHours(
      hours.map((row) => ({
        id: newId(),
        businessId: toBusinessId,
        staffId: mapped(staffIds, row.staff_id),
        weekday: row.weekday,
        startTime: row.start_time,
        endTime: row.end_time,
      })),
    );
    const blocks = await this.sandboxes.timeBlocksOf(fromBusinessId);
    await this.staff.insertTimeBlocks(
      blocks.map((row) => ({
        id: newId(),
        businessId: toBusinessId,
        staffId: mapped(staffIds, row.staff_id),
        startsAt: row.starts_at,
        endsAt: row.ends_at,
      })),
    );
    return {
      services: Object.fromEntries(serviceIds),
      staff: Object.fromEntries(staffIds),
      counts: {
        services: serviceIds.size,
        staff: staffIds.size,
        staffServices: links.length,
        workingHours: hours.length,
        timeBlocks: blocks.length,
      },
    };
  }
}
