import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import { ACTIVE_APPOINTMENT_STATUSES } from '#database/entities/appointment.entity.js';
import { defineStatement } from '#database/statement.js';
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

/** The columns of the slot facts select-list, as pg returns them (JSON, parsed). */
export interface SlotFactsColumns {
  working_hours: WeeklyHours[];
  service_ids: string[];
  appointments: [number, number][];
  blocks: [number, number][];
}

/** The SQL (placeholders, or expressions over other columns) the slot facts are read for. */
export interface SlotFactsOperands {
  businessId: string;
  staffId: string;
  start: string;
  end: string;
  /** The appointment a reschedule replaces, or NULL. */
  replacingId: string;
}

// Written out as in the partial exclusion index appointments_no_overlap, whose predicate the
// planner must see to search it by interval: a status parameter would leave it scanning every
// active appointment of the staff member.
const ACTIVE_STATUS_LIST = ACTIVE_APPOINTMENT_STATUSES.map((status) => `'${status}'`).join(', ');

/**
 * The select-list of the slot facts (SlotFactsColumns): for this repository's query and for the
 * booking's, which reads them with the parties in the same round trip. Its subqueries' aliases
 * (wh, ss, ap, tb) must not be the enclosing query's: an operand like `b.id` would bind to them.
 * Instants travel as epoch milliseconds: exact for every instant the API can write, and no
 * date-string parsing.
 */
export const slotFactsSelectList = (o: SlotFactsOperands): string => `
  COALESCE((SELECT json_agg(json_build_object('weekday', wh.weekday, 'startTime', wh.start_time, 'endTime', wh.end_time))
              FROM staff_working_hours wh WHERE wh.business_id = ${o.businessId} AND wh.staff_id = ${o.staffId}), '[]') AS working_hours,
  COALESCE((SELECT json_agg(ss.service_id) FROM staff_services ss
             WHERE ss.business_id = ${o.businessId} AND ss.staff_id = ${o.staffId}), '[]') AS service_ids,
  COALESCE((SELECT json_agg(json_build_array(extract(epoch FROM ap.starts_at) * 1000, extract(epoch FROM ap.ends_at) * 1000))
              FROM appointments ap
             WHERE ap.staff_id = ${o.staffId} AND ap.status IN (${ACTIVE_STATUS_LIST})
               AND tstzrange(ap.starts_at, ap.ends_at, '[)') && tstzrange(${o.start}, ${o.end}, '[)')
               AND ap.business_id = ${o.businessId} AND ap.id IS DISTINCT FROM ${o.replacingId}), '[]') AS appointments,
  COALESCE((SELECT json_agg(json_build_array(extract(epoch FROM tb.starts_at) * 1000, extract(epoch FROM tb.ends_at) * 1000))
              FROM staff_time_blocks tb
             WHERE tb.business_id = ${o.businessId} AND tb.staff_id = ${o.staffId}
               AND tb.starts_at < ${o.end} AND tb.ends_at > ${o.start}), '[]') AS blocks`;

/** Exported for the plan test. */
export const SLOT_FACTS = defineStatement<
  [businessId: string, staffId: string, start: Date, end: Date, replacingId: string | null],
  SlotFactsColumns
>({
  name: 'slot_facts',
  text: `SELECT ${slotFactsSelectList({
    businessId: '$1',
    staffId: '$2',
    start: '$3',
    end: '$4',
    replacingId: '$5::uuid',
  })}`,
});

const interval = ([start, end]: [number, number]): TimeInterval => ({ start: new Date(start), end: new Date(end) });

export function slotFactsOf(row: SlotFactsColumns): StaffSlotFacts {
  return {
    workingHours: row.working_hours,
    serviceIds: row.service_ids,
    appointments: row.appointments.map(interval),
    blocks: row.blocks.map(interval),
  };
}

/**
 * The availability facts of one staff member around a slot, in one round trip: every booking and
 * reschedule checks them, so four small queries cost more than their rows.
 */
@Injectable()
export class SlotFactsRepository {
  constructor(private readonly database: Database) {}

  /** Joins the ambient transaction, so a write sees its own uncommitted rows. */
  async load(businessId: string, staffId: string, slot: TimeInterval, replacingId: string | null): Promise<StaffSlotFacts> {
    const row = await this.database.one(SLOT_FACTS, [businessId, staffId, slot.start, slot.end, replacingId]);
    return slotFactsOf(row);
  }
}
