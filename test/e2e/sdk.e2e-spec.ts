import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jest } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import { Redis } from 'ioredis';
import { SCOPES } from '#core/scopes/scope.js';
import {
  SchedulingApiError,
  SchedulingClient,
  isSchedulingApiError,
  verifyNotice,
  type ClientContact,
  type SchedulingClientOptions,
} from '#sdk/index.js';
import { ALL_WEEK } from '../factories/booking-fixture.js';
import { CompiledApi, contractCheckedFetch } from '../utils/compiled-api.js';
import { childEnv } from '../utils/child-process.js';
import { NoticeReceiver } from '../utils/notice-receiver.js';
import { emptyNoticesQueue } from '../utils/notice-setup.js';
import { seed, type SeededBusiness } from '../utils/seed.js';
import { testConfig } from '../utils/test-config.js';
import { startTestContext, testSql } from '../utils/test-context.js';

/**
 * The partner SDK (libs/sdk) against the compiled API and worker, as a partner's server would use
 * it: every answer it gets is also checked against the contract.
 */
jest.setTimeout(180_000);

const NAME = 'sdk-e2e';
let server: CompiledApi;
let admin: INestApplicationContext;
let business: SeededBusiness;
let redis: Redis;
/** The seeded client's phone, the only client of the business: a lookup that became the plain list would answer it. */
const JOAO_DIGITS = String(Date.now() % 10_000_000).padStart(7, '0');
const violations: string[] = [];

beforeAll(async () => {
  const env = childEnv(NAME);
  await emptyNoticesQueue({ ...testConfig(), QUEUE_PREFIX: env.QUEUE_PREFIX! });
  server = await CompiledApi.start(NAME, { worker: true });
  ({ app: admin } = await startTestContext({ app: 'admin' }));
  redis = new Redis(testConfig().REDIS_URL);
  business = await seed({
    name: 'SDK Salon',
    timezone: 'Europe/Lisbon',
    plan: 'TEAM',
    services: [{ ref: 'cut', name: 'Corte', durationMin: 30, priceCents: 2500 }],
    staff: [
      { ref: 'ana', name: 'Ana Costa', workingHours: ALL_WEEK },
      { ref: 'rui', name: 'Rui Alves', workingHours: ALL_WEEK },
    ],
    clients: [{ ref: 'joao', name: 'João Silva', phone: `+35191${JOAO_DIGITS}`, email: null }],
    keys: ['flow', 'limit', 'lost', 'walk', 'headers'].map((ref) => ({ ref, member: 'owner', name: ref, scopes: [...SCOPES] })),
  });
});

afterAll(async () => {
  await server?.stop();
  await admin?.close();
  redis?.disconnect();
});

afterEach(() => {
  expect(violations).toEqual([]);
});

function sdkFor(key: string, options: Omit<Partial<SchedulingClientOptions>, 'apiKey' | 'auth'> = {}): SchedulingClient {
  return new SchedulingClient({ baseUrl: server.origin, apiKey: key, fetch: contractCheckedFetch(violations), ...options });
}

describe('a partner flow through the SDK', () => {
  it('finds a free time, books any staff, reschedules, cancels and verifies the notices it receives', async () => {
    const receiver = await NoticeReceiver.start();
    try {
      const sdk = sdkFor(business.keys.flow.key, { userAgent: 'sdk-e2e/1' });
      const me = await sdk.me();
      expect(me.business.slug).toBe(business.slug);

      const endpoint = await sdk.webhookEndpoints.create({
        url: receiver.url('/notices'),
        events: ['appointment.created', 'appointment.rescheduled', 'appointment.cancelled'],
      });

      const free = await sdk.availability.get({
        serviceId: business.services.cut,
        from: '2035-06-04T00:00:00Z',
        to: '2035-06-05T00:00:00Z',
      });
      expect(free.data.length).toBeGreaterThan(2);
      const [first, , third] = free.data;

      // "Any staff": no staffId; the API picks a member who can take it.
      const booked = await sdk.appointments.create({
        serviceId: business.services.cut,
        startAt: first.startAt,
        client: { id: business.clients.joao },
      });
      expect(booked.status).toBe('CONFIRMED');
      expect(first.staffIds).toContain(booked.staff.id);
      expect(await sdk.appointments.get(booked.id)).toEqual(booked);

      const moved = await sdk.appointments.reschedule(booked.id, { startAt: third.startAt });
      expect(moved.rescheduledFromId).toBe(booked.id);
      expect((await sdk.appointments.get(booked.id)).status).toBe('RESCHEDULED');

      const cancelled = await sdk.appointments.cancel(moved.id, { reason: 'The client asked to cancel' });
      expect(cancelled.status).toBe('CANCELLED');
      const again = await sdk.appointments.cancel(moved.id, { reason: 'Twice' }).catch((error: unknown) => error);
      expect(isSchedulingApiError(again, 'APPOINTMENT_NOT_ACTIVE')).toBe(true);

      // The booking's notice, verified with the secret the endpoint was created with.
      await receiver.waitFor(
        (received) => received.some((notice) => notice.path === '/notices' && notice.body.includes(booked.id)),
        60_000,
      );
      const delivery = receiver.received.find((notice) => notice.body.includes(booked.id) && notice.body.includes('appointment.created'))!;
      const notice = verifyNotice(delivery.body, delivery.headers, endpoint.secret);
      expect(notice).toMatchObject({ type: 'appointment.created', business: business.slug, data: { id: booked.id } });
      // After a rotation both secrets verify; a stranger's does not.
      const rotated = await sdk.webhookEndpoints.rotateSecret(endpoint.id);
      expect(verifyNotice(delivery.body, delivery.headers, [rotated.secret, endpoint.secret]).id).toBe(notice.id);
      expect(() => verifyNotice(delivery.body, delivery.headers, rotated.secret)).toThrow();

      await sdk.webhookEndpoints.delete(endpoint.id);
    } finally {
      await receiver.close();
    }
  });

  it('walks the appointment list across several pages with the async iterator', async () => {
    const sdk = sdkFor(business.keys.walk.key);
    const starts = ['09:00', '09:30', '10:00', '10:30', '11:00'].map((time) => `2035-06-11T${time}:00Z`);
    const booked = [];
    for (const startAt of starts) {
      booked.push(
        await sdk.appointments.create({
          serviceId: business.services.cut,
          staffId: business.staff.ana,
          startAt,
          client: { id: business.clients.joao },
        }),
      );
    }
    const range = { from: '2035-06-11T00:00:00Z', to: '2035-06-12T00:00:00Z' };
    const pages: number[] = [];
    const counting = sdkFor(business.keys.walk.key, {
      fetch: async (request) => {
        if (new URL(request.url).pathname.endsWith('/appointments')) pages.push(pages.length);
        return contractCheckedFetch(violations)(request);
      },
    });
    const walked = [];
    for await (const appointment of counting.appointments.list({ ...range, limit: 2 })) walked.push(appointment.id);
    expect(walked).toEqual(booked.map((appointment) => appointment.id));
    expect(pages).toHaveLength(3);
    // One page on its own.
    const page = await sdk.appointments.listPage({ ...range, limit: 2 });
    expect(page.data.map((appointment) => appointment.id)).toEqual(walked.slice(0, 2));
    expect(page.nextCursor).toEqual(expect.any(String));
  });
});

describe('SDK retries against the real API', () => {
  it('waits the Retry-After of a key at its rate limit, then succeeds', async () => {
    const key = business.keys.limit;
    const [{ id: keyId }] = await testSql(admin).query<{ id: string }[]>('SELECT id FROM api_keys WHERE prefix = $1', [key.prefix]);
    // Spend the key's 120 requests of the minute.
    let status = 200;
    while (status !== 429) {
      const res = await fetch(`${server.origin}/v1/api/me`, { headers: { Authorization: `Bearer ${key.key}` } });
      await res.arrayBuffer();
      status = res.status;
    }

    const retryAfters: number[] = [];
    const waits: number[] = [];
    const sdk = sdkFor(key.key, {
      fetch: async (request) => {
        const response = await contractCheckedFetch(violations)(request);
        if (response.status === 429) retryAfters.push(Number(response.headers.get('retry-after')));
        return response;
      },
      // Instead of waiting up to a minute, the window is emptied: what the wait would have done.
      sleep: async (ms) => {
        waits.push(ms);
        await redis.del(`rl:key:${keyId}`);
      },
    });
    const me = await sdk.me();
    expect(me.business.slug).toBe(business.slug);
    expect(retryAfters).toHaveLength(1);
    expect(retryAfters[0]).toBeGreaterThanOrEqual(1);
    expect(retryAfters[0]).toBeLessThanOrEqual(60);
    expect(waits).toEqual([retryAfters[0] * 1000]);
  });

  it('sends a booking whose answer was lost again with the same Idempotency-Key, and books once', async () => {
    const seen: { method: string; path: string; idempotencyKey: string | undefined }[] = [];
    let dropped = false;
    // Forwards everything to the API; the first POST /appointments reaches it, but its answer is
    // thrown away and the connection cut, as a network failure after the booking committed would.
    const proxy: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        seen.push({ method: req.method!, path: req.url!, idempotencyKey: req.headers['idempotency-key'] as string | undefined });
        const upstream = httpRequest(
          { host: '127.0.0.1', port: server.port, method: req.method, path: req.url, headers: req.headers },
          (answer) => {
            const body: Buffer[] = [];
            answer.on('data', (chunk: Buffer) => body.push(chunk));
            answer.on('end', () => {
              if (req.method === 'POST' && req.url === '/v1/api/appointments' && !dropped) {
                dropped = true;
                req.socket.destroy();
                return;
              }
              res.writeHead(answer.statusCode!, answer.headers);
              res.end(Buffer.concat(body));
            });
          },
        );
        upstream.end(Buffer.concat(chunks));
      });
    });
    await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
    try {
      const waits: number[] = [];
      const sdk = sdkFor(business.keys.lost.key, {
        baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
        sleep: (ms) => {
          waits.push(ms);
          return Promise.resolve();
        },
      });
      const startAt = '2035-06-18T10:00:00Z';
      const booked = await sdk.appointments.create({
        serviceId: business.services.cut,
        staffId: business.staff.rui,
        startAt,
        client: { id: business.clients.joao },
      });

      const posts = seen.filter((request) => request.method === 'POST');
      expect(posts).toHaveLength(2);
      expect(posts[0].idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
      expect(posts[1].idempotencyKey).toBe(posts[0].idempotencyKey);
      expect(waits).toHaveLength(1);

      const listed = [];
      for await (const appointment of sdk.appointments.list({ from: '2035-06-18T00:00:00Z', to: '2035-06-19T00:00:00Z' }))
        listed.push(appointment);
      expect(listed.map((appointment) => appointment.id)).toEqual([booked.id]);

      // Without the drop, the same slot again is refused: the one booking holds it.
      const taken = await sdk.appointments
        .create({ serviceId: business.services.cut, staffId: business.staff.rui, startAt, client: { id: business.clients.joao } })
        .catch((error: unknown) => error);
      expect(taken).toBeInstanceOf(SchedulingApiError);
      expect((taken as SchedulingApiError).code).toBe('SLOT_TAKEN');
    } finally {
      await new Promise((done) => proxy.close(done));
    }
  });
});

describe('clients.find (docs/design-record.md#d21)', () => {
  it('finds a client by its phone, and refuses a contact with neither phone nor e-mail before sending anything', async () => {
    const sent: string[] = [];
    const checked = contractCheckedFetch(violations);
    const sdk = sdkFor(business.keys.walk.key, {
      fetch: (request) => {
        sent.push(`${request.method} ${new URL(request.url).search}`);
        return checked(request);
      },
    });
    const contacts: unknown[] = [{}, { phone: undefined }, { email: undefined }, { phone: '' }, { phone: '', email: '' }];
    for (const contact of contacts) {
      const refused = await sdk.clients.find(contact as ClientContact).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(TypeError);
      expect((refused as TypeError).message).toMatch(/needs a phone or an e-mail/);
    }
    expect(sent).toEqual([]);

    const found = await sdk.clients.find({ phone: `+351 91 ${JOAO_DIGITS.slice(0, 3)} ${JOAO_DIGITS.slice(3)}` });
    expect(found?.id).toBe(business.clients.joao);
    expect(await sdk.clients.find({ email: `nobody.${JOAO_DIGITS}@example.com` })).toBeNull();

    // What does reach the server as a lookup with only empty values is refused there, naming both.
    const empty = await sdk.clients.listPage({ phone: '', email: '' }).catch((error: unknown) => error);
    expect(empty).toBeInstanceOf(SchedulingApiError);
    expect((empty as SchedulingApiError).code).toBe('VALIDATION_FAILED');
    expect((empty as SchedulingApiError).errors.map((error) => error.path)).toEqual(
      expect.arrayContaining(['/query/phone', '/query/email']),
    );
  });
});

describe('an answer’s headers through withResponse()', () => {
  it('gives a booking’s Location, Idempotent-Replayed on its replay, Api-Version and the key’s RateLimit', async () => {
    const sdk = sdkFor(business.keys.headers.key);
    const body = {
      serviceId: business.services.cut,
      staffId: business.staff.ana,
      startAt: '2035-06-25T10:00:00Z',
      client: { id: business.clients.joao },
    };
    const idempotencyKey = globalThis.crypto.randomUUID();

    const first = await sdk.appointments.create(body, { idempotencyKey }).withResponse();
    expect(first.status).toBe(201);
    expect(first.data.status).toBe('CONFIRMED');
    expect(first.headers).toMatchObject({
      location: `/v1/api/appointments/${first.data.id}`,
      idempotentReplayed: false,
      apiVersion: '1.5.0',
      requestId: expect.any(String),
      rateLimit: { limit: 120, remaining: expect.any(Number), resetSeconds: expect.any(Number), policy: '120;w=60' },
    });
    expect(first.headers.rateLimit!.remaining).toBeLessThan(120);

    // The same write again, with its key: the stored answer, said to be one, booking nothing more.
    const replay = await sdk.appointments.create(body, { idempotencyKey }).withResponse();
    expect(replay).toMatchObject({
      status: 201,
      data: first.data,
      headers: { location: first.headers.location, idempotentReplayed: true },
    });
    expect(replay.headers.rateLimit!.remaining).toBeLessThan(first.headers.rateLimit!.remaining);

    // Awaited as before, the same call gives the data alone.
    expect(await sdk.appointments.get(first.data.id)).toEqual(first.data);
    const read = await sdk.appointments.get(first.data.id).withResponse();
    expect(read.headers).toMatchObject({ location: null, idempotentReplayed: false, apiVersion: '1.5.0' });
  });

  it('carries the existing client’s id on CLIENT_EXISTS, and booking that client with it succeeds', async () => {
    const sdk = sdkFor(business.keys.headers.key);
    const startAt = '2035-06-25T11:00:00Z';
    const refused = await sdk.appointments
      .create({ serviceId: business.services.cut, startAt, client: { name: 'João Again', phone: `+351 91 ${JOAO_DIGITS}` } })
      .catch((error: unknown) => error);
    expect(isSchedulingApiError(refused, 'CLIENT_EXISTS')).toBe(true);
    const { clientId } = refused as SchedulingApiError<'CLIENT_EXISTS'>;
    expect(clientId).toBe(business.clients.joao);

    const booked = await sdk.appointments.create({ serviceId: business.services.cut, startAt, client: { id: clientId! } });
    expect(booked.client.id).toBe(business.clients.joao);
  });
});
