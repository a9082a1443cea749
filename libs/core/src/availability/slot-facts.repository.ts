import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { ACTIVE_APPOINTMENT_STATUSES } from '#database/entities/appointment.entity.js';
import { managerFor } from '#database/transaction-context.js';
import type { TimeInterval } from './time-interval.js';
import type { WeeklyHours } from './working-hours.js';

/** What the database knows about a staff member's time around a slot. */
export interface StaffSlotFacts {
  workingHours: WeeklyHours[];
  /** Ids of the services the staff member performs; empty means every service. */
  serviceIds: string[];
  /** PENDING/CONFIRMED appointments overlapping the slot, the one being replaced left out. */
  appointments: TimeInterval[];
  /** Time blocks overlapping the slot. */
  blocks: TimeInterval[];
}

interface SlotFactsRow {
  working_hours: WeeklyHours[];
  service_ids: string[];
  appointments: [number, number][];
  blocks: [number, number][];
}

// Instants travel as epoch milliseconds: exact for every instant the API can write, and no
// date-string parsing on the way back.
const SLOT_FACTS = `
SELECT
  COALESCE((SELECT json_agg(json_build_object('weekday', h.weekday, 'startTime', h.start_time, 'endTime', h.end_time))
              FROM staff_working_hours h WHERE h.business_id = $1 AND h.staff_id = $2), '[]') AS working_hours,
  COALESCE((SELECT json_agg(l.service_id) FROM staff_services l WHERE l.business_id = $1 AND l.staff_id = $2), '[]') AS service_ids,
  COALESCE((SELECT json_agg(json_build_array(extract(epoch FROM a.starts_at) * 1000, extract(epoch FROM a.ends_at) * 1000))
              FROM appointments a
             WHERE a.business_id = $1 AND a.staff_id = $2 AND a.status = ANY($6::text[])
               AND a.starts_at < $4 AND a.ends_at > $3 AND a.id IS DISTINCT FROM $5::uuid), '[]') AS appointments,
  COALESCE((SELECT json_agg(json_build_array(extract(epoch FROM b.starts_at) * 1000, extract(epoch FROM b.ends_at) * 1000))
              FROM staff_time_blocks b
             WHERE b.business_id = $1 AND b.staff_id = $2 AND b.starts_at < $4 AND b.ends_at > $3), '[]') AS blocks`;

const interval = ([start, end]: [number, number]): TimeInterval => ({ start: new Date(start), end: new Date(end) });

/**
 * The availability facts of one staff member around a slot, in one round trip: a booking checks
 * them on every request, so four small queries cost more than their rows.
 */
@Injectable()
export class SlotFactsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Joins the ambient transaction, so a write sees its own uncommitted rows. */
  async load(
    businessId: string,
    staffId: string,
    slot: TimeInterval,
    replacingId: string | null,
    manager?: EntityManager,
  ): Promise<StaffSlotFacts> {
    const [row]: SlotFactsRow[] = await managerFor(this.dataSource, manager).query(SLOT_FACTS, [
      businessId,
      staffId,
      slot.start,
      slot.end,
      replacingId,
      ACTIVE_APPOINTMENT_STATUSES,
    ]);
    return {
      workingHours: row.working_hours,
      serviceIds: row.service_ids,
      appointments: row.appointments.map(interval),
      blocks: row.blocks.map(interval),
    };
  }
}
