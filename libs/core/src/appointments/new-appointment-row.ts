import { AppointmentEntity, type AppointmentStatus } from '#database/entities/appointment.entity.js';
import { newId } from '#database/new-id.js';
import { generateAppointmentCode } from './appointment-code.js';

/**
 * The terms an appointment is booked on, copied onto its row so that later changes to the
 * service (or its deletion) leave the appointment as it was agreed.
 */
export interface BookedTerms {
  serviceId: string | null;
  serviceName: string;
  durationMin: number;
  priceCents: number;
  currency: string;
}

/** What a creation decides about a new appointment; the rules that decide it stay with the caller. */
export interface AppointmentRowFields {
  businessId: string;
  staffId: string;
  clientId: string;
  terms: BookedTerms;
  status: AppointmentStatus;
  startsAt: Date;
  source: string;
  locationId?: string | null;
  rescheduledFromId?: string | null;
  cancellationReason?: string | null;
  /** The partner's own data (docs/design-record.md#d23); default `{}`. A reschedule carries the old one's. */
  metadata?: Record<string, string>;
  /** The desk code of a row written as it was (a fixture); default: a new one. */
  code?: string;
}

/** The terms of booking a service as it is now, in the business's currency. */
export function termsOf(service: { id: string; name: string; durationMin: number; priceCents: number }, currency: string): BookedTerms {
  return {
    serviceId: service.id,
    serviceName: service.name,
    durationMin: service.durationMin,
    priceCents: service.priceCents,
    currency,
  };
}

/**
 * A new appointment row, filled the same way by every creation (a booking, a reschedule, a
 * fixture): a fresh id and desk code, the end from the booked duration, the cancellation dated
 * when it is created cancelled, and both timestamps at `now`.
 */
export function newAppointmentRow(fields: AppointmentRowFields, now: Date): AppointmentEntity {
  const { terms } = fields;
  return Object.assign(new AppointmentEntity(), {
    id: newId(),
    businessId: fields.businessId,
    staffId: fields.staffId,
    serviceId: terms.serviceId,
    serviceName: terms.serviceName,
    clientId: fields.clientId,
    status: fields.status,
    startsAt: fields.startsAt,
    endsAt: new Date(fields.startsAt.getTime() + terms.durationMin * 60_000),
    durationMin: terms.durationMin,
    priceCents: terms.priceCents,
    currency: terms.currency,
    source: fields.source,
    locationId: fields.locationId ?? null,
    rescheduledFromId: fields.rescheduledFromId ?? null,
    metadata: fields.metadata ?? {},
    code: fields.code ?? generateAppointmentCode(),
    cancellationReason: fields.cancellationReason ?? null,
    cancelledAt: fields.status === 'CANCELLED' ? now : null,
    createdAt: now,
    updatedAt: now,
  } satisfies AppointmentEntity);
}
