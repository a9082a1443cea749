import { randomUUID } from 'node:crypto';
import { E2eApi } from '../utils/e2e-api.js';
import { seed, type SeededBusiness } from '../utils/seed.js';

/**
 * GET /availability (docs/design-record.md#d15) and "any staff" booking (docs/design-record.md#d16)
 * through HTTP: the answers' shape and the refusals. That offered starts and bookable starts are
 * the same set is shown by the property test (test/integration/availability).
 */
let api: E2eApi;
let salon: SeededBusiness;
let key: string;
// Mondays to Saturdays 09:00-13:00 and 14:00-18:00, Lisbon; 2035-01-08 is a Monday (UTC+0 in January).
const WEEK = [1, 2, 3, 4, 5, 6].flatMap((weekday) => [
  { weekday, start: '09:00', end: '13:00' },
  { weekday, start: '14:00', end: '18:00' },
]);
const DAY = '2035-01-08';

beforeAll(async () => {
  api = await E2eApi.start();
  salon = await seed({
    stepMin: 30,
    services: [
      { ref: 'cut', name: 'Cut', durationMin: 30, priceCents: 2000 },
      { ref: 'colour', name: 'Colour', durationMin: 90, priceCents: 6000 },
      { ref: 'old', name: 'Old', durationMin: 30, priceCents: 1000, active: false },
    ],
    staff: [
      { ref: 'ana', name: 'Ana', workingHours: WEEK },
      {
        ref: 'rui',
        name: 'Rui',
        workingHours: WEEK,
        services: ['cut'],
        blocks: [{ startAt: `${DAY}T09:00:00Z`, endAt: `${DAY}T10:00:00Z` }],
      },
      { ref: 'eva', name: 'Eva', workingHours: WEEK, active: false },
    ],
    clients: [
      { ref: 'joao', name: 'João', phone: '+351912000001', consent: true },
      { ref: 'maria', name: 'Maria', phone: '+351912000002', consent: true },
    ],
    appointments: [{ ref: 'a1', staff: 'ana', service: 'cut', client: 'joao', startAt: `${DAY}T09:00:00Z` }],
  });
  key = salon.keys.owner.key;
});
afterAll(() => api.close());

const availability = (query: Record<string, string>) => api.get('/availability', { key, query });
const book = (body: Record<string, unknown>) => api.post('/appointments', { key, body, headers: { 'Idempotency-Key': randomUUID() } });

describe('GET /availability', () => {
  it('lists each grid start with every member who can take it', async () => {
    const res = await availability({ serviceId: salon.services.cut, from: `${DAY}T09:00:00Z`, to: `${DAY}T10:30:00Z` });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      serviceId: salon.services.cut,
      durationMin: 30,
      stepMin: 30,
      timeZone: 'Europe/Lisbon',
      data: [
        // 09:00: Ana is booked, Rui blocked until 10:00, Eva inactive: nobody.
        { startAt: `${DAY}T09:30:00.000Z`, endAt: `${DAY}T10:00:00.000Z`, staffIds: [salon.staff.ana] },
        { startAt: `${DAY}T10:00:00.000Z`, endAt: `${DAY}T10:30:00.000Z`, staffIds: [salon.staff.ana, salon.staff.rui].sort() },
      ],
    });
  });

  it('narrows to one member, and offers nothing for a service the member does not perform', async () => {
    const range = { from: `${DAY}T09:00:00Z`, to: `${DAY}T18:00:00Z` };
    const rui = await availability({ serviceId: salon.services.cut, staffId: salon.staff.rui, ...range });
    expect(rui.body.data.every((s: { staffIds: string[] }) => s.staffIds.length === 1 && s.staffIds[0] === salon.staff.rui)).toBe(true);
    expect(rui.body.data[0].startAt).toBe(`${DAY}T10:00:00.000Z`);
    const colour = await availability({ serviceId: salon.services.colour, staffId: salon.staff.rui, ...range });
    expect({ status: colour.status, data: colour.body.data }).toEqual({ status: 200, data: [] });
    // A 90-minute service fits 09:00-13:00 at 09:00, 09:30 … 11:30 only.
    const ana = await availability({
      serviceId: salon.services.colour,
      staffId: salon.staff.ana,
      from: `${DAY}T09:00:00Z`,
      to: `${DAY}T13:00:00Z`,
    });
    expect(ana.body.data.map((s: { startAt: string }) => s.startAt.slice(11, 16))).toEqual(['09:30', '10:00', '10:30', '11:00', '11:30']);
  });

  it('answers an inactive service with no data, and unknown ids with 404', async () => {
    const range = { from: `${DAY}T00:00:00Z`, to: `${DAY}T23:00:00Z` };
    const inactive = await availability({ serviceId: salon.services.old, ...range });
    expect({ status: inactive.status, data: inactive.body.data }).toEqual({ status: 200, data: [] });
    for (const query of [{ serviceId: randomUUID() }, { serviceId: salon.services.cut, staffId: randomUUID() }] as Record<
      string,
      string
    >[]) {
      const res = await availability({ ...query, ...range });
      expect({ query, status: res.status, code: res.body.code }).toEqual({ query, status: 404, code: 'NOT_FOUND' });
    }
  });

  it('refuses a reversed, empty or over-31-day range and a date-time without an offset', async () => {
    const serviceId = salon.services.cut;
    for (const [query, path] of [
      [{ serviceId, from: `${DAY}T10:00:00Z`, to: `${DAY}T09:00:00Z` }, '/query/to'],
      [{ serviceId, from: `${DAY}T10:00:00Z`, to: `${DAY}T10:00:00Z` }, '/query/to'],
      [{ serviceId, from: '2035-01-01T00:00:00Z', to: '2035-02-01T00:00:01Z' }, '/query/to'],
      [{ serviceId, from: '2035-01-01T00:00:00', to: '2035-01-02T00:00:00Z' }, '/query/from'],
      [{ from: '2035-01-01T00:00:00Z', to: '2035-01-02T00:00:00Z' }, '/query/serviceId'],
    ] as const) {
      const res = await availability(query);
      expect({ query, status: res.status, code: res.body.code }).toEqual({ query, status: 400, code: 'VALIDATION_FAILED' });
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    }
    const month = await availability({ serviceId, from: '2035-01-01T00:00:00Z', to: '2035-02-01T00:00:00Z' });
    expect(month.status).toBe(200);
  });

  it('never offers a start in the past', async () => {
    const now = Date.now();
    const res = await availability({
      serviceId: salon.services.cut,
      from: new Date(now - 7 * 86_400_000).toISOString(),
      to: new Date(now + 86_400_000).toISOString(),
    });
    expect(res.status).toBe(200);
    expect(res.body.data.filter((s: { startAt: string }) => Date.parse(s.startAt) < now)).toEqual([]);
  });
});

describe('POST /appointments without staffId (any staff)', () => {
  const day2 = '2035-01-09';

  it('books the member with the fewest appointments that day, and answers like any booking', async () => {
    // Ana gets one on day 2 first (named), so Rui, with none, takes the any-staff booking.
    const named = await book({
      staffId: salon.staff.ana,
      serviceId: salon.services.cut,
      startAt: `${day2}T09:00:00Z`,
      client: { id: salon.clients.joao },
    });
    expect(named.status).toBe(201);
    const any = await book({ serviceId: salon.services.cut, startAt: `${day2}T11:00:00Z`, client: { id: salon.clients.maria } });
    expect(any.status).toBe(201);
    expect(any.body.staff).toEqual({ id: salon.staff.rui, name: 'Rui' });
    // Now one each: the tie goes to the one with fewer before 15:00… both have one: the lowest id.
    const tie = await book({ serviceId: salon.services.cut, startAt: `${day2}T15:00:00Z`, client: { id: salon.clients.joao } });
    expect(tie.body.staff.id).toBe([salon.staff.ana, salon.staff.rui].sort()[0]);
  });

  it('books only members who perform the service, with Form B too, and replays the same member', async () => {
    const form = {
      serviceId: salon.services.colour,
      startAt: '2035-01-10T09:00:00Z',
      client: { name: 'Nova Cliente', phone: '+351912000099' },
    };
    const idempotencyKey = randomUUID();
    const first = await api.post('/appointments', { key, body: form, headers: { 'Idempotency-Key': idempotencyKey } });
    expect(first.status).toBe(201);
    expect(first.body.staff.id).toBe(salon.staff.ana);
    const replay = await api.post('/appointments', { key, body: form, headers: { 'Idempotency-Key': idempotencyKey } });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.text).toBe(first.text);
  });

  it('answers SLOT_UNAVAILABLE when nobody can take the start, SLOT_TAKEN for a named member who is busy', async () => {
    const sunday = await book({ serviceId: salon.services.cut, startAt: '2035-01-14T10:00:00Z', client: { id: salon.clients.joao } });
    expect({ status: sunday.status, code: sunday.body.code }).toEqual({ status: 409, code: 'SLOT_UNAVAILABLE' });
    const inactive = await book({ serviceId: salon.services.old, startAt: '2035-01-15T10:00:00Z', client: { id: salon.clients.joao } });
    expect(inactive.body.code).toBe('SLOT_UNAVAILABLE');
    // Both free members booked at 12:00 on day 4: the third any-staff booking finds nobody free.
    for (const expected of [201, 201, 409]) {
      const res = await book({ serviceId: salon.services.cut, startAt: '2035-01-11T12:00:00Z', client: { id: salon.clients.maria } });
      expect(res.status).toBe(expected);
    }
    const unknown = await book({ serviceId: randomUUID(), startAt: '2035-01-11T12:00:00Z', client: { id: salon.clients.maria } });
    expect(unknown.status).toBe(404);
  });

  it('says an "any staff" refusal of no one member: no staff member who performs the service is free', async () => {
    const sunday = await book({ serviceId: salon.services.cut, startAt: '2035-01-21T10:00:00Z', client: { id: salon.clients.joao } });
    expect(sunday.body).toMatchObject({
      code: 'SLOT_UNAVAILABLE',
      detail: 'No staff member who performs the service is free at this start: the interval is outside their working hours.',
    });
    for (const expected of [201, 201]) {
      const res = await book({ serviceId: salon.services.cut, startAt: '2035-01-22T12:00:00Z', client: { id: salon.clients.maria } });
      expect(res.status).toBe(expected);
    }
    const busy = await book({ serviceId: salon.services.cut, startAt: '2035-01-22T12:00:00Z', client: { id: salon.clients.maria } });
    expect(busy.status).toBe(409);
    expect(busy.body.detail).toMatch(/^No staff member who performs the service is free at this start/);
    for (const refusal of [sunday, busy]) expect(refusal.body.detail).not.toMatch(/the staff member/i);
  });

  it('books a free start off the grid, which GET /availability never offers (the grid is where free times are offered)', async () => {
    const offered = await availability({ serviceId: salon.services.cut, from: '2035-01-23T10:00:00Z', to: '2035-01-23T11:00:00Z' });
    expect((offered.body.data as { startAt: string }[]).map((item) => item.startAt)).not.toContain('2035-01-23T10:15:00.000Z');
    const offGrid = await book({ serviceId: salon.services.cut, startAt: '2035-01-23T10:15:00Z', client: { id: salon.clients.joao } });
    expect({ status: offGrid.status, scheduledAt: offGrid.body.scheduledAt }).toEqual({
      status: 201,
      scheduledAt: '2035-01-23T10:15:00.000Z',
    });
  });
});
