import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import { defineStatement } from '#database/statement.js';
import { slotFactsOf, type StaffSlotFacts } from '../availability/slot-facts.repository.js';
import type { WeeklyHours } from '../availability/working-hours.js';

/** A member who might take an "any staff" booking, with what decides whether it can, and its load that day. */
export interface BookingCandidate {
  id: string;
  name: string;
  active: boolean;
  slotFacts: StaffSlotFacts;
  /** Its PENDING/CONFIRMED appointments that local day. */
  dayCount: number;
  /** Those of them that start before the requested start. */
  countBefore: number;
}

interface CandidateRow {
  id: string;
  name: string;
  active: boolean;
  working_hours: WeeklyHours[];
  service_ids: string[];
  appointments: [number, number][];
  blocks: [number, number][];
  day_count: number;
  count_before: number;
}

/**
 * The members of a business who could take a service at a start (active, and performing it as
 * far as their service lists tell; checkSlot decides), each with its slot facts and that local
 * day's load, in one round trip. The appointments' conditions are the exclusion index's, written
 * out so that it is searched by member and interval (see slot-facts.repository.ts).
 */
const CANDIDATES = defineStatement<
  [businessId: string, serviceId: string, start: Date, end: Date, dayStart: Date, dayEnd: Date],
  CandidateRow
>({
  name: 'booking_candidates',
  text: `SELECT m.id, m.name, m.active,
       COALESCE((SELECT json_agg(json_build_object('weekday', wh.weekday, 'startTime', wh.start_time, 'endTime', wh.end_time))
                   FROM staff_working_hours wh WHERE wh.business_id = $1 AND wh.staff_id = m.id), '[]') AS working_hours,
       COALESCE((SELECT json_agg(ls.service_id) FROM staff_services ls WHERE ls.business_id = $1 AND ls.staff_id = m.id), '[]') AS service_ids,
       COALESCE((SELECT json_agg(json_build_array(extract(epoch FROM ap.starts_at) * 1000, extract(epoch FROM ap.ends_at) * 1000))
                   FROM appointments ap
                  WHERE ap.staff_id = m.id AND ap.status IN ('PENDING', 'CONFIRMED')
                    AND tstzrange(ap.starts_at, ap.ends_at, '[)') && tstzrange($3::timestamptz, $4::timestamptz, '[)')
                    AND ap.business_id = $1), '[]') AS appointments,
       COALESCE((SELECT json_agg(json_build_array(extract(epoch FROM tb.starts_at) * 1000, extract(epoch FROM tb.ends_at) * 1000))
                   FROM staff_time_blocks tb
                  WHERE tb.business_id = $1 AND tb.staff_id = m.id AND tb.starts_at < $4::timestamptz AND tb.ends_at > $3::timestamptz), '[]') AS blocks,
       day.day_count, day.count_before
  FROM staff m
  CROSS JOIN LATERAL (
    SELECT count(*)::int AS day_count, (count(*) FILTER (WHERE d.starts_at < $3::timestamptz))::int AS count_before
      FROM appointments d
     WHERE d.staff_id = m.id AND d.status IN ('PENDING', 'CONFIRMED')
       AND tstzrange(d.starts_at, d.ends_at, '[)') && tstzrange($5::timestamptz, $6::timestamptz, '[)')
       AND d.starts_at >= $5::timestamptz AND d.starts_at < $6::timestamptz AND d.business_id = $1) day
 WHERE m.business_id = $1 AND m.active
   AND (NOT EXISTS (SELECT 1 FROM staff_services ls WHERE ls.staff_id = m.id)
        OR EXISTS (SELECT 1 FROM staff_services ls WHERE ls.staff_id = m.id AND ls.service_id = $2))
 ORDER BY m.id`,
});

@Injectable()
export class BookingCandidatesRepository {
  constructor(private readonly database: Database) {}

  /** Joins the ambient transaction, so the booking sees its own uncommitted rows. */
  async load(
    businessId: string,
    serviceId: string,
    slot: { start: Date; end: Date },
    day: { start: Date; end: Date },
  ): Promise<BookingCandidate[]> {
    const rows = await this.database.rows(CANDIDATES, [businessId, serviceId, slot.start, slot.end, day.start, day.end]);
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      active: row.active,
      slotFacts: slotFactsOf(row),
      dayCount: row.day_count,
      countBefore: row.count_before,
    }));
  }
}
