import { ACTIVE_APPOINTMENT_STATUSES, type AppointmentStatus } from '#database/entities/appointment.entity.js';

/** Only an appointment that still holds its slot can be rescheduled or cancelled (docs/design-record.md#d6). */
export function isActive(status: AppointmentStatus): boolean {
  return ACTIVE_APPOINTMENT_STATUSES.includes(status);
}

/** The dashboard's own transitions (docs/design-record.md#d6), which the API does not offer. */
export const DASHBOARD_TRANSITIONS = {
  confirm: { from: ['PENDING'], to: 'CONFIRMED' },
  complete: { from: ['CONFIRMED', 'PENDING'], to: 'COMPLETED' },
  'no-show': { from: ['CONFIRMED', 'PENDING'], to: 'NO_SHOW' },
} as const satisfies Record<string, { from: readonly AppointmentStatus[]; to: AppointmentStatus }>;
export type DashboardTransition = keyof typeof DASHBOARD_TRANSITIONS;

/** The status after a dashboard transition, or null when the appointment's status does not allow it. */
export function statusAfter(transition: DashboardTransition, current: AppointmentStatus): AppointmentStatus | null {
  const { from, to } = DASHBOARD_TRANSITIONS[transition];
  return (from as readonly AppointmentStatus[]).includes(current) ? to : null;
}
