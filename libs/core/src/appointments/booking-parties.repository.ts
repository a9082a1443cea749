import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import type { BusinessEntity } from '#database/entities/business.entity.js';
import type { ClientEntity } from '#database/entities/client.entity.js';
import type { ServiceEntity } from '#database/entities/service.entity.js';
import type { StaffEntity } from '#database/entities/staff.entity.js';
import { defineStatement } from '#database/statement.js';
import { slotFactsOf, slotFactsSelectList, type SlotFactsColumns, type StaffSlotFacts } from '../availability/slot-facts.repository.js';
import { candidateOf, candidatesJson, type BookingCandidate, type CandidateRow } from './booking-candidates.js';

export type BookingBusiness = Pick<BusinessEntity, 'name' | 'timezone' | 'locale' | 'currency' | 'autoConfirm' | 'notificationEmail'>;
export type BookingStaff = Pick<StaffEntity, 'id' | 'name' | 'active'>;
export type BookingService = Pick<ServiceEntity, 'id' | 'name' | 'durationMin' | 'priceCents' | 'active'>;
export type BookingClient = Pick<ClientEntity, 'id' | 'name' | 'email'>;

/** Who and what a booking names, each null when the business has no such row. */
export interface BookingParties {
  business: BookingBusiness | null;
  staff: BookingStaff | null;
  service: BookingService | null;
  /** Null also when the booking names no existing client (it creates one). */
  client: BookingClient | null;
  /** The staff member's availability facts for the service's duration from the start (empty without both). */
  slotFacts: StaffSlotFacts;
  /** "Any staff": the members who might take the slot, by id; empty when a member is named or the service is unknown. */
  candidates: BookingCandidate[];
}

export interface BookingPartyIds {
  /** Null for "any staff": no staff member, and no slot facts. */
  staffId: string | null;
  serviceId: string;
  clientId: string | null;
}

interface PartiesRow extends SlotFactsColumns {
  business_name: string;
  timezone: string;
  locale: string | null;
  currency: string;
  auto_confirm: boolean;
  notification_email: string | null;
  staff_id: string | null;
  staff_name: string;
  staff_active: boolean;
  service_id: string | null;
  service_name: string;
  duration_min: number;
  price_cents: number;
  service_active: boolean;
  client_id: string | null;
  client_name: string;
  client_email: string | null;
  candidates: CandidateRow[] | null;
}

// Scoped to the business on every join: an id of another business's row finds nothing. The slot
// ends where the service's duration says, so its facts come with the service in the same query;
// for "any staff", so do the candidates' (the slot's local day from the business's time zone).
const PARTIES = defineStatement<
  [businessId: string, staffId: string | null, serviceId: string, clientId: string | null, startsAt: Date],
  PartiesRow
>({
  name: 'booking_parties',
  text: `
SELECT b.name AS business_name, b.timezone, b.locale, b.currency, b.auto_confirm, b.notification_email,
       s.id AS staff_id, s.name AS staff_name, s.active AS staff_active,
       v.id AS service_id, v.name AS service_name, v.duration_min, v.price_cents, v.active AS service_active,
       c.id AS client_id, c.name AS client_name, c.email AS client_email,
       ${slotFactsSelectList({
         businessId: '$1',
         staffId: '$2',
         start: '$5::timestamptz',
         end: "$5::timestamptz + v.duration_min * interval '1 minute'",
         replacingId: 'NULL',
       })},
       CASE WHEN $2::uuid IS NULL AND v.id IS NOT NULL THEN ${candidatesJson({
         businessId: '$1',
         serviceId: 'v.id',
         start: '$5::timestamptz',
         end: "$5::timestamptz + v.duration_min * interval '1 minute'",
         dayStart: "date_trunc('day', $5::timestamptz AT TIME ZONE b.timezone) AT TIME ZONE b.timezone",
         dayEnd: "(date_trunc('day', $5::timestamptz AT TIME ZONE b.timezone) + interval '1 day') AT TIME ZONE b.timezone",
       })} END AS candidates
  FROM businesses b
  LEFT JOIN staff s ON s.business_id = b.id AND s.id = $2
  LEFT JOIN services v ON v.business_id = b.id AND v.id = $3
  LEFT JOIN clients c ON c.business_id = b.id AND c.id = $4
 WHERE b.id = $1`,
});

/**
 * The business, staff member, service and client of a booking, and the staff member's slot facts
 * (or, for "any staff", every candidate's), in one round trip: every booking needs them all
 * before it can decide anything.
 */
const NO_FACTS: SlotFactsColumns = { working_hours: [], service_ids: [], appointments: [], blocks: [] };

@Injectable()
export class BookingPartiesRepository {
  constructor(private readonly database: Database) {}

  async load(businessId: string, ids: BookingPartyIds, startsAt: Date): Promise<BookingParties> {
    const row = await this.database.maybeOne(PARTIES, [businessId, ids.staffId, ids.serviceId, ids.clientId, startsAt]);
    if (!row) return { business: null, staff: null, service: null, client: null, slotFacts: slotFactsOf(NO_FACTS), candidates: [] };
    return {
      business: {
        name: row.business_name,
        timezone: row.timezone,
        locale: row.locale,
        currency: row.currency,
        autoConfirm: row.auto_confirm,
        notificationEmail: row.notification_email,
      },
      staff: row.staff_id === null ? null : { id: row.staff_id, name: row.staff_name, active: row.staff_active },
      service:
        row.service_id === null
          ? null
          : {
              id: row.service_id,
              name: row.service_name,
              durationMin: row.duration_min,
              priceCents: row.price_cents,
              active: row.service_active,
            },
      client: row.client_id === null ? null : { id: row.client_id, name: row.client_name, email: row.client_email },
      slotFacts: slotFactsOf(row),
      candidates: (row.candidates ?? []).map(candidateOf),
    };
  }
}
