import { randomUUID } from 'node:crypto';
import type { Schemas } from '#contract/contract-types.js';
import { E2eApi } from '../utils/e2e-api.js';
import { KeyPool } from '../utils/key-pool.js';
import { seed, seedMore } from '../utils/seed.js';
import { createTenant, type Tenant } from '../utils/tenant-factory.js';
import { testSql, type TestSql } from '../utils/test-context.js';

let api: E2eApi;
let db: TestSql;

beforeAll(async () => {
  api = await E2eApi.start();
  db = testSql(api.app);
});
afterAll(() => api.close());

type Appointment = Schemas['Appointment'];

/** A staff member, a client and a 30-minute service to book with: the start of most appointments here. */
const CAST = {
  staff: [{ ref: 'ana', name: 'Ana Costa' }],
  clients: [{ ref: 'joao', name: 'João Silva', consent: true }],
  services: [{ ref: 'cut', name: 'Haircut', durationMin: 30, priceCents: 2500 }],
};

describe('GET /appointments/{id} and the Appointment record', () => {
  it("returns every field, with the staff member's and the client's names", async () => {
    const locationId = randomUUID();
    const salon = await seed({
      ...CAST,
      appointments: [
        { ref: 'previous', staff: 'ana', service: 'cut', client: 'joao', startAt: '2030-01-07T09:00:00Z', status: 'RESCHEDULED' },
        // Booked for 45 minutes at 32 € (the service has changed since), rescheduled from the first.
        {
          ref: 'a',
          staff: 'ana',
          service: 'cut',
          client: 'joao',
          startAt: '2030-01-08T15:00:00.123456Z',
          durationMin: 45,
          priceCents: 3200,
          locationId,
          rescheduledFrom: 'previous',
        },
      ],
    });
    const [id, previous, staffId, clientId, serviceId] = [
      salon.appointments.a,
      salon.appointments.previous,
      salon.staff.ana,
      salon.clients.joao,
      salon.services.cut,
    ];
    const res = await api.get(`/appointments/${id}`, { key: salon.keys.owner.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id,
      status: 'CONFIRMED',
      scheduledAt: '2030-01-08T15:00:00.123Z',
      endsAt: '2030-01-08T15:45:00.123Z',
      durationMin: 45,
      service: { id: serviceId, name: 'Haircut' },
      price: { cents: 3200, currency: 'EUR' },
      staff: { id: staffId, name: 'Ana Costa' },
      client: { id: clientId, name: 'João Silva' },
      source: 'dashboard',
      locationId,
      rescheduledFromId: previous,
      rescheduledToId: null,
      metadata: {},
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    } satisfies Appointment);
    // The appointment it replaced names it (D23), derived from this one's rescheduledFromId.
    const replaced = await api.get(`/appointments/${previous}`, { key: salon.keys.owner.key });
    expect(replaced.body.rescheduledToId).toBe(id);
  });

  it('keeps the service name when the service is gone (service.id null)', async () => {
    const salon = await seed({
      ...CAST,
      appointments: [
        {
          ref: 'a',
          staff: 'ana',
          service: null,
          serviceName: 'Old colouring',
          durationMin: 30,
          priceCents: 2500,
          client: 'joao',
          startAt: '2030-01-09T10:00:00Z',
        },
      ],
    });
    const res = await api.get(`/appointments/${salon.appointments.a}`, { key: salon.keys.owner.key });
    expect(res.body.service).toEqual({ id: null, name: 'Old colouring' });
  });

  it("answers 404 for an unknown id, a non-UUID and another business's appointment", async () => {
    const mine = await seed();
    const other = await seed({
      ...CAST,
      appointments: [{ ref: 'a', staff: 'ana', service: 'cut', client: 'joao', startAt: '2030-01-07T09:00:00Z' }],
    });
    const theirs = other.appointments.a;
    expect((await api.get(`/appointments/${theirs}`, { key: other.keys.owner.key })).status).toBe(200);
    for (const id of [theirs, randomUUID(), 'not-a-uuid']) {
      const res = await api.get(`/appointments/${id}`, { key: mine.keys.owner.key });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
  });
});

describe('GET /appointments filters', () => {
  let tenant: { key: string };
  let ana: string;
  let rui: string;
  let ids: Record<string, string> = {};

  beforeAll(async () => {
    const at = (ref: string, staff: string, startAt: string, more: object = {}) => ({
      ref,
      staff,
      service: 'cut',
      client: 'joao',
      startAt,
      ...more,
    });
    const salon = await seed({
      ...CAST,
      staff: [
        { ref: 'ana', name: 'Ana' },
        { ref: 'rui', name: 'Rui' },
      ],
      appointments: [
        at('beforeFrom', 'ana', '2030-03-31T23:59:59.999999Z', { status: 'COMPLETED' }),
        at('atFrom', 'ana', '2030-04-01T00:00:00Z'),
        at('rui', 'rui', '2030-04-01T10:00:00Z', { status: 'PENDING' }),
        at('cancelled', 'ana', '2030-04-02T10:00:00Z', { status: 'CANCELLED', cancellationReason: 'Sick' }),
        at('justBeforeTo', 'rui', '2030-04-07T23:59:59.999999Z', { status: 'COMPLETED' }),
        at('atTo', 'ana', '2030-04-08T00:00:00Z'),
      ],
    });
    tenant = { key: salon.keys.owner.key };
    ids = salon.appointments;
    [ana, rui] = [salon.staff.ana, salon.staff.rui];
  });

  const list = async (query: Record<string, string | number>) => {
    const res = await api.get('/appointments', { key: tenant.key, query });
    expect(res.status).toBe(200);
    return (res.body.data as Appointment[]).map((a) => a.id);
  };
  const week = { from: '2030-04-01T00:00:00Z', to: '2030-04-08T00:00:00Z' };

  it('lists [from, to) to the microsecond, in every status, by start', async () => {
    expect(await list(week)).toEqual([ids.atFrom, ids.rui, ids.cancelled, ids.justBeforeTo]);
  });

  it('reads from and to in any offset', async () => {
    expect(await list({ from: '2030-04-01T01:00:00+01:00', to: '2030-04-07T20:00:00-04:00' })).toEqual([
      ids.atFrom,
      ids.rui,
      ids.cancelled,
      ids.justBeforeTo,
    ]);
  });

  it('filters by status and by staff member (a UUID in any case or as a urn)', async () => {
    expect(await list({ ...week, status: 'CANCELLED' })).toEqual([ids.cancelled]);
    expect(await list({ ...week, staffId: rui })).toEqual([ids.rui, ids.justBeforeTo]);
    expect(await list({ ...week, staffId: rui.toUpperCase(), status: 'PENDING' })).toEqual([ids.rui]);
    expect(await list({ ...week, staffId: `urn:uuid:${rui}` })).toEqual([ids.rui, ids.justBeforeTo]);
    expect(await list({ ...week, staffId: randomUUID() })).toEqual([]);
  });

  it("never shows another business's appointments", async () => {
    const other = await createTenant();
    const res = await api.get('/appointments', { key: other.key, query: { ...week, staffId: ana } });
    expect(res.body).toEqual({ data: [], nextCursor: null });
  });

  it('pages with limit, default 50', async () => {
    const first = await api.get('/appointments', { key: tenant.key, query: { ...week, limit: 3 } });
    expect(first.body.data).toHaveLength(3);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const rest = await api.get('/appointments', { key: tenant.key, query: { ...week, limit: 3, cursor: first.body.nextCursor } });
    expect(rest.body.data.map((a: Appointment) => a.id)).toEqual([ids.justBeforeTo]);
    expect(rest.body.nextCursor).toBeNull();
    // The limit may change between pages; the filters may not.
    const otherLimit = await api.get('/appointments', { key: tenant.key, query: { ...week, limit: 1, cursor: first.body.nextCursor } });
    expect(otherLimit.status).toBe(200);
    expect((await api.get('/appointments', { key: tenant.key, query: week })).body.nextCursor).toBeNull();
  });
});

describe('walking GET /appointments with limit=7 while the schedule changes', () => {
  const SLOTS = 35;
  const STAFF = 30;
  const from = '2031-03-03T08:00:00Z';
  const to = '2031-03-04T19:00:00Z'; // from + 35 h: slot k starts at from + k hours

  it('returns each row exactly once, in (scheduledAt, id) order, and ends with nextCursor null', async () => {
    let salon = await seed({
      staff: [...Array.from({ length: STAFF }, (_, i) => ({ ref: `s${i}`, name: `Staff ${i}` })), { ref: 'extra', name: 'Extra' }],
      clients: Array.from({ length: STAFF }, (_, i) => ({ ref: `c${i}`, name: `Client ${i}`, consent: true })),
    });
    const tenant: Tenant = { businessId: salon.id, slug: salon.slug, ownerEmail: salon.ownerEmail!, ...salon.keys.owner };
    const keys = new KeyPool(api.app, tenant, ['appointments.read']);
    const staff = Array.from({ length: STAFF }, (_, i) => salon.staff[`s${i}`]);
    const clients = Array.from({ length: STAFF }, (_, i) => salon.clients[`c${i}`]);
    // Set-based, as a fixture of 1,050 entries would be slow: 30 staff members per hourly slot, three of them per microsecond of the same millisecond:
    // ten rows share each exact start, and neighbours differ by 1 µs, which a Date cannot tell apart.
    const seeded = await db.query<{ id: string }[]>(
      `INSERT INTO appointments (id, business_id, staff_id, service_id, service_name, client_id, status, starts_at, ends_at,
                                 duration_min, price_cents, currency, source, code)
       SELECT gen_random_uuid(), $1, ($2::uuid[])[1 + i % 30], NULL, 'Cut', ($3::uuid[])[1 + i % 30],
              (ARRAY['PENDING','CONFIRMED','CONFIRMED','COMPLETED','CANCELLED','NO_SHOW'])[1 + i % 6],
              t, t + interval '30 minutes', 30, 2000, 'EUR', 'dashboard', 'W' || i
         FROM generate_series(0, ${SLOTS * STAFF - 1}) AS i,
              LATERAL (SELECT $4::timestamptz + (i / 30) * interval '1 hour' + (i % 3) * interval '1 microsecond' AS t) AS start
       RETURNING id`,
      [tenant.businessId, staff, clients, from],
    );
    expect(seeded.length).toBeGreaterThan(1000);

    // A completed 10-minute appointment of the extra member, starting at the instant `startsAtSql`
    // names (relative to a row's exact start), added through the fixture loader with its microseconds.
    let added = 0;
    const insertAt = async (startsAtSql: string, params: unknown[]): Promise<string> => {
      const [{ t }] = await db.query<{ t: string }[]>(
        `SELECT to_char((${startsAtSql}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t`,
        params,
      );
      const ref = `added${(added += 1)}`;
      salon = await seedMore(salon, {
        appointments: [
          {
            ref,
            staff: 'extra',
            service: null,
            serviceName: 'Cut',
            durationMin: 10,
            priceCents: 2000,
            client: 'c0',
            startAt: t,
            status: 'COMPLETED',
            source: 'api',
          },
        ],
      });
      return salon.appointments[ref];
    };
    const insertedAhead: string[] = [];
    const insertedBehindOrOutside: string[] = [];
    const cancelledAhead: string[] = [];

    const seen: Appointment[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: Record<string, string | number> = { from, to, limit: 7, ...(cursor === null ? {} : { cursor }) };
      const res = await api.get('/appointments', { key: await keys.key(), query });
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(7);
      seen.push(...(res.body.data as Appointment[]));
      cursor = res.body.nextCursor as string | null;
      pages += 1;
      // A cursor that lost its microseconds repeats rows forever: fail fast instead of timing out.
      expect(pages).toBeLessThan(300);

      const last = seen.at(-1)!.id;
      if (pages % 5 === 0 && cursor !== null) {
        const position = '(SELECT starts_at FROM appointments WHERE id = $1)';
        // Ahead of the cursor: must be met once, if inside the window.
        for (const ahead of [`${position} + interval '2 hours' + interval '5 microseconds'`, `${position} + interval '1 microsecond'`]) {
          const id = await insertAt(ahead, [last]);
          const [{ inside }] = await db.query<{ inside: boolean }[]>(
            'SELECT starts_at < $2::timestamptz AS inside FROM appointments WHERE id = $1',
            [id, to],
          );
          (inside ? insertedAhead : insertedBehindOrOutside).push(id);
        }
        // Behind the cursor (already walked past), and outside [from, to): never met.
        insertedBehindOrOutside.push(await insertAt(`$1::timestamptz`, [from]));
        insertedBehindOrOutside.push(await insertAt(`$1::timestamptz - interval '1 microsecond'`, [from]));
        insertedBehindOrOutside.push(await insertAt(`$1::timestamptz`, [to]));
        insertedBehindOrOutside.push(await insertAt(`$1::timestamptz + interval '1 hour'`, [to]));
        // Status changes ahead of and behind the cursor move nothing.
        // (A WITH query, so that the driver answers with the rows rather than an UPDATE's count.)
        const [ahead] = await db.query<{ id: string }[]>(
          `WITH changed AS (
             UPDATE appointments SET status = 'CANCELLED', cancellation_reason = 'walk', updated_at = now()
              WHERE id = (SELECT id FROM appointments
                           WHERE business_id = $1 AND status = 'CONFIRMED' AND starts_at < $2
                             AND (starts_at, id) > (SELECT starts_at, id FROM appointments WHERE id = $3)
                           ORDER BY starts_at, id OFFSET 20 LIMIT 1)
             RETURNING id)
           SELECT id FROM changed`,
          [tenant.businessId, to, last],
        );
        if (ahead) cancelledAhead.push(ahead.id);
        await db.query(`UPDATE appointments SET status = 'NO_SHOW', updated_at = now() WHERE id = $1`, [seen[seen.length - 3].id]);
      }
    } while (cursor !== null);

    const seenIds = seen.map((a) => a.id);
    expect(pages).toBeGreaterThan(150);
    expect(new Set(seenIds).size).toBe(seenIds.length);
    expect(new Set(seenIds)).toEqual(new Set([...seeded.map((r) => r.id), ...insertedAhead]));
    for (const id of insertedBehindOrOutside) expect(seenIds).not.toContain(id);
    const inDatabaseOrder = await db.query<{ id: string }[]>(
      'SELECT id FROM appointments WHERE id = ANY($1::uuid[]) ORDER BY starts_at, id',
      [seenIds],
    );
    expect(seenIds).toEqual(inDatabaseOrder.map((r) => r.id));
    for (const appointment of seen) {
      expect(appointment.scheduledAt >= '2031-03-03T08:00:00.000Z' && appointment.scheduledAt < '2031-03-04T19:00:00.000Z').toBe(true);
    }
    expect(cancelledAhead.length).toBeGreaterThan(10);
    for (const id of cancelledAhead) expect(seen.find((a) => a.id === id)?.status).toBe('CANCELLED');
  }, 120_000);
});
