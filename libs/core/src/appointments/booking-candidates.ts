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

/** A candidate as the statement gives it (row_to_json of the select below). */
export interface CandidateRow extends SlotFactsColumns {
  id: string;
  name: string;
  active: boolean;
  day_count: number;
  count_before: number;
}

/** The SQL the candidates are read for: placeholders, or expressions over the enclosing query's columns. */
export interface CandidateOperands {
  businessId: string;
  serviceId: string;
  /** The slot. */
  start: string;
  end: string;
  /** The slot's local day, in the business's time zone. */
  dayStart: string;
  dayEnd: string;
}

/**
 * The members of a business who could take a service at a start (active, and performing it;
 * checkSlot decides), each with the slot facts a named booking reads (slotFactsSelectList) and
 * that local day's load, as one JSON array, for the booking's read of its parties (one round trip
 * for "any staff" as for a named member). The day's appointments are searched, like the slot's,
 * by the exclusion index's member and interval. Aliases (m, day, d, cand) must not be the
 * enclosing query's.
 */
export const candidatesJson = (o: CandidateOperands): string => `(
  SELECT COALESCE(json_agg(row_to_json(cand) ORDER BY cand.id), '[]')
    FROM (SELECT m.id, m.name, m.active,
                 ${slotFactsSelectList({ businessId: o.businessId, staffId: 'm.id', start: o.start, end: o.end, replacingId: 'NULL::uuid' })},
                 day.day_count, day.count_before
            FROM staff m
           CROSS JOIN LATERAL (
             SELECT count(*)::int AS day_count, (count(*) FILTER (WHERE d.starts_at < ${o.start}))::int AS count_before
               FROM appointments d
              WHERE d.staff_id = m.id AND d.status IN ('PENDING', 'CONFIRMED')
                AND tstzrange(d.starts_at, d.ends_at, '[)') && tstzrange(${o.dayStart}, ${o.dayEnd}, '[)')
                AND d.starts_at >= ${o.dayStart} AND d.starts_at < ${o.dayEnd} AND d.business_id = ${o.businessId}) day
           WHERE m.business_id = ${o.businessId} AND m.active AND ${performsServiceSql('m.id', o.serviceId)}) cand)`;

export function candidateOf(row: CandidateRow): BookingCandidate {
  return {
    id: row.id,
    name: row.name,
    active: row.active,
    slotFacts: slotFactsOf(row),
    dayCount: row.day_count,
    countBefore: row.count_before,
  };
}
