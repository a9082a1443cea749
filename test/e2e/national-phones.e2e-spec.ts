import { randomUUID } from 'node:crypto';
import { E2eApi, type ApiResponse } from '../utils/e2e-api.js';
import { seed, type SeededBusiness } from '../utils/seed.js';

/**
 * Phones in the business's national form (docs/design-record.md#d23): POST /clients, Form B's new
 * client and GET /clients?phone= read `912 345 678` (or `00351 912 345 678`) in the business's
 * country and store E.164.
 */
let api: E2eApi;
let lisbon: SeededBusiness;
let saoPaulo: SeededBusiness;

beforeAll(async () => {
  api = await E2eApi.start();
  lisbon = await seed({
    country: 'PT',
    services: [{ ref: 'cut', name: 'Cut', durationMin: 30, priceCents: 2000 }],
    staff: [{ ref: 'ana', name: 'Ana', workingHours: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: '09:00', end: '18:00' })) }],
  });
  saoPaulo = await seed({ country: 'BR', timezone: 'America/Sao_Paulo', currency: 'BRL', locale: 'pt-BR' });
});
afterAll(() => api.close());

const phoneBase = Date.now() % 10_000;
let phoneSeq = 0;

/** A Portuguese mobile number no other client of this run has: E.164 and its national digits. */
function uniquePortuguese(): { e164: string; national: string } {
  phoneSeq += 1;
  const digits = String(phoneBase * 100 + phoneSeq).padStart(6, '0');
  return { e164: `+351912${digits}`, national: `912 ${digits.slice(0, 3)} ${digits.slice(3)}` };
}

const createClient = (business: SeededBusiness, body: Record<string, unknown>): Promise<ApiResponse> =>
  api.post('/clients', {
    key: business.keys.owner.key,
    body: { name: 'National Phone', consent: true, ...body },
    headers: { 'Idempotency-Key': randomUUID() },
  });
const lookup = (business: SeededBusiness, phone: string): Promise<ApiResponse> =>
  api.get('/clients', { key: business.keys.owner.key, query: { phone } });

function expectValidationFailed(res: ApiResponse, path: string): void {
  expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
  expect((res.body.errors as { path: string }[]).map((error) => error.path)).toContain(path);
}

describe('phones in the business national form (D23)', () => {
  it('creates a client from a national number, stores E.164, and finds it by every form', async () => {
    const phone = uniquePortuguese();
    const created = await createClient(lisbon, { phone: phone.national });
    expect(created.status).toBe(201);
    expect(created.body.phone).toBe(phone.e164);
    for (const form of [phone.national, `00351 ${phone.national}`, phone.e164, phone.national.replace(/ /g, '')]) {
      const found = await lookup(lisbon, form);
      expect({ form, status: found.status, data: found.body.data }).toEqual({ form, status: 200, data: [created.body] });
    }
    // The same number written in another form is the same client.
    const again = await createClient(lisbon, { phone: `00351${phone.national.replace(/ /g, '')}` });
    expect({ status: again.status, code: again.body.code }).toEqual({ status: 409, code: 'CLIENT_EXISTS' });
  });

  it("reads the international prefix of the business's country and an E.164 number of any country", async () => {
    const created = await createClient(lisbon, { phone: '0044 20 7946 0958' });
    expect(created.body.phone).toBe('+442079460958');
    expect((await lookup(lisbon, '+44 20 7946 0958')).body.data).toEqual([created.body]);
  });

  it("reads a national number in the business's own country, not Portugal's", async () => {
    const created = await createClient(saoPaulo, { phone: `11 9${String(1000_0000 + phoneBase * 100 + 1)}` });
    expect(created.status).toBe(201);
    expect(created.body.phone).toMatch(/^\+5511\d{9}$/);
    expect((await lookup(saoPaulo, created.body.phone as string)).body.data).toEqual([created.body]);
  });

  it('books Form B with a national number and stores the new client in E.164', async () => {
    const phone = uniquePortuguese();
    const booked = await api.post('/appointments', {
      key: lisbon.keys.owner.key,
      headers: { 'Idempotency-Key': randomUUID() },
      body: {
        staffId: lisbon.staff.ana,
        serviceId: lisbon.services.cut,
        // A Tuesday, in working hours (Lisbon is UTC+0 in March before the last Sunday).
        startAt: '2036-03-04T10:00:00Z',
        client: { name: 'Form B National', phone: phone.national },
      },
    });
    expect(booked.status).toBe(201);
    const found = await lookup(lisbon, phone.national);
    expect(found.body.data).toEqual([expect.objectContaining({ id: (booked.body.client as { id: string }).id, phone: phone.e164 })]);
  });

  it('refuses a number that is not valid in the business country with 400 naming the field', async () => {
    for (const bad of ['12 345', '0912 345 678', '00351 12']) {
      expectValidationFailed(await createClient(lisbon, { phone: bad }), '/phone');
      expectValidationFailed(await lookup(lisbon, bad), '/query/phone');
    }
    const formB = await api.post('/appointments', {
      key: lisbon.keys.owner.key,
      headers: { 'Idempotency-Key': randomUUID() },
      body: { serviceId: lisbon.services.cut, startAt: '2036-03-03T09:00:00Z', client: { name: 'Bad Phone', phone: '123 456' } },
    });
    expectValidationFailed(formB, '/client/phone');
    // Letters never reach the rules: the contract's pattern refuses them.
    expectValidationFailed(await createClient(lisbon, { phone: 'nine one two' }), '/phone');
  });
});
