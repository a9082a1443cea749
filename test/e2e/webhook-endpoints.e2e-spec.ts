import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo, type Server } from 'node:net';
import type { INestApplicationContext } from '@nestjs/common';
import { Webhook } from 'standardwebhooks';
import { CLOCK, type Clock } from '#core/clock/clock.js';
import { HOST_LOOKUP } from '#core/notices/endpoints/webhook-resolver.js';
import { adminOutput } from '../utils/admin-runner.js';
import { E2eApi, type ApiResponse } from '../utils/e2e-api.js';
import { hostileUrls, recordingLookup } from '../utils/hostile-addresses.js';
import { eventually, NoticeReceiver, verifyNotice, type ReceivedNotice } from '../utils/notice-receiver.js';
import { emptyNoticesQueue } from '../utils/notice-setup.js';
import { seed, type SeededBusiness } from '../utils/seed.js';
import { testConfig } from '../utils/test-config.js';
import { startTestContext } from '../utils/test-context.js';

/**
 * Webhook endpoints through the API (docs/design-record.md#d17) and the event log
 * (docs/design-record.md#d18), end to end: the API, the outbox, the worker's relay and sender,
 * and a receiver verifying with the `standardwebhooks` package, as an automation platform runs it.
 */
const config = testConfig();

/** The clock of the API and the worker: real time, moved by `offsetMs` where a test says so. */
const clock: Clock & { offsetMs: number } = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };

let api: E2eApi;
let worker: INestApplicationContext;
let receiver: NoticeReceiver;

// Mondays to Fridays 09:00-18:00 in Lisbon; every booking takes the next free half hour of 2036.
const WEEK = [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: '09:00', end: '18:00' }));
let slot = 0;
function nextStart(): string {
  const start = new Date(Date.UTC(2036, 0, 7, 9, 0) + slot * 30 * 60_000);
  slot += 1;
  return start.toISOString();
}

interface Salon extends SeededBusiness {
  /** appointments.write (booking) and every other scope. */
  owner: string;
  /** webhooks.manage only: what an automation platform is given. */
  hooks: string;
  /** events.read only. */
  events: string;
}

async function salon(): Promise<Salon> {
  const business = await seed({
    services: [{ ref: 'cut', name: 'Cut', durationMin: 30, priceCents: 2000 }],
    staff: [{ ref: 'ana', name: 'Ana', workingHours: WEEK }],
    clients: [{ ref: 'joao', name: 'João', phone: '+351912000001', consent: true }],
    members: [{ ref: 'owner', name: 'Owner', email: `owner-${randomUUID()}@salon.example`, role: 'OWNER' }],
    keys: [
      {
        ref: 'owner',
        member: 'owner',
        name: 'All',
        scopes: ['appointments.read', 'appointments.write', 'clients.read', 'clients.write', 'services.read'],
      },
      { ref: 'hooks', member: 'owner', name: 'Zapier', scopes: ['webhooks.manage'] },
      { ref: 'events', member: 'owner', name: 'Catch-up', scopes: ['events.read'] },
    ],
  });
  return { ...business, owner: business.keys.owner.key, hooks: business.keys.hooks.key, events: business.keys.events.key };
}

const idempotent = () => ({ 'Idempotency-Key': randomUUID() });

async function book(business: Salon): Promise<string> {
  const res = await api.post('/appointments', {
    key: business.owner,
    headers: idempotent(),
    body: { staffId: business.staff.ana, serviceId: business.services.cut, startAt: nextStart(), client: { id: business.clients.joao } },
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function subscribe(business: Salon, path: string, events = ['appointment.created']): Promise<ApiResponse> {
  const res = await api.post('/webhook-endpoints', {
    key: business.hooks,
    headers: idempotent(),
    body: { url: receiver.url(path), events, description: 'Zapier' },
  });
  expect(res.status).toBe(201);
  return res;
}

/** The one notice at `path` about `subjectId`, once it has arrived. */
async function noticeAbout(path: string, subjectId: string, count = 1): Promise<ReceivedNotice[]> {
  const about = () =>
    receiver.received.filter((n) => n.path === path && (JSON.parse(n.body) as { data: { id: string } }).data.id === subjectId);
  await receiver.waitFor(() => about().length >= count);
  return about();
}

function verifies(secret: string, notice: ReceivedNotice): boolean {
  try {
    verifyNotice(secret, notice);
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  await emptyNoticesQueue(config);
  api = await E2eApi.start(config, [[CLOCK, clock]]);
  ({ app: worker } = await startTestContext({ app: 'worker', providers: [[CLOCK, clock]] }));
  receiver = await NoticeReceiver.start();
});
afterAll(async () => {
  await worker.close();
  await api.close();
  await receiver.close();
});
afterEach(() => {
  clock.offsetMs = 0;
});

describe('REST hooks: subscribe, test, receive, unsubscribe', () => {
  it('runs the flow of an automation platform with a key holding only webhooks.manage', async () => {
    const business = await salon();
    const zap = `/zap-${randomUUID()}`;
    const witness = `/witness-${randomUUID()}`;
    const created = await subscribe(business, zap);
    expect(created.body).toEqual({
      id: expect.any(String),
      url: receiver.url(zap),
      events: ['appointment.created'],
      description: 'Zapier',
      active: true,
      disabledReason: null,
      apiVersion: '1.5.0',
      createdAt: expect.any(String),
      updatedAt: created.body.createdAt,
      secret: expect.stringMatching(/^whsec_/),
    });
    const { id, secret } = created.body as { id: string; secret: string };

    // The test ping: signed with the secret just returned, data.id is the endpoint.
    const test = await api.post(`/webhook-endpoints/${id}/test`, { key: business.hooks, headers: idempotent() });
    expect(test.status).toBe(200);
    expect(test.body).toEqual({ delivered: true, statusCode: 200, durationMs: expect.any(Number), error: null });
    const [ping] = await noticeAbout(zap, id);
    expect(verifyNotice(secret, ping)).toEqual({
      id: ping.headers['webhook-id'],
      type: 'webhook.test',
      createdAt: expect.any(String),
      business: business.slug,
      mode: 'live',
      data: { id, occurredAt: expect.any(String) },
    });

    // A second endpoint, which stays: it says when the next notice has been handed out.
    await subscribe(business, witness);
    const first = await book(business);
    const [notice] = await noticeAbout(zap, first);
    expect(verifyNotice(secret, notice)).toMatchObject({ type: 'appointment.created', business: business.slug, data: { id: first } });

    const listed = await api.get('/webhook-endpoints', { key: business.hooks });
    expect(listed.body.data.map((e: { id: string }) => e.id)).toContain(id);
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    const deleted = await api.delete(`/webhook-endpoints/${id}`, { key: business.hooks });
    expect({ status: deleted.status, text: deleted.text }).toEqual({ status: 204, text: '' });
    expect((await api.get(`/webhook-endpoints/${id}`, { key: business.hooks })).status).toBe(404);

    const second = await book(business);
    await noticeAbout(witness, second);
    expect(await noticeAbout(zap, first)).toHaveLength(1);
    expect(receiver.received.filter((n) => n.path === zap && n.body.includes(second))).toEqual([]);
    // The notice was handed out to the witness alone: one delivery in all, recorded once the
    // worker has the receiver's answer (a moment after the receiver has the notice).
    const eventPath = `/events/${(JSON.parse((await noticeAbout(witness, second))[0].body) as { id: string }).id}`;
    const counts = await eventually(async () => {
      const { deliveries } = (await api.get(eventPath, { key: business.events })).body as { deliveries: { pending: number } };
      return deliveries.pending === 0 ? deliveries : null;
    });
    expect(counts).toEqual({ pending: 0, delivered: 1, failed: 0 });
  });

  it('makes the same objects as the admin command line', async () => {
    const business = await salon();
    const made = (await adminOutput(
      ['webhook', 'create', '--business', business.slug, '--url', receiver.url('/admin-made'), '--events', 'client.created'],
      config,
    )) as { id: string };
    const viaApi = await subscribe(business, '/api-made');
    const listed = await api.get('/webhook-endpoints', { key: business.hooks });
    expect(listed.body.data.map((e: { id: string }) => e.id)).toEqual([made.id, viaApi.body.id]);
    const adminList = (await adminOutput(['webhook', 'list', '--business', business.slug], config)) as { webhooks: { id: string }[] };
    expect(adminList.webhooks.map((e) => e.id)).toEqual([made.id, viaApi.body.id]);
  });

  it('changes an endpoint: address, types, description, and active both ways', async () => {
    const business = await salon();
    const { id } = (await subscribe(business, '/before')).body as { id: string };
    const patch = (body: unknown) => api.patch(`/webhook-endpoints/${id}`, { key: business.hooks, body });
    const changed = await patch({ url: receiver.url('/after'), events: ['client.created', 'sale.created'], description: null });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ url: receiver.url('/after'), events: ['client.created', 'sale.created'], description: null });
    expect((await patch({ active: false })).body).toMatchObject({ active: false, disabledReason: null });
    expect((await patch({ active: true })).body).toMatchObject({ active: true, disabledReason: null });
    expect((await patch({})).status).toBe(400);
    expect((await patch({ events: [] })).status).toBe(400);
    expect((await patch({ events: ['webhook.test'] })).status).toBe(400);
    for (const description of ['Zapier\rhook', 'line\nbreak', 'bell\u0007']) {
      const refused = await patch({ description });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([
        { path: '/description', message: 'must be one line of text, without control characters (U+0000–U+001F, U+007F)' },
      ]);
    }
  });

  it('refuses a 17th endpoint with 409 WEBHOOK_ENDPOINT_LIMIT', async () => {
    const business = await salon();
    for (let i = 0; i < 16; i += 1) await subscribe(business, `/limit-${i}`);
    const refused = await api.post('/webhook-endpoints', {
      key: business.hooks,
      headers: idempotent(),
      body: { url: receiver.url('/limit-16'), events: ['appointment.created'] },
    });
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 409, code: 'WEBHOOK_ENDPOINT_LIMIT' });
  });

  it('refuses an address that is not an absolute URI (format: uri, 1.4.0) with 400, on create and on change', async () => {
    const business = await salon();
    for (const url of ['not an address', 'hooks.example.com/scheduling', '/relative/hook']) {
      const res = await api.post('/webhook-endpoints', {
        key: business.hooks,
        headers: idempotent(),
        body: { url, events: ['appointment.created'] },
      });
      expect({ url, status: res.status, code: res.body.code }).toEqual({ url, status: 400, code: 'VALIDATION_FAILED' });
      expect((res.body.errors as { path: string }[]).map((error) => error.path)).toEqual(['/url']);
    }
    const created = await subscribe(business, '/uri');
    const change = await api.patch(`/webhook-endpoints/${created.body.id as string}`, {
      key: business.hooks,
      body: { url: 'not an address' },
    });
    expect({ status: change.status, code: change.body.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
  });

  it('answers 404 for another business endpoint and 403 without the scope', async () => {
    const mine = await salon();
    const theirs = await salon();
    const { id } = (await subscribe(theirs, '/theirs')).body as { id: string };
    for (const res of [
      await api.get(`/webhook-endpoints/${id}`, { key: mine.hooks }),
      await api.patch(`/webhook-endpoints/${id}`, { key: mine.hooks, body: { active: false } }),
      await api.delete(`/webhook-endpoints/${id}`, { key: mine.hooks }),
      await api.post(`/webhook-endpoints/${id}/test`, { key: mine.hooks, headers: idempotent() }),
      await api.post(`/webhook-endpoints/${id}/rotate-secret`, { key: mine.hooks, headers: idempotent() }),
      await api.get(`/webhook-endpoints/${id}/deliveries`, { key: mine.hooks }),
    ]) {
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
    }
    const forbidden = await api.get('/webhook-endpoints', { key: mine.owner });
    expect({ status: forbidden.status, code: forbidden.body.code }).toEqual({ status: 403, code: 'API_SCOPE_MISSING' });
    expect((await api.get('/events', { key: mine.hooks })).status).toBe(403);
  });
});

describe('rotating a secret', () => {
  it('signs with the new and the old secret for 24 hours, then with the new one only', async () => {
    const business = await salon();
    const fresh = (await subscribe(business, '/rotated-now')).body as { id: string; secret: string };
    const stale = (await subscribe(business, '/rotated-25h-ago')).body as { id: string; secret: string };
    const rotate = (id: string) => api.post(`/webhook-endpoints/${id}/rotate-secret`, { key: business.hooks, headers: idempotent() });

    clock.offsetMs = -23 * 60 * 60 * 1000;
    const freshRotated = await rotate(fresh.id);
    clock.offsetMs = -25 * 60 * 60 * 1000;
    const staleRotated = await rotate(stale.id);
    clock.offsetMs = 0;
    expect(freshRotated.status).toBe(200);
    expect(freshRotated.body.secret).not.toBe(fresh.secret);
    expect(freshRotated.body).toMatchObject({ id: fresh.id, active: true, secret: expect.stringMatching(/^whsec_/) });

    const appointment = await book(business);
    const [toFresh] = await noticeAbout('/rotated-now', appointment);
    const [toStale] = await noticeAbout('/rotated-25h-ago', appointment);
    // Rotated 23 hours ago: two signatures, each secret verifies.
    expect(String(toFresh.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect([verifies(freshRotated.body.secret, toFresh), verifies(fresh.secret, toFresh)]).toEqual([true, true]);
    // Rotated 25 hours ago: the old secret's day is over.
    expect(String(toStale.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect([verifies(staleRotated.body.secret, toStale), verifies(stale.secret, toStale)]).toEqual([true, false]);
  });
});

describe('the event log and redelivery', () => {
  it('lists the notices exactly as delivered, redelivers with the same webhook-id, and logs every attempt', async () => {
    const business = await salon();
    const path = `/log-${randomUUID()}`;
    const endpoint = (await subscribe(business, path, ['appointment.created', 'client.created'])).body as { id: string; secret: string };
    const appointment = await book(business);
    const [delivered] = await noticeAbout(path, appointment);
    const noticeId = delivered.headers['webhook-id'] as string;

    const list = await api.get('/events', { key: business.events });
    expect(list.status).toBe(200);
    const event = (list.body.data as { id: string }[]).find((e) => e.id === noticeId) as Record<string, unknown>;
    const { deliveries, ...body } = event;
    // Byte for byte: the item without its counts is the body the receiver got.
    expect(JSON.stringify(body)).toBe(delivered.body);
    const one = await api.get(`/events/${noticeId}`, { key: business.events });
    expect(one.body).toEqual(event);
    expect(deliveries).toEqual(one.body.deliveries);
    const byType = await api.get('/events', { key: business.events, query: { type: 'client.created' } });
    expect(byType.body.data.map((e: { id: string }) => e.id)).not.toContain(noticeId);
    const later = await api.get('/events', { key: business.events, query: { createdSince: '2999-01-01T00:00:00Z' } });
    expect(later.body).toEqual({ data: [], nextCursor: null });

    const again = await api.post(`/events/${noticeId}/redeliver`, { key: business.hooks, headers: idempotent(), body: {} });
    expect(again.status).toBe(202);
    expect(again.body).toEqual({ eventId: noticeId, endpointIds: [endpoint.id] });
    const copies = await noticeAbout(path, appointment, 2);
    expect(copies.map((copy) => copy.headers['webhook-id'])).toEqual([noticeId, noticeId]);
    expect(verifyNotice(endpoint.secret, copies[1])).toEqual(JSON.parse(delivered.body));

    // The worker records an attempt after the receiver has answered: wait for the second record.
    const log = await eventually(
      async () => {
        const read = await api.get(`/webhook-endpoints/${endpoint.id}/deliveries`, { key: business.hooks });
        const held = read.status === 200 ? (read.body.data as { eventId: string }[]).filter((a) => a.eventId === noticeId) : [];
        return read.status !== 200 || held.length >= 2 ? read : null;
      },
      15_000,
      'the second attempt in the log',
    );
    expect(log.status).toBe(200);
    const attempts = (log.body.data as { eventId: string }[]).filter((a) => a.eventId === noticeId);
    expect(attempts).toEqual([
      expect.objectContaining({ eventType: 'appointment.created', attempt: 1, outcome: 'DELIVERED', statusCode: 200, error: null }),
      expect.objectContaining({ eventType: 'appointment.created', attempt: 1, outcome: 'DELIVERED', statusCode: 200, error: null }),
    ]);
    const page = await api.get(`/webhook-endpoints/${endpoint.id}/deliveries`, { key: business.hooks, query: { limit: 1 } });
    const next = await api.get(`/webhook-endpoints/${endpoint.id}/deliveries`, {
      key: business.hooks,
      query: { limit: 1, cursor: page.body.nextCursor as string },
    });
    expect([...page.body.data, ...next.body.data].map((a: { id: string }) => a.id)).toEqual(
      (log.body.data as { id: string }[]).slice(0, 2).map((a) => a.id),
    );
  });

  it("answers 404 for another business's event or endpoint, 400 for a disabled endpoint, 403 without the scope", async () => {
    const mine = await salon();
    const theirs = await salon();
    const theirEndpoint = (await subscribe(theirs, '/their-log')).body as { id: string };
    const myEndpoint = (await subscribe(mine, '/my-log')).body as { id: string };
    const theirAppointment = await book(theirs);
    const [theirNotice] = await noticeAbout('/their-log', theirAppointment);
    const theirEventId = theirNotice.headers['webhook-id'] as string;
    const myAppointment = await book(mine);
    const myEventId = (await noticeAbout('/my-log', myAppointment))[0].headers['webhook-id'] as string;

    expect((await api.get(`/events/${theirEventId}`, { key: mine.events })).status).toBe(404);
    const redeliverTheirs = await api.post(`/events/${theirEventId}/redeliver`, { key: mine.hooks, headers: idempotent() });
    expect({ status: redeliverTheirs.status, code: redeliverTheirs.body.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
    const toTheirEndpoint = await api.post(`/events/${myEventId}/redeliver`, {
      key: mine.hooks,
      headers: idempotent(),
      body: { endpointId: theirEndpoint.id },
    });
    expect({ status: toTheirEndpoint.status, code: toTheirEndpoint.body.code }).toEqual({ status: 404, code: 'NOT_FOUND' });

    await api.patch(`/webhook-endpoints/${myEndpoint.id}`, { key: mine.hooks, body: { active: false } });
    const toDisabled = await api.post(`/events/${myEventId}/redeliver`, {
      key: mine.hooks,
      headers: idempotent(),
      body: { endpointId: myEndpoint.id },
    });
    expect({ status: toDisabled.status, code: toDisabled.body.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });

    const noScope = await api.post(`/events/${myEventId}/redeliver`, { key: mine.events, headers: idempotent() });
    expect({ status: noScope.status, code: noScope.body.code }).toEqual({ status: 403, code: 'API_SCOPE_MISSING' });
  });
});

describe('address checks at registration', () => {
  let strict: E2eApi;
  let canary: Server;
  let canaryConnections = 0;

  beforeAll(async () => {
    canary = createServer((socket) => {
      canaryConnections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
    strict = await E2eApi.start(testConfig({ WEBHOOKS_ALLOW_PRIVATE: 'false' }), [[HOST_LOOKUP, recordingLookup()]]);
  });
  afterAll(async () => {
    await strict.close();
    await new Promise((resolve) => canary.close(resolve));
  });

  it('refuses each hostile address of the send-time suite with 400 WEBHOOK_URL_REFUSED, on create and on change', async () => {
    const business = await salon();
    const urls = hostileUrls((canary.address() as AddressInfo).port);
    expect(urls).toHaveLength(38);
    for (const url of urls) {
      const res = await strict.post('/webhook-endpoints', {
        key: business.hooks,
        headers: idempotent(),
        body: { url, events: ['appointment.created'] },
      });
      expect({ url, status: res.status, code: res.body.code }).toEqual({ url, status: 400, code: 'WEBHOOK_URL_REFUSED' });
      expect(res.body.detail).toMatch(/^The address is refused: .+\.$/);
    }
    const publicAddress = await strict.post('/webhook-endpoints', {
      key: business.hooks,
      headers: idempotent(),
      body: { url: 'https://93.184.216.34/hook', events: ['appointment.created'] },
    });
    expect(publicAddress.status).toBe(201);
    const change = await strict.patch(`/webhook-endpoints/${publicAddress.body.id}`, {
      key: business.hooks,
      body: { url: 'https://mixed.test/hook' },
    });
    expect({ status: change.status, code: change.body.code, detail: change.body.detail }).toEqual({
      status: 400,
      code: 'WEBHOOK_URL_REFUSED',
      detail: 'The address is refused: mixed.test resolves to a non-public address (private).',
    });
    expect((await strict.get('/webhook-endpoints', { key: business.hooks })).body.data).toHaveLength(1);
    expect(canaryConnections).toBe(0);
  });
});

describe('a test ping that fails', () => {
  it('reports the class of the failure, never what the receiver said (docs/design-record.md#d25)', async () => {
    const business = await salon();
    const path = `/says-${randomUUID()}`;
    const { id } = (await subscribe(business, path)).body as { id: string };
    const talkative = receiver.respond;
    receiver.respond = (notice, index) =>
      notice.path === path ? { status: 500, body: 'internal: db at 10.0.0.5 password hunter2' } : talkative(notice, index);
    try {
      const test = await api.post(`/webhook-endpoints/${id}/test`, { key: business.hooks, headers: idempotent() });
      expect(test.status).toBe(200);
      expect(test.body).toEqual({ delivered: false, statusCode: 500, durationMs: expect.any(Number), error: 'http' });
    } finally {
      receiver.respond = talkative;
    }
  });
});

describe('Webhook (standardwebhooks) sanity', () => {
  it('rejects a body that was changed after signing', async () => {
    const business = await salon();
    const { id, secret } = (await subscribe(business, '/tamper')).body as { id: string; secret: string };
    await api.post(`/webhook-endpoints/${id}/test`, { key: business.hooks, headers: idempotent() });
    const [ping] = await noticeAbout('/tamper', id);
    expect(() =>
      new Webhook(secret).verify(ping.body.replace('webhook.test', 'webhook.tesT'), ping.headers as Record<string, string>),
    ).toThrow();
  });
});
