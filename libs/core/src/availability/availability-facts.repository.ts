import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import { defineStatement } from '#database/statement.js';
import { performsServiceSql } from '../staff/performs-service.sql.js';
import { slotFactsSelectList } from './slot-facts.repository.js';
import type { Span } from './time-interval.js';
import type { WeeklyHours } from './working-hours.js';

/** One staff member's facts over a range: what decides which starts it can take. */
export interface MemberFacts {
  id: string;
  active: boolean;
  /** Its service list; empty means every service. */
  serviceIds: string[];
  workingHours: WeeklyHours[];
  /** Its PENDING/CONFIRMED appointments and time blocks overlapping the range, as the database sent them. */
  busy: Span[];
}

export interface AvailabilityFacts {
  timezone: string;
  stepMin: number;
  /** Null when the service is not one of the business's. */
  service: { active: boolean; durationMin: number } | null;
  /** Whether the staff member asked for is one of the business's (true when none was asked for). */
  staffFound: boolean;
  /** The members who could take the service (the one asked for, if any): active and performing it. */
  members: MemberFacts[];
}

interface AvailabilityFactsRow {
  timezone: string;
  step_min: number;
  service_active: boolean | null;
  duration_min: number | null;
  staff_found: boolean;
  members: {
    id: string;
    active: boolean;
    service_ids: string[];
    working_hours: WeeklyHours[];
    appointments: [number, number][];
    blocks: [number, number][];
  }[];
}

/**
 * Everything GET /availability decides on, in one statement: the business's zone and grid, the
 * service, and for each member who could take it (`$3` narrows to one) its hours, its service
 * list, and its busy intervals over [from, to + the service's duration): a start before `to`
 * ends before that. Members are pre-selected here by active and service list, and the rules are
 * applied again in code (performsService), which stays the authority.
 *
 * Each member's facts are the select-list a booking reads for its one slot (slotFactsSelectList),
 * over the range: its appointments' condition is the exclusion index's, so the planner searches
 * that index by member and interval and reads only the appointments that overlap the range.
 */
const AVAILABILITY_FACTS = defineStatement<
  [businessId: string, serviceId: string, staffId: string | null, from: Date, to: Date],
  AvailabilityFactsRow
>({
  name: 'availability_facts',
  text: `SELECT b.timezone, b.step_min, v.active AS service_active, v.duration_min,
       ($3::uuid IS NULL OR EXISTS (SELECT 1 FROM staff f WHERE f.business_id = b.id AND f.id = $3::uuid)) AS staff_found,
       COALESCE((
         SELECT json_agg(json_build_object('id', m.id, 'active', m.active, 'service_ids', facts.service_ids,
                                           'working_hours', facts.working_hours, 'appointments', facts.appointments,
                                           'blocks', facts.blocks) ORDER BY m.id)
           FROM staff m
           CROSS JOIN LATERAL (SELECT ${slotFactsSelectList({
             businessId: 'b.id',
             staffId: 'm.id',
             start: '$4::timestamptz',
             end: "$5::timestamptz + v.duration_min * interval '1 minute'",
             replacingId: 'NULL::uuid',
           })}) facts
          WHERE m.business_id = b.id AND m.active AND ($3::uuid IS NULL OR m.id = $3::uuid)
            AND ${performsServiceSql('m.id', 'v.id')}), '[]') AS members
  FROM businesses b
  LEFT JOIN services v ON v.business_id = b.id AND v.id = $2
 WHERE b.id = $1`,
});

/** Exported for the plan test. */
export { AVAILABILITY_FACTS };

@Injectable()
export class AvailabilityFactsRepository {
  constructor(private readonly database: Database) {}

  async load(businessId: string, serviceId: string, staffId: string | null, from: Date, to: Date): Promise<AvailabilityFacts | null> {
    const row = await this.database.maybeOne(AVAILABILITY_FACTS, [businessId, serviceId, staffId, from, to]);
    if (!row) return null;
    return {
      timezone: row.timezone,
      stepMin: row.step_min,
      service: row.service_active === null ? null : { active: row.service_active, durationMin: row.duration_min! },
      staffFound: row.staff_found,
      members: row.members.map((m) => ({
        id: m.id,
        active: m.active,
        serviceIds: m.service_ids,
        workingHours: m.working_hours,
        busy: [...m.appointments, ...m.blocks],
      })),
    };
  }
}
