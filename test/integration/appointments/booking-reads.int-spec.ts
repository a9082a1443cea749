import { AppointmentWritesModule } from '#core/appointments/appointment-writes.module.js';
import { BookingPartiesRepository } from '#core/appointments/booking-parties.repository.js';
import { SLOT_FACTS, SlotFactsRepository } from '#core/availability/slot-facts.repository.js';
import { loadBookingFixture, type BookingFixture } from '../../factories/booking-fixture.js';
import { startTestContext, type TestContext } from '../../utils/test-context.js';

const at = (iso: string) => new Date(iso);

class PlanFound extends Error {
  constructor(readonly plan: string) {
    super('plan found');
  }
}
const interval = (start: string, end: string) => ({ start: at(start), end: at(end) });

let context: TestContext;
let salon: BookingFixture;
let other: BookingFixture;
beforeAll(async () => {
  context = await startTestContext({ imports: [AppointmentWritesModule] });
  salon = await loadBookingFixture({
    keys: 1,
    appointments: [
      { ref: 'ten', staff: 'ana', service: 'cut', client: 'joao', startAt: '2035-01-08T10:00:00Z' },
      { ref: 'eleven', staff: 'ana', service: 'cut', client: 'joao', startAt: '2035-01-08T11:00:00Z', status: 'CANCELLED' },
      { ref: 'rui', staff: 'rui', service: 'cut', client: 'maria', startAt: '2035-01-08T10:00:00Z', status: 'PENDING' },
    ],
  });
  other = await loadBookingFixture({ keys: 1 });
});
afterAll(() => context.close());

describe('the slot facts of a booking (one statement)', () => {
  const facts = () => context.app.get(SlotFactsRepository);

  it('holds the weekly hours, the services performed, and the active appointments and blocks that overlap, half-open', async () => {
    const around = await facts().load(salon.businessId, salon.staff.ana, interval('2035-01-08T09:45:00Z', '2035-01-08T10:15:00Z'), null);
    expect(around.workingHours).toHaveLength(7);
    expect(around.workingHours).toContainEqual({ weekday: 1, startTime: '08:00:00', endTime: '20:00:00' });
    expect(around.serviceIds).toEqual([]);
    expect(around.appointments).toEqual([interval('2035-01-08T10:00:00Z', '2035-01-08T10:30:00Z')]);
    expect(around.blocks).toEqual([]);

    // Touching intervals do not overlap; a cancelled appointment takes no time.
    const after = await facts().load(salon.businessId, salon.staff.ana, interval('2035-01-08T10:30:00Z', '2035-01-08T11:30:00Z'), null);
    expect(after.appointments).toEqual([]);

    const block = await facts().load(salon.businessId, salon.staff.ana, interval('2035-01-08T15:59:00Z', '2035-01-08T16:29:00Z'), null);
    expect(block.blocks).toEqual([interval('2035-01-08T15:00:00Z', '2035-01-08T16:00:00Z')]);
  });

  it('leaves out the appointment a reschedule replaces, other staff, and other businesses', async () => {
    const slot = interval('2035-01-08T10:00:00Z', '2035-01-08T10:30:00Z');
    expect((await facts().load(salon.businessId, salon.staff.ana, slot, salon.appointments.ten)).appointments).toEqual([]);
    const rui = await facts().load(salon.businessId, salon.staff.rui, slot, null);
    expect(rui.serviceIds).toEqual([salon.services.cut]);
    expect(rui.appointments).toEqual([slot]);
    const foreign = await facts().load(other.businessId, salon.staff.ana, slot, null);
    expect(foreign).toEqual({ workingHours: [], serviceIds: [], appointments: [], blocks: [] });
  });
  it("searches the staff member's active appointments by interval in the exclusion index, not all of them", async () => {
    const plan = await context.sql
      .transaction(async (sql) => {
        // The test data is small enough for any scan, and a few rows a business or a staff member
        // make every btree led by business_id as cheap as anything (the more so once another test
        // filled and analysed the table with other businesses' rows): every other index is set
        // aside (rolled back), found from the catalogue so that an index added later cannot make
        // the planner's choice depend on the suite's order. What is left is whether the exclusion
        // index can serve the query by interval.
        await sql.query('SET LOCAL enable_seqscan = off');
        await sql.query('SET LOCAL enable_bitmapscan = off');
        const others: { name: string }[] = await sql.query(
          `SELECT i.relname AS name FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
            WHERE x.indrelid = 'appointments'::regclass AND NOT x.indisprimary AND i.relname <> 'appointments_no_overlap'`,
        );
        for (const { name } of others) await sql.query(`DROP INDEX "${name}"`);
        const rows: { 'QUERY PLAN': unknown }[] = await sql.query(`EXPLAIN (FORMAT JSON) ${SLOT_FACTS.text}`, [
          salon.businessId,
          salon.staff.ana,
          at('2035-01-08T10:00:00Z'),
          at('2035-01-08T10:30:00Z'),
          null,
        ]);
        // Rolled back, index included.
        throw new PlanFound(JSON.stringify(rows[0]['QUERY PLAN']));
      })
      .catch((error: unknown) => {
        if (error instanceof PlanFound) return error.plan;
        throw error;
      });
    expect(plan).toMatch(/"Index Name":"appointments_no_overlap"[^}]*"Index Cond":"[^"]*&&/);
  });
});

describe('the parties of a booking (one statement)', () => {
  const parties = () => context.app.get(BookingPartiesRepository);

  it('finds the business, staff member, service and client, each scoped to the business, with the slot facts for the service', async () => {
    const found = await parties().load(
      salon.businessId,
      { staffId: salon.staff.rui, serviceId: salon.services.cut, clientId: salon.clients.joao },
      at('2035-01-08T09:45:00Z'),
    );
    expect(found).toMatchObject({
      business: {
        name: 'Salão Lisboa',
        timezone: 'Europe/Lisbon',
        locale: 'pt-PT',
        currency: 'EUR',
        autoConfirm: true,
        notificationEmail: `desk@${salon.slug}.example`,
      },
      staff: { id: salon.staff.rui, name: 'Rui Alves', active: true },
      service: { id: salon.services.cut, name: 'Corte', durationMin: 30, priceCents: 2500, active: true },
      client: { id: salon.clients.joao, name: 'João Silva', email: salon.clientEmail },
    });
    // Cut lasts 30 minutes: 09:45–10:15 overlaps Rui's 10:00 appointment.
    expect(found.slotFacts.serviceIds).toEqual([salon.services.cut]);
    expect(found.slotFacts.workingHours).toHaveLength(7);
    expect(found.slotFacts.appointments).toEqual([interval('2035-01-08T10:00:00Z', '2035-01-08T10:30:00Z')]);
    const before = await parties().load(
      salon.businessId,
      { staffId: salon.staff.rui, serviceId: salon.services.cut, clientId: null },
      at('2035-01-08T09:30:00Z'),
    );
    expect(before.slotFacts.appointments).toEqual([]);
    // Color lasts 60 minutes: from 09:30 it reaches 10:00–10:30.
    const longer = await parties().load(
      salon.businessId,
      { staffId: salon.staff.rui, serviceId: salon.services.color, clientId: null },
      at('2035-01-08T09:30:00Z'),
    );
    expect(longer.slotFacts.appointments).toHaveLength(1);
    // Ana's time block, 15:00–16:00, seen from a slot that starts inside it.
    const blocked = await parties().load(
      salon.businessId,
      { staffId: salon.staff.ana, serviceId: salon.services.cut, clientId: null },
      at('2035-01-08T15:45:00Z'),
    );
    expect(blocked.slotFacts.blocks).toEqual([interval('2035-01-08T15:00:00Z', '2035-01-08T16:00:00Z')]);

    const foreign = await parties().load(
      other.businessId,
      { staffId: salon.staff.rui, serviceId: salon.services.cut, clientId: salon.clients.joao },
      at('2035-01-08T09:45:00Z'),
    );
    expect(foreign).toMatchObject({ staff: null, service: null, client: null, slotFacts: { workingHours: [], appointments: [] } });
    expect(foreign.business).not.toBeNull();
    const noClient = await parties().load(
      salon.businessId,
      { staffId: salon.staff.bea, serviceId: salon.services.retired, clientId: null },
      at('2035-01-08T09:45:00Z'),
    );
    expect(noClient).toMatchObject({ staff: { active: false }, service: { active: false }, client: null });
  });
});
