import { AppointmentWritesModule } from '#core/appointments/appointment-writes.module.js';
import { AppointmentWritesService } from '#core/appointments/appointment-writes.service.js';
import { DomainError } from '#core/errors/domain-error.js';
import { seed, type SeededBusiness } from '../../utils/seed.js';
import { startTestContext, testSql, type TestContext } from '../../utils/test-context.js';

/**
 * "Any staff" under concurrency (docs/design-record.md#d16): ten bookings of one start race for
 * three free members; each lost insert moves on to the next member (the insert that finds the slot taken inserts nothing), so exactly
 * three succeed, on three different members, and nobody is double-booked. Fifty rounds, each on
 * a start of its own; the database's exclusion constraint is the judge, no timing is assumed.
 */
let context: TestContext;
let salon: SeededBusiness;
const ROUNDS = 50;
const RACERS = 10;
const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: '08:00', end: '20:00' }));

beforeAll(async () => {
  context = await startTestContext({ imports: [AppointmentWritesModule] });
  salon = await seed({
    timezone: 'UTC',
    services: [
      { ref: 'cut', name: 'Cut', durationMin: 30, priceCents: 2000 },
      { ref: 'colour', name: 'Colour', durationMin: 60, priceCents: 5000 },
    ],
    staff: [
      { ref: 'ana', name: 'Ana', workingHours: EVERY_DAY },
      { ref: 'rui', name: 'Rui', workingHours: EVERY_DAY, services: ['cut'] },
      { ref: 'eva', name: 'Eva', workingHours: EVERY_DAY },
      // Qualified only for colour: never a candidate for a cut.
      { ref: 'tom', name: 'Tom', workingHours: EVERY_DAY, services: ['colour'] },
    ],
    clients: Array.from({ length: RACERS }, (_, i) => ({
      ref: `c${i}`,
      name: `Client ${i}`,
      phone: `+3519120000${String(i).padStart(2, '0')}`,
      consent: true,
    })),
  });
});
afterAll(() => context.close());

describe('any staff, ten bookings of one start', () => {
  it('books exactly the three free members and answers the other seven 409, round after round', async () => {
    const bookings = context.app.get(AppointmentWritesService);
    const ref = { businessId: salon.id, businessSlug: salon.slug };
    const qualified = [salon.staff.ana, salon.staff.rui, salon.staff.eva].sort();
    for (let round = 0; round < ROUNDS; round++) {
      // A start of its own per round: 2035-03-01 08:00 UTC plus half-hours, one day per 24 rounds.
      const startAt = new Date(Date.UTC(2035, 2, 1 + Math.floor(round / 24), 8) + (round % 24) * 30 * 60_000).toISOString();
      const outcomes = await Promise.all(
        Array.from({ length: RACERS }, (_, i) =>
          bookings.book(ref, { serviceId: salon.services.cut, startAt, client: { id: salon.clients[`c${i}`] } }).then(
            (view) => ({ booked: view.staff.id }),
            (error: unknown) => {
              if (error instanceof DomainError) return { refused: error.code };
              throw error;
            },
          ),
        ),
      );
      const booked = outcomes.flatMap((o) => ('booked' in o ? [o.booked] : [])).sort();
      const refused = outcomes.flatMap((o) => ('refused' in o ? [o.refused] : []));
      expect({ round, booked }).toEqual({ round, booked: qualified });
      expect(refused).toHaveLength(RACERS - qualified.length);
      for (const code of refused) expect(['SLOT_TAKEN', 'SLOT_UNAVAILABLE']).toContain(code);
    }
    const sql = testSql(context.app);
    const overlaps = await sql.query(
      `SELECT count(*)::int AS n FROM appointments a JOIN appointments b
                 ON a.staff_id = b.staff_id AND a.id < b.id AND a.business_id = $1 AND b.business_id = $1
                AND a.status IN ('PENDING', 'CONFIRMED') AND b.status IN ('PENDING', 'CONFIRMED')
                AND tstzrange(a.starts_at, a.ends_at, '[)') && tstzrange(b.starts_at, b.ends_at, '[)')`,
      [salon.id],
    );
    expect(overlaps).toEqual([{ n: 0 }]);
    const perMember = await sql.query(
      `SELECT staff_id, count(*)::int AS n FROM appointments WHERE business_id = $1 GROUP BY staff_id ORDER BY staff_id`,
      [salon.id],
    );
    expect(perMember).toEqual(qualified.map((id) => ({ staff_id: id, n: ROUNDS })));
  }, 300_000);
});
