import { Injectable } from '@nestjs/common';
import type { ServiceEntity } from '#database/entities/service.entity.js';
import type { StaffEntity } from '#database/entities/staff.entity.js';
import { AppointmentsRepository } from '../appointments/appointments.repository.js';
import { DomainError } from '../errors/domain-error.js';
import { StaffRepository } from '../staff/staff.repository.js';
import { checkSlot, performsService } from './slot-check.js';

export interface SlotRequest {
  businessId: string;
  /** IANA time zone of the business. */
  timezone: string;
  staff: StaffEntity;
  /** Null when the appointment's service no longer exists. */
  service: ServiceEntity | null;
  startsAt: Date;
  durationMin: number;
  /** The appointment a reschedule replaces: its own interval does not count as taken (D6). */
  replacingId?: string;
}

/**
 * Decides whether a slot is free (D6) and says no with SLOT_UNAVAILABLE or SLOT_TAKEN. It runs in
 * the write's transaction; it gives the early, precise answer, while the exclusion constraint on
 * appointments stays the one guarantee against a concurrent booking of the same slot.
 */
@Injectable()
export class SlotAvailabilityService {
  constructor(
    private readonly staff: StaffRepository,
    private readonly appointments: AppointmentsRepository,
  ) {}

  async assertFree(request: SlotRequest, now: Date = new Date()): Promise<void> {
    const { businessId, staff, service } = request;
    const slot = { start: request.startsAt, end: new Date(request.startsAt.getTime() + request.durationMin * 60_000) };
    // One after the other: inside a transaction they share one connection anyway.
    const workingHours = await this.staff.listWorkingHours(businessId, staff.id);
    const servicesOfStaff = await this.staff.listServiceIds(businessId, staff.id);
    const appointments = await this.appointments.listActiveOverlapping(
      businessId,
      staff.id,
      slot.start,
      slot.end,
      request.replacingId ?? null,
    );
    const blocks = await this.staff.listTimeBlocksOverlapping(businessId, staff.id, slot.start, slot.end);
    const refusal = checkSlot({
      now,
      slot,
      timezone: request.timezone,
      staffActive: staff.active,
      service: service && { active: service.active, performedByStaff: performsService(servicesOfStaff, service.id) },
      workingHours,
      appointments: appointments.map((a) => ({ start: a.startsAt, end: a.endsAt })),
      blocks: blocks.map((b) => ({ start: b.startsAt, end: b.endsAt })),
    });
    if (refusal) throw new DomainError(refusal.code, refusal.detail);
  }
}
