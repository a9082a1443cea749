import fc from 'fast-check';
import { DateTime } from 'luxon';
import { AppointmentWritesModule } from '#core/appointments/appointment-writes.module.js';
import { AppointmentWritesService } from '#core/appointments/appointment-writes.service.js';
import { AvailabilityModule } from '#core/availability/availability.module.js';
import { localDates, workingIntervals } from '#core/availability/free-starts.js';
import { FreeTimesService } from '#core/availability/free-times.service.js';
import { DomainError } from '#core/errors/domain-error.js';
import type { FixtureBusiness } from '#core/fixtures/fixture-file.js';
import { seed } from '../../utils/seed.js';
import { startTestContext, type TestContext } from '../../utils/test-context.js';

/**
 * The one rule of docs/design-record.md#d15: a start GET /availability offers for a member is
 * exactly a start that booking accepts for that member. Hundreds of generated businesses (hours
 * with breaks and adjacent intervals, blocks, appointments, services of several durations,
 * members with and without service lists, inactive ones) in four zones, each over a range that
 * holds a whole local day and its edges, on both DST changes of the zone's year and on an
 * ordinary day. Every grid start of every member is booked for real (AppointmentWritesService,
 * the route's own service) in a transaction rolled back afterwards, so each booking sees the
 * generated state and nothing else.
 */

const ZONES = ['Europe/Lisbon', 'America/New_York', 'Australia/Lord_Howe', 'America/Santiago'] as const;
const YEAR = 2031;
const MINUTE = 60_000;

/** The local dates of a year on which the zone's offset changes (its two DST days), found, not assumed. */
function transitionDays(zone: string, year: number): string[] {
  const days: string[] = [];
  for (let day = DateTime.fromObject({ year, month: 1, day: 1 }, { zone }); day.year === year; day = day.plus({ days: 1 })) {
    if (day.startOf('day').offset !== day.endOf('day').offset) days.push(day.toISODate()!);
  }
  return days;
}

const ANCHORS = Object.fromEntries(ZONES.map((zone) => [zone, [...transitionDays(zone, YEAR), `${YEAR}-06-18`]]));

const DURATIONS = [10, 20, 25, 30, 45, 60, 90];
const STEPS = [15, 20, 30, 45, 60];
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7];

const hhmm = (fiveMinutes: number) =>
  `${String(Math.floor(fiveMinutes / 12)).padStart(2, '0')}:${String((fiveMinutes % 12) * 5).padStart(2, '0')}`;

/** A day's working hours: sorted cut points paired into intervals, with a break between them, or adjacent. */
const dayHours = fc
  .record({
    points: fc.uniqueArray(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 287 })), { minLength: 0, maxLength: 6 }),
    adjacent: fc.boolean(),
  })
  .map(({ points, adjacent }) => {
    const sorted = [...points].sort((a, b) => a - b);
    const intervals: [number, number][] = [];
    for (let i = 0; i + 1 < sorted.length; i += 2) intervals.push([sorted[i], sorted[i + 1]]);
    // Two intervals that touch are still two: a slot must lie inside one of them.
    if (adjacent && sorted.length >= 3) intervals.push([sorted[1], sorted[2]]);
    return intervals;
  });

const memberArbitrary = (services: number) =>
  fc.record({
    active: fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    services: fc.oneof(fc.constant([] as number[]), fc.uniqueArray(fc.integer({ min: 0, max: services - 1 }), { minLength: 1 })),
    week: fc.array(dayHours, { minLength: 7, maxLength: 7 }),
    /** Minutes after the range's start, and lengths. */
    blocks: fc.array(fc.record({ at: fc.integer({ min: -120, max: 40 * 60 }), length: fc.integer({ min: 5, max: 240 }) }), {
      maxLength: 2,
    }),
    appointments: fc.array(
      fc.record({
        gap: fc.integer({ min: 0, max: 600 }),
        service: fc.integer({ min: 0, max: services - 1 }),
        status: fc.constantFrom('CONFIRMED', 'PENDING', 'CANCELLED'),
      }),
      { maxLength: 5 },
    ),
  });

const businessArbitrary = fc
  .record({
    zone: fc.constantFrom(...ZONES),
    anchor: fc.nat(),
    step: fc.constantFrom(...STEPS),
    services: fc.array(fc.record({ duration: fc.constantFrom(...DURATIONS), active: fc.boolean() }), { minLength: 1, maxLength: 3 }),
    /** Hours before the anchor day's local midnight that the range starts, and its length. */
    lead: fc.integer({ min: 0, max: 10 }),
    hours: fc.integer({ min: 26, max: 36 }),
  })
  .chain((b) =>
    fc.record({
      business: fc.constant(b),
      members: fc.array(memberArbitrary(b.services.length), { minLength: 1, maxLength: 3 }),
      asked: fc.nat(),
    }),
  );

type Generated = typeof businessArbitrary extends fc.Arbitrary<infer T> ? T : never;

let context: TestContext;
beforeAll(async () => {
  context = await startTestContext({ imports: [AppointmentWritesModule, AvailabilityModule] });
});
afterAll(() => context.close());

/** The fixture of a generated business; services are active at most as generated (one stays active). */
function fixtureOf(g: Generated, from: number): Partial<FixtureBusiness> {
  const services = g.business.services.map((s, i) => ({
    ref: `s${i}`,
    name: `Service ${i}`,
    durationMin: s.duration,
    priceCents: 1000,
    active: i === 0 || s.active,
  }));
  const appointments: FixtureBusiness['appointments'] = [];
  g.members.forEach((m, mi) => {
    let at = from - 60 * MINUTE;
    m.appointments.forEach((a, ai) => {
      at += a.gap * MINUTE;
      appointments.push({
        ref: `a${mi}-${ai}`,
        staff: `m${mi}`,
        service: `s${a.service}`,
        client: 'c',
        startAt: new Date(at).toISOString(),
        status: a.status,
      });
      at += g.business.services[a.service].duration * MINUTE;
    });
  });
  return {
    timezone: g.business.zone,
    stepMin: g.business.step,
    services,
    staff: g.members.map((m, mi) => ({
      ref: `m${mi}`,
      name: `Member ${mi}`,
      active: m.active,
      services: m.services.map((s) => `s${s}`),
      workingHours: m.week.flatMap((day, d) => day.map(([a, b]) => ({ weekday: WEEKDAYS[d], start: hhmm(a), end: hhmm(b) }))),
      blocks: m.blocks.map((b) => ({
        startAt: new Date(from + b.at * MINUTE).toISOString(),
        endAt: new Date(from + (b.at + b.length) * MINUTE).toISOString(),
      })),
    })),
    clients: [{ ref: 'c', name: 'Client', phone: '+351912345678', consent: true }],
    appointments,
  };
}

const ROLLBACK = new Error('rollback');
const RUNS = Number(process.env.AVAILABILITY_PROPERTY_RUNS ?? 200);

describe('GET /availability and booking agree', () => {
  it('offers a grid start for a member exactly when booking it for that member answers 201', async () => {
    const freeTimes = context.app.get(FreeTimesService);
    const bookings = context.app.get(AppointmentWritesService);
    let businesses = 0;
    let checked = 0;
    let offered = 0;
    await fc.assert(
      fc.asyncProperty(businessArbitrary, async (g) => {
        const anchors = ANCHORS[g.business.zone];
        const anchor = anchors[g.business.anchor % anchors.length];
        const from = DateTime.fromISO(anchor, { zone: g.business.zone }).startOf('day').minus({ hours: g.business.lead }).toMillis();
        const to = from + g.business.hours * 60 * MINUTE;
        const salon = await seed(fixtureOf(g, from));
        businesses++;
        const ref = { businessId: salon.id, businessSlug: salon.slug };
        const query = { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
        for (const [si, service] of g.business.services.entries()) {
          const serviceId = salon.services[`s${si}`];
          const answer = await freeTimes.find(salon.id, { serviceId, ...query });
          const offers = new Map(answer.starts.map((s) => [s.startAt.getTime(), new Set(s.staffIds)]));
          for (const [mi, member] of g.members.entries()) {
            const staffId = salon.staff[`m${mi}`];
            const hours = member.week.flatMap((day, d) =>
              day.map(([a, b]) => ({ weekday: WEEKDAYS[d], startTime: hhmm(a), endTime: hhmm(b) })),
            );
            // Every grid start of the member in the range: each working interval's start plus whole steps.
            const grid = new Set<number>();
            for (const w of workingIntervals(hours, localDates(g.business.zone, from, to))) {
              for (let t = w.start.getTime(); t < w.end.getTime(); t += g.business.step * MINUTE) if (t >= from && t < to) grid.add(t);
            }
            // Nothing off the member's grid is offered to it.
            const offeredToMember = answer.starts.filter((s) => s.staffIds.includes(staffId)).map((s) => s.startAt.getTime());
            expect(offeredToMember.filter((start) => !grid.has(start)).map((start) => new Date(start).toISOString())).toEqual([]);
            for (const start of grid) {
              const isOffered = offers.get(start)?.has(staffId) ?? false;
              let outcome = 'unknown';
              await context.database
                .transactional(async () => {
                  try {
                    await bookings.book(ref, {
                      staffId,
                      serviceId,
                      startAt: new Date(start).toISOString(),
                      client: { id: salon.clients.c },
                    });
                    outcome = '201';
                  } catch (error) {
                    if (!(error instanceof DomainError)) throw error;
                    outcome = error.code;
                  }
                  throw ROLLBACK;
                })
                .catch((error: unknown) => {
                  if (error !== ROLLBACK) throw error;
                });
              checked++;
              if (isOffered) offered++;
              const at = new Date(start).toISOString();
              // Written as one object so that a failure names the start, service and member, and the refusal.
              expect({ at, service: si, durationMin: service.duration, member: mi, offered: isOffered, outcome }).toEqual({
                at,
                service: si,
                durationMin: service.duration,
                member: mi,
                offered: outcome === '201',
                outcome,
              });
              if (!isOffered) expect(['SLOT_TAKEN', 'SLOT_UNAVAILABLE']).toContain(outcome);
            }
          }
          // Asking for one member answers exactly that member's share.
          const asked = salon.staff[`m${g.asked % g.members.length}`];
          const alone = await freeTimes.find(salon.id, { serviceId, staffId: asked, ...query });
          expect(alone.starts.map((s) => s.startAt.getTime())).toEqual(
            answer.starts.filter((s) => s.staffIds.includes(asked)).map((s) => s.startAt.getTime()),
          );
          expect(alone.starts.every((s) => s.staffIds.length === 1 && s.staffIds[0] === asked)).toBe(true);
        }
      }),
      { seed: 20261123, numRuns: RUNS, endOnFailure: true },
    );
    process.stderr.write(`availability property: ${businesses} businesses, ${checked} bookings tried, ${offered} offered\n`);
    // The generator must produce real cases on both sides, not an empty diary.
    expect(offered).toBeGreaterThan(1000);
    expect(checked - offered).toBeGreaterThan(1000);
  }, 900_000);
});
