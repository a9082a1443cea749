import type { AppointmentEntity } from '#database/entities/appointment.entity.js';
import type { AppointmentView } from './appointment-view.js';

/**
 * The view of an appointment a write has in hand, with the names it has already loaded. The
 * appointment a booking, a reschedule or a cancel answers is active or just left active, and only
 * a RESCHEDULED one is ever replaced, so none has a rescheduledToId (docs/design-record.md#d23).
 */
export function appointmentViewOf(
  appointment: AppointmentEntity,
  staff: { id: string; name: string },
  client: { id: string; name: string },
): AppointmentView {
  return {
    id: appointment.id,
    status: appointment.status,
    startsAt: appointment.startsAt,
    endsAt: appointment.endsAt,
    durationMin: appointment.durationMin,
    service: { id: appointment.serviceId, name: appointment.serviceName },
    priceCents: appointment.priceCents,
    currency: appointment.currency,
    staff: { id: staff.id, name: staff.name },
    client: { id: client.id, name: client.name },
    source: appointment.source,
    locationId: appointment.locationId,
    rescheduledFromId: appointment.rescheduledFromId,
    rescheduledToId: null,
    metadata: appointment.metadata,
    createdAt: appointment.createdAt,
    updatedAt: appointment.updatedAt,
  };
}
