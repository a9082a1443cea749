import { randomUUID } from 'node:crypto';
import { SCOPES } from '#core/scopes/scope.js';
import { E2eApi } from '../utils/e2e-api.js';
import { NoticeReceiver } from '../utils/notice-receiver.js';
import { seed, type SeededBusiness } from '../utils/seed.js';
import { testConfig } from '../utils/test-config.js';

/**
 * A write that creates a resource answers its address in `Location` (1.4.0, docs/design-record.md#d23):
 * relative (`/v1/api/…`) unless PUBLIC_BASE_URL is set, on the first answer and on a replay alike,
 * and for a key of every version.
 */
let api: E2eApi;
let receiver: NoticeReceiver;
let salon: SeededBusiness;
let slot = 0;

beforeAll(async () => {
  api = await E2eApi.start();
  receiver = await NoticeReceiver.start();
  salon = await seed({
    staff: [
      { ref: 'ana', name: 'Ana Costa', workingHours: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: '08:00', end: '20:00' })) },
    ],
    clients: [{ ref: 'joao', name: 'João Silva', consent: true }],
    services: [{ ref: 'cut', name: 'Haircut', durationMin: 30, priceCents: 2500 }],
    keys: [
      { ref: 'owner', member: 'owner', name: 'Current', scopes: SCOPES },
      { ref: 'old', member: 'owner', name: 'Pinned to 1.3.0', scopes: SCOPES, apiVersion: '1.3.0' },
    ],
  });
});
afterAll(async () => {
  await receiver.close();
  await api.close();
});

function nextStart(): string {
  slot += 1;
  return new Date(Date.UTC(2036, 2, 3, 9, 0) + slot * 30 * 60_000).toISOString();
}

const booking = () => ({
  staffId: salon.staff.ana,
  serviceId: salon.services.cut,
  startAt: nextStart(),
  client: { id: salon.clients.joao },
});

/** Follows a relative Location through the harness (which adds /v1/api itself). */
async function follow(location: string, key: string) {
  expect(location).toMatch(/^\/v1\/api\//);
  return api.get(location.replace(/^\/v1\/api/, ''), { key });
}

describe('Location on created resources', () => {
  it('POST /appointments: the new appointment, the same on a replay', async () => {
    const headers = { 'Idempotency-Key': randomUUID() };
    const body = booking();
    const first = await api.post('/appointments', { key: salon.keys.owner.key, body, headers });
    expect(first.status).toBe(201);
    expect(first.headers.location).toBe(`/v1/api/appointments/${first.body.id}`);
    expect((await follow(first.headers.location, salon.keys.owner.key)).body.id).toBe(first.body.id);
    const replay = await api.post('/appointments', { key: salon.keys.owner.key, body, headers });
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.headers.location).toBe(first.headers.location);
  });

  it('POST /appointments/{id}/reschedule: the new appointment, on its 200', async () => {
    const booked = await api.post('/appointments', {
      key: salon.keys.owner.key,
      body: booking(),
      headers: { 'Idempotency-Key': randomUUID() },
    });
    const headers = { 'Idempotency-Key': randomUUID() };
    const body = { startAt: nextStart() };
    const moved = await api.post(`/appointments/${booked.body.id}/reschedule`, { key: salon.keys.owner.key, body, headers });
    expect(moved.status).toBe(200);
    expect(moved.body.id).not.toBe(booked.body.id);
    expect(moved.headers.location).toBe(`/v1/api/appointments/${moved.body.id}`);
    const replay = await api.post(`/appointments/${booked.body.id}/reschedule`, { key: salon.keys.owner.key, body, headers });
    expect(replay.headers.location).toBe(moved.headers.location);
  });

  it('POST /clients and POST /webhook-endpoints: the new client and endpoint', async () => {
    const headers = { 'Idempotency-Key': randomUUID() };
    const body = { name: 'Rita Lopes', phone: '+351912000111', consent: true };
    const client = await api.post('/clients', { key: salon.keys.owner.key, body, headers });
    expect(client.status).toBe(201);
    expect(client.headers.location).toBe(`/v1/api/clients/${client.body.id}`);
    expect((await follow(client.headers.location, salon.keys.owner.key)).body.name).toBe('Rita Lopes');
    expect((await api.post('/clients', { key: salon.keys.owner.key, body, headers })).headers.location).toBe(client.headers.location);

    const endpoint = await api.post('/webhook-endpoints', {
      key: salon.keys.owner.key,
      body: { url: receiver.url('/location'), events: ['appointment.created'] },
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(endpoint.status).toBe(201);
    expect(endpoint.headers.location).toBe(`/v1/api/webhook-endpoints/${endpoint.body.id}`);
    expect((await follow(endpoint.headers.location, salon.keys.owner.key)).body.id).toBe(endpoint.body.id);
  });

  it('is sent to a key pinned to 1.3.0 too, and never on a refusal', async () => {
    const booked = await api.post('/appointments', {
      key: salon.keys.old.key,
      body: booking(),
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(booked.status).toBe(201);
    expect(booked.headers['api-version']).toBe('1.3.0');
    expect(booked.headers.location).toBe(`/v1/api/appointments/${booked.body.id}`);
    const invalid = await api.post('/appointments', {
      key: salon.keys.owner.key,
      body: { ...booking(), notifyClient: 'no' },
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.location).toBeUndefined();
    const exists = await api.post('/clients', {
      key: salon.keys.owner.key,
      body: { name: 'Rita Lopes', phone: '+351912000111', consent: true },
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(exists.status).toBe(409);
    expect(exists.headers.location).toBeUndefined();
  });
});

describe('Location under PUBLIC_BASE_URL', () => {
  let behindProxy: E2eApi;
  beforeAll(async () => {
    behindProxy = await E2eApi.start(testConfig({ PUBLIC_BASE_URL: 'https://api.example.com/scheduling' }));
  });
  afterAll(() => behindProxy.close());

  it('is absolute under the public address, on the first answer and the replay', async () => {
    const headers = { 'Idempotency-Key': randomUUID() };
    const body = booking();
    const first = await behindProxy.post('/appointments', { key: salon.keys.owner.key, body, headers });
    expect(first.status).toBe(201);
    expect(first.headers.location).toBe(`https://api.example.com/scheduling/v1/api/appointments/${first.body.id}`);
    const replay = await behindProxy.post('/appointments', { key: salon.keys.owner.key, body, headers });
    expect(replay.headers.location).toBe(first.headers.location);
  });
});
