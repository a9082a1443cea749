import { jest } from '@jest/globals';
import type { RequestBody } from '#contract/contract-types.js';
import { RequestValidator } from '#contract/request-validator.js';
import { SCOPES } from '#core/scopes/scope.js';
import { E2eApi, type ApiResponse } from '../utils/e2e-api.js';
import { KeyPool } from '../utils/key-pool.js';
import { testSql, type TestSql } from '../utils/test-context.js';
import { BOOKING_YEAR, loadRobustSalon, type RobustSalon } from './support/robust-salon.js';

/**
 * Issue 8.7: hostile bodies on the four writes. Too large, deeply nested, huge strings, wrong
 * JSON types, broken Unicode, NUL characters and prototype-pollution keys each get a clear 4xx
 * problem (never a 5xx from PostgreSQL or from a stack overflow), and nothing is stored: the
 * business's rows are counted before and after. Unicode that is merely unusual (right-to-left,
 * emoji, combining marks) is accepted and stored exactly as sent.
 */
jest.setTimeout(60_000);

let api: E2eApi;
let db: TestSql;
let salon: RobustSalon;
let pool: KeyPool;
let sequence = 0;
const contract = new RequestValidator();

beforeAll(async () => {
  api = await E2eApi.start();
  db = testSql(api.app);
  salon = await loadRobustSalon({ activeAppointments: 6 });
  pool = new KeyPool(api.app, salon.tenant, SCOPES, 100);
});
afterAll(() => api.close());

const TABLES = ['clients', 'appointments', 'notices', 'outbound_emails', 'idempotency_records'] as const;

/** Every row the business has, per table, and the appointments' states. */
async function snapshot(): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const table of TABLES) {
    const where = table === 'idempotency_records' ? 'api_key_id IN (SELECT id FROM api_keys WHERE business_id = $1)' : 'business_id = $1';
    out[table] = Number(
      (await db.query<{ n: string }[]>(`SELECT count(*) AS n FROM ${table} WHERE ${where}`, [salon.tenant.businessId]))[0].n,
    );
  }
  out.states = await db.query('SELECT id, status, starts_at FROM appointments WHERE business_id = $1 ORDER BY id', [
    salon.tenant.businessId,
  ]);
  return out;
}

async function post(path: string, text: string, contentType = 'application/json'): Promise<ApiResponse> {
  sequence += 1;
  return api.call('POST', path, {
    key: await pool.key(),
    headers: { 'Content-Type': contentType, 'Idempotency-Key': `hostile-${sequence}-${Date.now()}` },
    rawBody: text,
  });
}

interface Write {
  operationId: string;
  path: string;
  /** A body that would succeed. */
  valid: () => Record<string, unknown>;
  /** Pointers of its string fields, for putting bad text into each. */
  strings: string[];
}

let phoneSeq = 0;
const phone = () => `+35192${String((Date.now() % 100_000) * 10 + (phoneSeq++ % 10)).padStart(7, '0')}`;
const slot = (n: number) => new Date(Date.UTC(BOOKING_YEAR + 12, 0, 1 + n, 10)).toISOString();

const writes = (): Write[] => [
  {
    operationId: 'createClient',
    path: '/clients',
    valid: () =>
      ({
        name: 'Marta Sousa',
        phone: phone(),
        email: 'marta@example.com',
        birthDate: '1990-01-01',
        guardianName: 'Ana',
        guardianEmail: 'ana@example.com',
        consent: true,
      }) satisfies RequestBody<'createClient'>,
    strings: ['/name', '/phone', '/email', '/birthDate', '/guardianName', '/guardianEmail'],
  },
  {
    operationId: 'createAppointment',
    path: '/appointments',
    valid: () =>
      ({
        staffId: salon.staff.ana,
        serviceId: salon.services.cut,
        startAt: slot(1),
        client: { name: 'Rui Novo', phone: phone(), email: '' },
      }) satisfies RequestBody<'createAppointment'>,
    strings: ['/staffId', '/serviceId', '/startAt', '/client/name', '/client/phone', '/client/email'],
  },
  {
    operationId: 'rescheduleAppointment',
    path: `/appointments/${salon.activeAppointments[0]}/reschedule`,
    valid: () => ({ startAt: slot(2), staffId: salon.staff.ana }) satisfies RequestBody<'rescheduleAppointment'>,
    strings: ['/startAt', '/staffId'],
  },
  {
    operationId: 'cancelAppointment',
    path: `/appointments/${salon.activeAppointments[1]}/cancel`,
    valid: () => ({ reason: 'Client asked to cancel.' }) satisfies RequestBody<'cancelAppointment'>,
    strings: ['/reason'],
  },
];

/** A copy of `body` with the value at `pointer` replaced. */
function withValue(body: Record<string, unknown>, pointer: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  const parts = pointer.slice(1).split('/');
  let node = copy;
  for (const part of parts.slice(0, -1)) node = node[part] as Record<string, unknown>;
  node[parts.at(-1)!] = value;
  return copy;
}

function deep(levels: number, open: string, close: string, inner = '1'): string {
  return `${open.repeat(levels)}${inner}${close.repeat(levels)}`;
}

/** Hostile bodies for one write, each with the status it must get. */
function hostileBodies(write: Write): { label: string; text: string; status: number; contentType?: string; path?: string }[] {
  const valid = write.valid();
  const text = (body: unknown) => JSON.stringify(body);
  const cases: { label: string; text: string; status: number; contentType?: string; path?: string }[] = [
    { label: 'over 64 KiB', text: text({ ...valid, padding: 'x'.repeat(65 * 1024) }), status: 413 },
    {
      label: 'exactly 64 KiB + 1 of spaces',
      text: `${text(valid)}${' '.repeat(64 * 1024 + 1 - Buffer.byteLength(text(valid)))}`,
      status: 413,
    },
    { label: '1 MiB', text: 'x'.repeat(1024 * 1024), status: 413 },
    { label: 'nested arrays 30 000 deep', text: `{"x":${deep(30_000, '[', ']')}}`, status: 400, path: '' },
    { label: 'nested objects 10 000 deep', text: deep(10_000, '{"a":', '}'), status: 400, path: '' },
    {
      label: 'nested 40 deep in a field',
      text: text(withValue(valid, write.strings[0], JSON.parse(deep(40, '[', ']')))),
      status: 400,
      path: '',
    },
    { label: 'malformed JSON', text: text(valid).slice(0, -1), status: 400, path: '' },
    { label: 'an empty body', text: '', status: 400 },
    { label: 'JSON null', text: 'null', status: 400 },
    { label: 'a JSON array', text: '[]', status: 400 },
    { label: 'a JSON string', text: '"x"', status: 400 },
    { label: 'a huge number', text: '1e999', status: 400 },
    { label: '__proto__ at the top', text: `{"__proto__":{"polluted":"yes"},${text(valid).slice(1)}`, status: 400, path: '/__proto__' },
    {
      label: 'constructor.prototype at the top',
      text: `{"constructor":{"prototype":{"polluted":"yes"}},${text(valid).slice(1)}`,
      status: 400,
      path: '/constructor',
    },
    { label: 'prototype at the top', text: `{"prototype":{"polluted":"yes"},${text(valid).slice(1)}`, status: 400, path: '/prototype' },
    { label: 'a NUL in a property name', text: `{"rea\\u0000son":"abc",${text(valid).slice(1)}`, status: 400 },
  ];
  if ('client' in valid) {
    const client = JSON.stringify(valid.client);
    cases.push({
      label: '__proto__ inside client',
      text: text(valid).replace(client, `{"__proto__":{"polluted":"yes"},${client.slice(1)}`),
      status: 400,
    });
  }
  for (const pointer of write.strings) {
    cases.push(
      { label: `a NUL in ${pointer}`, text: text(withValue(valid, pointer, 'Ab\u0000cdef')), status: 400, path: pointer },
      { label: `only a NUL in ${pointer}`, text: text(withValue(valid, pointer, '\u0000\u0000\u0000')), status: 400, path: pointer },
      { label: `a lone high surrogate in ${pointer}`, text: text(withValue(valid, pointer, 'Ab\uD800cd')), status: 400, path: pointer },
      { label: `a lone low surrogate in ${pointer}`, text: text(withValue(valid, pointer, '\uDC00abc')), status: 400, path: pointer },
      {
        label: `a 60 000-character string in ${pointer}`,
        text: text(withValue(valid, pointer, 'é'.repeat(30_000))),
        status: 400,
        path: pointer,
      },
    );
    for (const wrong of [null, 0, 1.5, true, [], {}, ['x'], { a: 'x' }]) {
      const body = withValue(valid, pointer, wrong);
      // Some fields take null (birthDate, guardianName, guardianEmail): only what the contract refuses.
      if (!contract.validateBody(write.operationId, body).ok)
        cases.push({ label: `${JSON.stringify(wrong)} in ${pointer}`, text: text(body), status: 400, path: pointer });
    }
  }
  if (write.operationId === 'createClient') {
    for (const wrong of ['true', 1, false, null])
      cases.push({ label: `consent ${JSON.stringify(wrong)}`, text: text({ ...valid, consent: wrong }), status: 400, path: '/consent' });
  }
  return cases;
}

const WRITES = ['createClient', 'createAppointment', 'rescheduleAppointment', 'cancelAppointment'] as const;

describe.each(WRITES.map((w) => [w] as const))('%s', (operationId) => {
  it('refuses every hostile body with a clear 4xx problem, and stores nothing', async () => {
    const write = writes().find((w) => w.operationId === operationId)!;
    const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();
    const before = await snapshot();
    const wrong: string[] = [];
    for (const c of hostileBodies(write)) {
      const res = await post(write.path, c.text, c.contentType);
      const paths = ((res.body?.errors ?? []) as { path: string; message: string }[]).map((e) => e.path);
      const ok =
        res.status === c.status &&
        String(res.headers['content-type']).startsWith('application/problem+json') &&
        (c.path === undefined || paths.includes(c.path));
      if (!ok) wrong.push(`${c.label}: expected ${c.status}${c.path ? ` at ${c.path}` : ''}, got ${res.status} ${res.text.slice(0, 240)}`);
    }
    expect(wrong).toEqual([]);
    expect(await snapshot()).toEqual(before);
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('unusual but valid Unicode is stored exactly as sent', () => {
  const names = [
    'محمد علي', // right to left
    'דנה \u202Bלוי\u202C', // with explicit bidi embedding
    'Ame\u0301lie', // combining acute accent (NFD), not normalised
    'Amélie', // the same in NFC: a different client name text
    'Ana 👩‍🔬 Costa 🏳️‍🌈', // emoji ZWJ sequences
    'Z\u0334\u031Ba\u0335l\u0337g\u0338o\u0336', // stacked combining marks
    '李小龙',
    '𝔄𝔫𝔞 𠀀', // astral code points (surrogate pairs)
  ];

  it.each(names.map((n) => [n] as const))('client name %j', async (name) => {
    const body = { name, phone: phone(), consent: true } satisfies RequestBody<'createClient'>;
    const res = await api.post('/clients', {
      key: await pool.key(),
      body,
      headers: { 'Idempotency-Key': `unicode-${Date.now()}-${phoneSeq}` },
    });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe(name);
    const read = await api.get(`/clients/${res.body.id as string}`, { key: await pool.key() });
    expect(read.body.name).toBe(name);
    const [row] = await db.query<{ name: string }[]>('SELECT name FROM clients WHERE id = $1', [res.body.id]);
    expect(row.name).toBe(name);
  });

  it('a booking for a new client with a right-to-left name, cancelled with an emoji reason', async () => {
    const name = 'محمد 👋';
    const booked = await api.post('/appointments', {
      key: await pool.key(),
      headers: { 'Idempotency-Key': `unicode-booking-${Date.now()}` },
      body: {
        staffId: salon.staff.ana,
        serviceId: salon.services.cut,
        startAt: slot(20),
        client: { name, phone: phone() },
      } satisfies RequestBody<'createAppointment'>,
    });
    expect(booked.status).toBe(201);
    expect(booked.body.client.name).toBe(name);
    const reason = 'Doente 🤒 — مريض';
    const cancelled = await api.post(`/appointments/${booked.body.id as string}/cancel`, {
      key: await pool.key(),
      headers: { 'Idempotency-Key': `unicode-cancel-${Date.now()}` },
      body: { reason },
    });
    expect(cancelled.status).toBe(200);
    const [row] = await db.query<{ cancellation_reason: string }[]>('SELECT cancellation_reason FROM appointments WHERE id = $1', [
      booked.body.id,
    ]);
    expect(row.cancellation_reason).toBe(reason);
  });
});

describe('date-times at the ends of the calendar', () => {
  // Valid RFC 3339 text whose instant (UTC) falls in the year 0000 or 10000, or just inside.
  const EDGES = [
    '0000-01-01T10:00:00Z',
    '0001-01-01T00:30:00+01:00',
    '0001-01-01T00:00:00Z',
    '9999-12-31T23:30:00-11:00',
    '9999-12-31T23:59:59.999999Z',
    '9999-12-31T10:00:00Z',
  ];

  it('never answers 5xx nor writes a year the contract cannot carry, in a booking, a reschedule or a list', async () => {
    const before = await snapshot();
    const statuses: string[] = [];
    for (const at of EDGES) {
      const book = await post(
        '/appointments',
        JSON.stringify({ staffId: salon.staff.rui, serviceId: salon.services.cut, startAt: at, client: { id: salon.clients[1] } }),
      );
      const move = await post(`/appointments/${salon.activeAppointments[3]}/reschedule`, JSON.stringify({ startAt: at }));
      const since = await api.get('/clients', { key: await pool.key(), query: { updatedSince: at } });
      const range = await api.get('/appointments', { key: await pool.key(), query: { from: at, to: '9999-12-31T23:59:59Z' } });
      statuses.push(`${at}: book ${book.status}, reschedule ${move.status}, updatedSince ${since.status}, from ${range.status}`);
      // E2eApi has checked every answer against the contract (a year 10000 timestamp would fail it).
      for (const res of [book, move, since, range]) expect(res.status).toBeLessThan(500);
      if (book.status === 201) expect(at).toBe('9999-12-31T10:00:00Z');
    }
    expect(statuses.filter((s) => s.includes(' 500'))).toEqual([]);
    // Only the booking inside the year 9999 was written; nothing else changed.
    const after = await snapshot();
    expect(after.appointments).toBe((before.appointments as number) + 1);
  });
});
