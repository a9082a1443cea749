import type { AppointmentView } from '#core/appointments/appointment-view.js';
import type { Schemas } from '#contract/contract-types.js';
import { isoTime } from './iso-time.js';

/** Every field, always present; the view carries neither the appointment code nor the cancellation reason. */
export function toAppointment(appointment: AppointmentView): Schemas['Appointment'] {
  return {
    id: appointment.id,
    status: appointment.status,
    scheduledAt: isoTime(appointment.startsAt),
    endsAt: isoTime(appointment.endsAt),
    durationMin: appointment.durationMin,
    service: { id: appointment.service.id, name: appointment.service.name },
    price: { cents: appointment.priceCents, currency: appointment.currency },
    staff: { id: appointment.staff.id, name: appointment.staff.name },
    client: { id: appointment.client.id, name: appointment.client.name },
    source: appointment.source,
    locationId: appointment.locationId,
    rescheduledFromId: appointment.rescheduledFromId,
    rescheduledToId: appointment.rescheduledToId,
    metadata: appointment.metadata,
    createdAt: isoTime(appointment.createdAt),
    updatedAt: isoTime(appointment.updatedAt),
  };
}
