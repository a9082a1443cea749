import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { SCOPES } from '#core/scopes/scope.js';
import { ALL_WEEK } from '../factories/booking-fixture.js';
import { E2eApi, type ApiResponse } from '../utils/e2e-api.js';
import { NoticeReceiver, verifyNotice, type ReceivedNotice } from '../utils/notice-receiver.js';
import { emptyNoticesQueue } from '../utils/notice-setup.js';
import { seed, type SeededBusiness } from '../utils/seed.js';
import { testConfig } from '../utils/test-config.js';
import { startTestContext } from '../utils/test-context.js';

/**
 * Contract 1.4.0 (docs/design-record.md#d23) for keys, notices and webhook endpoints: GET /me's key
 * has `mode` and `apiVersion`; notices have `mode` and are shaped for their endpoint's version
 * (docs/design-record.md#d22), signed over the bytes sent; the event log shows them shaped for the
 * caller's version; endpoints take and show `apiVersion`; 409 CLIENT_EXISTS names the existing
 * client to a key that may read clients. A key pinned to 1.3.0 sees none of it.
 */
const config = testConfig();

let api: E2eApi;
let worker: INestApplicationContext;
let receiver: NoticeReceiver;

/** How the receiver answers at a path: the status of its n-th request there (0 first); 200 elsewhere. */
const answers = new Map<string, (n: number) => number>();
const seen = new Map<string, number>();

interface Salon extends SeededBusiness {
  /** Every scope, 1.4.0. */
  owner: string;
  /** Every scope, pinned to 1.3.0. */
  old: string;
  /** Every scope, test mode (the sandbox), 1.4.0. */
  test: string;
  /** clients.write only: may create clients, not read them. */
  writer: string;
}

async function salon(): Promise<Salon> {
  const business = await seed({
    services: [{ ref: 'cut', name: 'Cut', durationMin: 30, priceCents: 2000 }],
    staff: [{ ref: 'ana', name: 'Ana', workingHours: ALL_WEEK }],
    clients: [{ ref: 'joao', name: 'João', phone: '+351912000001', email: 'joao@example.com', consent: true }],
    members: [{ ref: 'owner', name: 'Owner', email: `owner-${randomUUID()}@salon.example`, role: 'OWNER' }],
    keys: [
      { ref: 'owner', member: 'owner', name: 'All', scopes: SCOPES },
      { ref: 'old', member: 'owner', name: 'Pinned', scopes: SCOPES, apiVersion: '1.3.0' },
      { ref: 'test', member: 'owner', name: 'Test', scopes: SCOPES, mode: 'test' },
      { ref: 'writer', member: 'owner', name: 'Writer', scopes: ['clients.write', 'appointments.write'] },
    ],
  });
  return {
    ...business,
    owner: business.keys.owner.key,
    old: business.keys.old.key,
    test: business.keys.test.key,
    writer: business.keys.writer.key,
  };
}

const write = (path: string, key: string, body: unknown, idempotencyKey = randomUUID()): Promise<ApiResponse> =>
  api.post(path, { key, body, headers: { 'Idempotency-Key': idempotencyKey } });

const newPhone = (): string => `+35193${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`;

let day = 0;
function nextStart(): string {
  day += 1;
  return new Date(Date.UTC(2036, 4, 1 + day, 10)).toISOString();
}

/** The notices at `path` about `subjectId`, once `count` of them have arrived. */
async function noticesAbout(path: string, subjectId: string, count = 1): Promise<ReceivedNotice[]> {
  const about = () =>
    receiver.received.filter((n) => n.path === path && (JSON.parse(n.body) as { data: { id: string } }).data.id === subjectId);
  await receiver.waitFor(() => about().length >= count);
  return about();
}

beforeAll(async () => {
  await emptyNoticesQueue(config);
  api = await E2eApi.start(config);
  // Retries within moments, three attempts in all: a schedule's outcome is asserted, never its timing.
  ({ app: worker } = await startTestContext({ app: 'worker', config: { WEBHOOK_RETRY_SCHEDULE: '50ms,50ms' } }));
  receiver = await NoticeReceiver.start((notice) => {
    const n = seen.get(notice.path) ?? 0;
    seen.set(notice.path, n + 1);
    return { status: answers.get(notice.path)?.(n) ?? 200, body: 'answer' };
  });
});
afterAll(async () => {
  await worker.close();
  await api.close();
  await receiver.close();
});

describe("GET /me's key", () => {
  it('carries mode and apiVersion from 1.4.0 (the current version for a new key), and neither for 1.3.0', async () => {
    const s = await salon();
    const live = await api.get('/me', { key: s.owner });
    expect(live.body.key).toMatchObject({ mode: 'live', apiVersion: '1.5.0' });
    const sandbox = await api.get('/me', { key: s.test });
    expect(sandbox.body.key).toMatchObject({ mode: 'test', apiVersion: '1.5.0' });

    const old = await api.get('/me', { key: s.old });
    expect(old.status).toBe(200);
    expect(old.body.key).not.toHaveProperty('mode');
    expect(old.body.key).not.toHaveProperty('apiVersion');
    // The request's Api-Version wins over the key's pin, both ways.
    const asked = await api.get('/me', { key: s.owner, headers: { 'Api-Version': '1.3.0' } });
    expect(Object.keys(asked.body.key as object).sort()).toEqual(['createdAt', 'name', 'prefix', 'scopes']);
    const oldAsksNew = await api.get('/me', { key: s.old, headers: { 'Api-Version': '1.4.0' } });
    expect(oldAsksNew.body.key).toMatchObject({ mode: 'live', apiVersion: '1.3.0' });
  });
});

describe('webhook endpoints with a version', () => {
  it("is pinned to apiVersion of its create body, else to the creating key's, and shows it from 1.4.0", async () => {
    const s = await salon();
    const url = receiver.url(`/pinned-${randomUUID()}`);
    const pinned = await write('/webhook-endpoints', s.owner, { url, events: ['client.created'], apiVersion: '1.3.0' });
    expect(pinned.status).toBe(201);
    expect(pinned.body).toMatchObject({ apiVersion: '1.3.0' });
    const current = await write('/webhook-endpoints', s.owner, { url, events: ['client.created'] });
    expect(current.body).toMatchObject({ apiVersion: '1.5.0' });

    // A 1.3.0 key: its endpoint is 1.3.0, and its answers do not show the field.
    const byOld = await write('/webhook-endpoints', s.old, { url, events: ['client.created'] });
    expect(byOld.status).toBe(201);
    expect(byOld.body).not.toHaveProperty('apiVersion');
    expect((await api.get(`/webhook-endpoints/${byOld.body.id}`, { key: s.owner })).body).toMatchObject({ apiVersion: '1.3.0' });
    const listedOld = await api.get('/webhook-endpoints', { key: s.old });
    expect(listedOld.body.data).toHaveLength(3);
    for (const endpoint of listedOld.body.data as object[]) expect(endpoint).not.toHaveProperty('apiVersion');

    const refused = await write('/webhook-endpoints', s.owner, { url, events: ['client.created'], apiVersion: '1.1.0' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(JSON.stringify(refused.body.errors)).toContain('/apiVersion');
  });
});

describe('notices shaped for their endpoint', () => {
  it('sends a 1.3.0 endpoint the notice without mode and a 1.4.0 one with it, each signed over what it got', async () => {
    const s = await salon();
    const oldPath = `/old-${randomUUID()}`;
    const newPath = `/new-${randomUUID()}`;
    const events = ['client.created'];
    const oldEndpoint = await write('/webhook-endpoints', s.owner, { url: receiver.url(oldPath), events, apiVersion: '1.3.0' });
    const newEndpoint = await write('/webhook-endpoints', s.owner, { url: receiver.url(newPath), events });
    const client = await write('/clients', s.owner, { name: 'Maria', phone: newPhone(), consent: true });
    expect(client.status).toBe(201);

    const [toOld] = await noticesAbout(oldPath, client.body.id);
    const [toNew] = await noticesAbout(newPath, client.body.id);
    const oldBody = verifyNotice(oldEndpoint.body.secret, toOld) as Record<string, unknown>;
    const newBody = verifyNotice(newEndpoint.body.secret, toNew) as Record<string, unknown>;
    expect(Object.keys(oldBody)).toEqual(['id', 'type', 'createdAt', 'business', 'data']);
    expect(Object.keys(newBody)).toEqual(['id', 'type', 'createdAt', 'business', 'mode', 'data']);
    expect(newBody).toEqual({ ...oldBody, mode: 'live' });
    expect(toOld.headers['webhook-id']).toBe(toNew.headers['webhook-id']);

    // The event log: shaped for the caller's version, byte for byte what that version's endpoint got.
    const noticeId = String(toNew.headers['webhook-id']);
    const current = await api.get(`/events/${noticeId}`, { key: s.owner });
    const { deliveries, ...currentBody } = current.body as Record<string, unknown>;
    expect(JSON.stringify(currentBody)).toBe(toNew.body);
    expect(Object.keys(deliveries as object)).toEqual(['pending', 'delivered', 'failed']);
    await eventCounts(s.owner, noticeId, { pending: 0, delivered: 2, failed: 0 });
    const old = await api.get(`/events/${noticeId}`, { key: s.old });
    const { deliveries: _, ...oldLogged } = old.body as Record<string, unknown>;
    expect(JSON.stringify(oldLogged)).toBe(toOld.body);
    const oldList = await api.get('/events', { key: s.old });
    for (const event of oldList.body.data as object[]) expect(event).not.toHaveProperty('mode');

    // The test ping is shaped the same way.
    const ping = await write(`/webhook-endpoints/${oldEndpoint.body.id}/test`, s.owner, undefined);
    expect(ping.body).toMatchObject({ delivered: true });
    const [pinged] = await noticesAbout(oldPath, oldEndpoint.body.id);
    expect(verifyNotice(oldEndpoint.body.secret, pinged)).not.toHaveProperty('mode');
  });

  it('pings an endpoint pinned to 1.2.0 with webhook.test in the shape of 1.3.0, which added it (docs/partners.md)', async () => {
    const s = await salon();
    const path = `/v120-${randomUUID()}`;
    const endpoint = await write('/webhook-endpoints', s.owner, {
      url: receiver.url(path),
      events: ['client.created'],
      apiVersion: '1.2.0',
    });
    expect(endpoint.body).toMatchObject({ apiVersion: '1.2.0' });
    const ping = await write(`/webhook-endpoints/${endpoint.body.id}/test`, s.owner, undefined);
    expect(ping.body).toMatchObject({ delivered: true });
    const [pinged] = await noticesAbout(path, endpoint.body.id);
    const body = verifyNotice(endpoint.body.secret, pinged) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['id', 'type', 'createdAt', 'business', 'data']);
    expect(body).toMatchObject({ type: 'webhook.test', business: s.slug, data: { id: endpoint.body.id, occurredAt: body.createdAt } });
  });

  it("says mode test on a sandbox's notices, in the notice and in the event log", async () => {
    const s = await salon();
    const path = `/sandbox-${randomUUID()}`;
    const endpoint = await write('/webhook-endpoints', s.test, { url: receiver.url(path), events: ['client.created'] });
    const client = await write('/clients', s.test, { name: 'Teste', phone: newPhone(), consent: true });
    const [arrived] = await noticesAbout(path, client.body.id);
    expect(verifyNotice(endpoint.body.secret, arrived)).toMatchObject({ business: s.slug, mode: 'test' });
    const logged = await api.get(`/events/${String(arrived.headers['webhook-id'])}`, { key: s.test });
    expect(logged.body).toMatchObject({ mode: 'test' });
  });
});

describe('409 CLIENT_EXISTS', () => {
  it('names the existing client to a key holding clients.read, on POST /clients and on Form B, replays included', async () => {
    const s = await salon();
    const joao = s.clients.joao;
    const samePhone = { name: 'Outro', phone: '+351912000001', consent: true };
    const idempotencyKey = randomUUID();
    const clash = await write('/clients', s.owner, samePhone, idempotencyKey);
    expect(clash.status).toBe(409);
    expect(clash.body).toMatchObject({ code: 'CLIENT_EXISTS', clientId: joao });
    const replay = await write('/clients', s.owner, samePhone, idempotencyKey);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(clash.body);

    const sameEmail = await write('/clients', s.owner, { name: 'Outro', phone: newPhone(), email: 'JOAO@example.com', consent: true });
    expect(sameEmail.body).toMatchObject({ code: 'CLIENT_EXISTS', clientId: joao });
    expect(sameEmail.body.detail).toContain('e-mail');

    const formB = await write('/appointments', s.owner, {
      staffId: s.staff.ana,
      serviceId: s.services.cut,
      startAt: nextStart(),
      client: { name: 'Outro', phone: '+351912000001' },
    });
    expect(formB.status).toBe(409);
    expect(formB.body).toMatchObject({ code: 'CLIENT_EXISTS', clientId: joao });
    // Nothing of the refused booking was written: the slot is still free for Form A.
    const formA = await write('/appointments', s.owner, {
      staffId: s.staff.ana,
      serviceId: s.services.cut,
      startAt: nextStart(),
      client: { id: formB.body.clientId },
    });
    expect(formA.status).toBe(201);
  });

  it('leaves clientId out for a key without clients.read and for a 1.3.0 key', async () => {
    const s = await salon();
    const samePhone = { name: 'Outro', phone: '+351912000001', consent: true };
    const writer = await write('/clients', s.writer, samePhone);
    expect(writer.status).toBe(409);
    expect(writer.body.code).toBe('CLIENT_EXISTS');
    expect(writer.body).not.toHaveProperty('clientId');
    const writerFormB = await write('/appointments', s.writer, {
      staffId: s.staff.ana,
      serviceId: s.services.cut,
      startAt: nextStart(),
      client: { name: 'Outro', phone: '+351912000001' },
    });
    expect(writerFormB.body).not.toHaveProperty('clientId');

    const old = await write('/clients', s.old, samePhone);
    expect(old.status).toBe(409);
    expect(old.body).not.toHaveProperty('clientId');
  });
});

interface Attempt {
  id: string;
  eventId: string;
  eventType: string;
  attempt: number;
  attemptedAt: string;
  outcome: string;
  statusCode: number | null;
  error: string | null;
  nextAttemptAt: string | null;
  final: boolean;
}

/** The endpoint's logged attempts at `eventId`, oldest first, once there are `count` of them. */
async function attemptsOf(key: string, endpointId: string, eventId: string, count: number): Promise<Attempt[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const log = await api.get(`/webhook-endpoints/${endpointId}/deliveries`, { key });
    const attempts = (log.body.data as Attempt[]).filter((a) => a.eventId === eventId).reverse();
    if (attempts.length >= count) return attempts;
    if (Date.now() > deadline) throw new Error(`${attempts.length} attempts logged, not ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function eventCounts(key: string, eventId: string, expected: object): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const event = await api.get(`/events/${eventId}`, { key });
    if (JSON.stringify(event.body.deliveries) === JSON.stringify(expected) || Date.now() > deadline) {
      expect(event.body.deliveries).toEqual(expected);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the delivery log (1.4.0)', () => {
  it('says of each attempt when the next one is and whether it was the last', async () => {
    const s = await salon();
    const path = `/flaky-${randomUUID()}`;
    answers.set(path, (n) => (n < 2 ? 500 : 200));
    const endpoint = await write('/webhook-endpoints', s.owner, { url: receiver.url(path), events: ['client.created'] });
    const client = await write('/clients', s.owner, { name: 'Rita', phone: newPhone(), consent: true });
    const [first] = await noticesAbout(path, client.body.id);
    const eventId = String(first.headers['webhook-id']);

    const attempts = await attemptsOf(s.owner, endpoint.body.id, eventId, 3);
    expect(attempts.map((a) => [a.attempt, a.outcome, a.final])).toEqual([
      [1, 'FAILED', false],
      [2, 'FAILED', false],
      [3, 'DELIVERED', true],
    ]);
    expect(attempts.map((a) => a.nextAttemptAt)).toEqual([attempts[1].attemptedAt, attempts[2].attemptedAt, null]);
    await eventCounts(s.owner, eventId, { pending: 0, delivered: 1, failed: 0 });

    // A key pinned to 1.3.0 sees the attempts without the two fields.
    const old = await api.get(`/webhook-endpoints/${endpoint.body.id}/deliveries`, { key: s.old });
    const oldAttempts = (old.body.data as object[]).filter((a) => (a as Attempt).eventId === eventId);
    expect(oldAttempts).toHaveLength(3);
    for (const attempt of oldAttempts) {
      expect(attempt).not.toHaveProperty('final');
      expect(attempt).not.toHaveProperty('nextAttemptAt');
    }
  });

  it('marks the last attempt of a schedule used up final, and a redelivery never takes back a reception', async () => {
    const s = await salon();
    const down = `/down-${randomUUID()}`;
    answers.set(down, () => 500);
    const failing = await write('/webhook-endpoints', s.owner, { url: receiver.url(down), events: ['client.created'] });
    const later = `/later-${randomUUID()}`;
    let laterDown = false;
    answers.set(later, () => (laterDown ? 503 : 200));
    const receiving = await write('/webhook-endpoints', s.owner, { url: receiver.url(later), events: ['client.created'] });

    const client = await write('/clients', s.owner, { name: 'Sofia', phone: newPhone(), consent: true });
    const [got] = await noticesAbout(later, client.body.id);
    const eventId = String(got.headers['webhook-id']);
    const gaveUp = await attemptsOf(s.owner, failing.body.id, eventId, 3);
    expect(gaveUp.map((a) => [a.attempt, a.final, a.nextAttemptAt === null])).toEqual([
      [1, false, false],
      [2, false, false],
      [3, true, true],
    ]);
    await eventCounts(s.owner, eventId, { pending: 0, delivered: 1, failed: 1 });

    // Sent again to the endpoint that got it, which now fails every attempt: still delivered once.
    laterDown = true;
    const again = await write(`/events/${eventId}/redeliver`, s.owner, { endpointId: receiving.body.id });
    expect(again.status).toBe(202);
    const all = await attemptsOf(s.owner, receiving.body.id, eventId, 4);
    expect(all.map((a) => [a.attempt, a.outcome, a.final])).toEqual([
      [1, 'DELIVERED', true],
      [1, 'FAILED', false],
      [2, 'FAILED', false],
      [3, 'FAILED', true],
    ]);
    expect(all[0].nextAttemptAt).toBeNull();
    await eventCounts(s.owner, eventId, { pending: 0, delivered: 1, failed: 1 });
  });

  it('keeps test pings as deliveries of webhook.test, which a 1.3.0 key is not shown', async () => {
    const s = await salon();
    const path = `/ping-${randomUUID()}`;
    answers.set(path, (n) => (n === 0 ? 200 : 500));
    const endpoint = await write('/webhook-endpoints', s.owner, { url: receiver.url(path), events: ['client.created'] });
    const ok = await write(`/webhook-endpoints/${endpoint.body.id}/test`, s.owner, undefined);
    expect(ok.body).toMatchObject({ delivered: true });
    const failed = await write(`/webhook-endpoints/${endpoint.body.id}/test`, s.owner, undefined);
    expect(failed.body).toMatchObject({ delivered: false, statusCode: 500, error: 'http' });
    const [first, second] = receiver.received.filter((n) => n.path === path).map((n) => String(n.headers['webhook-id']));

    const log = await api.get(`/webhook-endpoints/${endpoint.body.id}/deliveries`, { key: s.owner });
    expect(log.body.data).toEqual([
      expect.objectContaining({ eventId: second, eventType: 'webhook.test', attempt: 1, outcome: 'FAILED', statusCode: 500 }),
      expect.objectContaining({ eventId: first, eventType: 'webhook.test', attempt: 1, outcome: 'DELIVERED', error: null }),
    ]);
    // As the ping's answer says it: the class of the failure, never the receiver's words.
    expect(log.body.data[0]).toMatchObject({ error: 'http', final: true, nextAttemptAt: null });
    expect(log.body.data[1]).toMatchObject({ final: true, nextAttemptAt: null });

    const old = await api.get(`/webhook-endpoints/${endpoint.body.id}/deliveries`, { key: s.old });
    expect(old.body).toEqual({ data: [], nextCursor: null });
    // Never in the event log, and never sent again.
    expect((await api.get(`/events/${first}`, { key: s.owner })).status).toBe(404);
    expect((await api.get('/events', { key: s.owner })).body.data).toEqual([]);
    expect((await write(`/events/${first}/redeliver`, s.owner, {})).status).toBe(404);
  });
});
