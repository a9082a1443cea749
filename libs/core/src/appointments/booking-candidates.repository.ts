import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import { defineStatement } from '#database/statement.js';
import { slotFactsOf, slotFactsSelectList, type SlotFactsColumns, type StaffSlotFacts } from '../availability/slot-facts.repository.js';
import { performsServiceSql } from '../staff/performs-service.sql.js';

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

interface CandidateRow extends SlotFactsColumns {
  id: string;
  name: string;
  active: boolean;
  day_count: number;
  count_before: number;
}

/**
 * The members of a business who could take a service at a start (active, and performing it;
 * checkSlot decides), each with the slot facts a named booking reads (slotFactsSelectList) and
 * that local day's load, in one round trip. The day's appointments are searched, like the slot's,
 * by the exclusion index's member and interval.
 */
const CANDIDATES = defineStatement<
  [businessId: string, serviceId: string, start: Date, end: Date, dayStart: Date, dayEnd: Date],
  CandidateRow
>({
  name: 'booking_candidates',
  text: `SELECT m.id, m.name, m.active,
       ${slotFactsSelectList({ businessId: '$1', staffId: 'm.id', start: '$3::timestamptz', end: '$4::timestamptz', replacingId: 'NULL::uuid' })},
       day.day_count, day.count_before
  FROM staff m
  CROSS JOIN LATERAL (
    SELECT count(*)::int AS day_count, (count(*) FILTER (WHERE d.starts_at < $3::timestamptz))::int AS count_before
      FROM appointments d
     WHERE d.staff_id = m.id AND d.status IN ('PENDING', 'CONFIRMED')
       AND tstzrange(d.starts_at, d.ends_at, '[)') && tstzrange($5::timestamptz, $6::timestamptz, '[)')
       AND d.starts_at >= $5::timestamptz AND d.starts_at < $6::timestamptz AND d.business_id = $1) day
 WHERE m.business_id = $1 AND m.active AND ${performsServiceSql('m.id', '$2::uuid')}
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
