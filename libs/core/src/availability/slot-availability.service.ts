import { Injectable } from '@nestjs/common';
import type { ServiceEntity } from '#database/entities/service.entity.js';
import type { StaffEntity } from '#database/entities/staff.entity.js';
import { DomainError } from '../errors/domain-error.js';
import { checkSlot, performsService, type SlotRefusal } from './slot-check.js';
import { SlotFactsRepository, type StaffSlotFacts } from './slot-facts.repository.js';
import type { TimeInterval } from './time-interval.js';

export interface SlotRequest {
  businessId: string;
  /** IANA time zone of the business. */
  timezone: string;
  staff: Pick<StaffEntity, 'id' | 'active'>;
  /** Null when the appointment's service no longer exists. */
  service: Pick<ServiceEntity, 'id' | 'active'> | null;
  startsAt: Date;
  durationMin: number;
  /** The appointment a reschedule replaces: its own interval does not count as taken (docs/design-record.md#d6). */
  replacingId?: string;
}

/**
 * Decides whether a slot is free (docs/design-record.md#d6) and says no with SLOT_UNAVAILABLE or SLOT_TAKEN. It runs in
 * the write's transaction; it gives the early, precise answer, while the exclusion constraint on
 * appointments stays the one guarantee against a concurrent booking of the same slot.
 */
@Injectable()
export class SlotAvailabilityService {
  constructor(private readonly facts: SlotFactsRepository) {}

  async assertFree(request: SlotRequest, now: Date = new Date()): Promise<void> {
    const slot = slotOf(request);
    const facts = await this.facts.load(request.businessId, request.staff.id, slot, request.replacingId ?? null);
    this.assertFreeGiven(request, facts, now);
  }

  /** The same decision on facts already read (a booking reads them with its parties). */
  assertFreeGiven(request: SlotRequest, facts: StaffSlotFacts, now: Date = new Date()): void {
    const refusal = this.refusalGiven(request, facts, now);
    if (refusal) throw new DomainError(refusal.code, refusal.detail);
  }

  /** Why the slot cannot be booked with that staff member, or null when it can. */
  refusalGiven(request: SlotRequest, facts: StaffSlotFacts, now: Date = new Date()): SlotRefusal | null {
    const { staff, service } = request;
    return checkSlot({
      now,
      slot: slotOf(request),
      timezone: request.timezone,
      staffActive: staff.active,
      service: service && { active: service.active, performedByStaff: performsService(facts.serviceIds, service.id) },
      workingHours: facts.workingHours,
      appointments: facts.appointments,
      blocks: facts.blocks,
    });
  }
}

const slotOf = (request: SlotRequest): TimeInterval => ({
  start: request.startsAt,
  end: new Date(request.startsAt.getTime() + request.durationMin * 60_000),
});
