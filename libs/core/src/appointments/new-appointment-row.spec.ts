import { AppointmentEntity } from '#database/entities/appointment.entity.js';
import { newAppointmentRow, termsOf, type AppointmentRowFields } from './new-appointment-row.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const now = new Date('2026-06-01T12:00:00Z');
const haircut = { id: 'service-1', name: 'Haircut', durationMin: 45, priceCents: 2500 };

function fields(overrides: Partial<AppointmentRowFields> = {}): AppointmentRowFields {
  return {
    businessId: 'business-1',
    staffId: 'staff-1',
    clientId: 'client-1',
    terms: termsOf(haircut, 'EUR'),
    status: 'CONFIRMED',
    startsAt: new Date('2030-01-07T09:00:00Z'),
    source: 'api',
    ...overrides,
  };
}

describe('newAppointmentRow', () => {
  it('fills id, code, end, timestamps and the booked terms the same way for every creation', () => {
    const row = newAppointmentRow(fields(), now);
    expect(row).toBeInstanceOf(AppointmentEntity);
    expect(row).toEqual({
      id: expect.stringMatching(UUID_V7),
      businessId: 'business-1',
      staffId: 'staff-1',
      serviceId: 'service-1',
      serviceName: 'Haircut',
      clientId: 'client-1',
      status: 'CONFIRMED',
      startsAt: new Date('2030-01-07T09:00:00Z'),
      endsAt: new Date('2030-01-07T09:45:00Z'),
      durationMin: 45,
      priceCents: 2500,
      currency: 'EUR',
      source: 'api',
      locationId: null,
      rescheduledFromId: null,
      metadata: {},
      code: expect.stringMatching(/^[2-9A-HJ-NP-Z]{8}$/),
      cancellationReason: null,
      cancelledAt: null,
      createdAt: now,
      updatedAt: now,
    });
  });

  it('gives every row its own id and code', () => {
    const [a, b] = [newAppointmentRow(fields(), now), newAppointmentRow(fields(), now)];
    expect(a.id).not.toBe(b.id);
    expect(a.code).not.toBe(b.code);
  });

  it('keeps the terms it is given, as a reschedule carries the old ones over', () => {
    const previous = newAppointmentRow(fields(), now);
    const moved = newAppointmentRow(
      fields({
        terms: { ...previous, serviceId: null, durationMin: 90, priceCents: 4000, currency: 'BRL' },
        startsAt: new Date('2030-01-08T23:00:00Z'),
        rescheduledFromId: previous.id,
        locationId: 'location-1',
        metadata: { crmId: 'A-1' },
      }),
      now,
    );
    expect(moved).toMatchObject({
      serviceId: null,
      serviceName: 'Haircut',
      durationMin: 90,
      priceCents: 4000,
      currency: 'BRL',
      endsAt: new Date('2030-01-09T00:30:00Z'),
      rescheduledFromId: previous.id,
      locationId: 'location-1',
      metadata: { crmId: 'A-1' },
    });
  });

  it('dates the cancellation of an appointment created cancelled, and only then', () => {
    const cancelled = newAppointmentRow(fields({ status: 'CANCELLED', cancellationReason: 'Ill' }), now);
    expect(cancelled).toMatchObject({ status: 'CANCELLED', cancellationReason: 'Ill', cancelledAt: now });
    expect(newAppointmentRow(fields({ status: 'COMPLETED' }), now).cancelledAt).toBeNull();
  });
});
