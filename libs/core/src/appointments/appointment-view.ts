import type { AppointmentStatus } from '#database/entities/appointment.entity.js';

/**
 * An appointment as the API may show it, with its staff member's and client's names. The
 * appointment code and the cancellation reason are not part of it: they never leave the database.
 */
export interface AppointmentView {
  id: string;
  status: AppointmentStatus;
  startsAt: Date;
  endsAt: Date;
  durationMin: number;
  service: { id: string | null; name: string };
  priceCents: number;
  currency: string;
  staff: { id: string; name: string };
  client: { id: string; name: string };
  source: string;
  locationId: string | null;
  rescheduledFromId: string | null;
  /** The appointment that replaced this one (docs/design-record.md#d23), derived when read. */
  rescheduledToId: string | null;
  /** The partner's own data (docs/design-record.md#d23). */
  metadata: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
}
