import { jest } from '@jest/globals';
import { AppointmentWritesModule } from '#core/appointments/appointment-writes.module.js';
import { AppointmentWritesService, type NewAppointment } from '#core/appointments/appointment-writes.service.js';
import { SlotAvailabilityService } from '#core/availability/slot-availability.service.js';
import { DomainError } from '#core/errors/domain-error.js';
import { loadBookingFixture, type BookingFixture } from '../../factories/booking-fixture.js';
import { startTestContext, type TestContext } from '../../utils/test-context.js';

let context: TestContext;
let salon: BookingFixture;
beforeAll(async () => {
  context = await startTestContext({ imports: [AppointmentWritesModule] });
  salon = await loadBookingFixture({ keys: 1 });
});
afterAll(() => context.close());

describe('booking race', () => {
  it('is decided by the exclusion constraint when both bookings passed the slot check: SLOT_TAKEN, not an error', async () => {
    const bookings = context.app.get(AppointmentWritesService);
    const database = context.database;
    const checks = jest.spyOn(context.app.get(SlotAvailabilityService), 'assertFreeGiven');
    const ref = { businessId: salon.businessId, businessSlug: salon.slug };
    const body = (clientId: string): NewAppointment => ({
      staffId: salon.staff.ana,
      serviceId: salon.services.cut,
      startAt: '2035-04-02T10:00:00Z',
      client: { id: clientId },
    });

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let firstBooked!: () => void;
    const booked = new Promise<void>((resolve) => (firstBooked = resolve));
    // The first booking inserts its row and keeps its transaction open.
    const first = database.transactional(async () => {
      const view = await bookings.book(ref, body(salon.clients.joao));
      firstBooked();
      await held;
      return view;
    });
    await booked;
    // The second sees no committed overlap, passes the check, and waits at its insert.
    const second = bookings.book(ref, body(salon.clients.maria)).then(
      () => 'booked',
      (error: unknown) => (error instanceof DomainError ? error.code : `unexpected: ${String(error)}`),
    );
    for (let i = 0; i < 100 && checks.mock.calls.length < 2; i += 1) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 200));
    release();

    expect((await first).status).toBe('CONFIRMED');
    expect(await second).toBe('SLOT_TAKEN');
    expect(checks).toHaveBeenCalledTimes(2);
    // The second's slot check passed (it did not throw): the constraint refused it.
    expect(checks.mock.results[1].type).toBe('return');
    checks.mockRestore();
  });
});
