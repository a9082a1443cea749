import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import type { KeptEmail } from '#core/sandbox/sandbox.service.js';
import { SCOPES } from '#core/scopes/scope.js';
import { ALL_WEEK } from '../factories/booking-fixture.js';
import { runAdminCommand } from '../utils/admin-runner.js';
import { E2eApi } from '../utils/e2e-api.js';
import { eventually, NoticeReceiver, verifyNotice } from '../utils/notice-receiver.js';
import { emptyNoticesQueue } from '../utils/notice-setup.js';
import { seed, type SeededBusiness } from '../utils/seed.js';
import { testConfig } from '../utils/test-config.js';
import { startTestContext, testSql, type TestSql } from '../utils/test-context.js';
import { TestSmtpServer } from '../utils/test-smtp-server.js';

/**
 * Test mode through the API and the worker (docs/design-record.md#d19): a test key's notices go to
 * the sandbox's own endpoints, signed as usual; its e-mails are kept as files and never reach the
 * SMTP server that the live business's e-mails go to; it is gated by the live business's plan and
 * limited in a bucket of its own.
 */
let folder: string;
let smtp: TestSmtpServer;
let config: ReturnType<typeof testConfig>;
let api: E2eApi;
let worker: INestApplicationContext;
let db: TestSql;
let receiver: NoticeReceiver;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'test-mode-'));
  smtp = await TestSmtpServer.start();
  config = testConfig({ SMTP_URL: smtp.url, MAIL_DIR: folder });
  await emptyNoticesQueue(config);
  api = await E2eApi.start(config);
  db = testSql(api.app);
  worker = (await startTestContext({ app: 'worker', config: { SMTP_URL: smtp.url, MAIL_DIR: folder } })).app;
  receiver = await NoticeReceiver.start();
});
afterAll(async () => {
  await worker.close();
  await api.close();
  await receiver.close();
  await smtp.close();
  await rm(folder, { recursive: true, force: true });
});

const admin = (...argv: string[]) => runAdminCommand(argv, config);

/** A salon with a client with an e-mail address, a desk address, a live key and a test key of every scope. */
async function salon(plan: 'TEAM' | 'SOLO' = 'TEAM'): Promise<SeededBusiness & { live: string; test: string }> {
  const tag = randomUUID().slice(0, 8);
  const business = await seed({
    plan,
    notificationEmail: `desk.${tag}@salon.example`,
    services: [{ ref: 'cut', name: 'Corte', durationMin: 30, priceCents: 2500 }],
    staff: [{ ref: 'ana', name: 'Ana', workingHours: ALL_WEEK }],
    clients: [{ ref: 'joao', name: 'João', email: `joao.${tag}@example.com`, consent: true }],
    members: [{ ref: 'owner', name: 'Owner', email: `owner.${tag}@salon.example`, role: 'OWNER' }],
    keys: [
      { ref: 'live', member: 'owner', name: 'Live', scopes: SCOPES },
      { ref: 'test', member: 'owner', name: 'Test', scopes: SCOPES, mode: 'test' },
    ],
  });
  return { ...business, live: business.keys.live.key, test: business.keys.test.key };
}

const phone = () => `+35196${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`;

const write = (path: string, key: string, body: unknown) => api.post(path, { key, body, headers: { 'Idempotency-Key': randomUUID() } });

describe('notices in test mode', () => {
  it("go to the sandbox's own endpoints, signed, and never to the live ones (and back)", async () => {
    const s = await salon();
    const events = ['client.created'];
    const liveEndpoint = await write('/webhook-endpoints', s.live, { url: receiver.url(`/live-${s.slug}`), events });
    const testEndpoint = await write('/webhook-endpoints', s.test, { url: receiver.url(`/test-${s.slug}`), events });
    expect([liveEndpoint.status, testEndpoint.status]).toEqual([201, 201]);
    // Each key sees only its own mode's endpoint.
    for (const [key, own] of [
      [s.live, liveEndpoint.body.id],
      [s.test, testEndpoint.body.id],
    ] as const) {
      expect((await api.get('/webhook-endpoints', { key })).body.data.map((e: { id: string }) => e.id)).toEqual([own]);
    }

    const inSandbox = await write('/clients', s.test, {
      name: 'Cliente Teste',
      phone: phone(),
      email: `t.${s.slug}@example.com`,
      consent: true,
    });
    expect(inSandbox.status).toBe(201);
    const [sandboxNotice] = await db.query<{ id: string }[]>(`SELECT id FROM notices WHERE payload->'data'->>'id' = $1`, [
      inSandbox.body.id,
    ]);
    await receiver.waitFor((got) => got.some((n) => n.headers['webhook-id'] === sandboxNotice.id));
    const [arrived] = receiver.withId(sandboxNotice.id);
    expect(arrived.path).toBe(`/test-${s.slug}`);
    // Signed with the sandbox endpoint's secret, and naming the business by its (live) slug.
    expect(verifyNotice(testEndpoint.body.secret, arrived)).toMatchObject({
      type: 'client.created',
      business: s.slug,
      data: { id: inSandbox.body.id },
    });
    expect(() => verifyNotice(liveEndpoint.body.secret, arrived)).toThrow();
    // The relay made every delivery of the notice at once: none is for the live endpoint.
    const deliveries = await db.query<{ endpoint_id: string }[]>('SELECT endpoint_id FROM notice_deliveries WHERE notice_id = $1', [
      sandboxNotice.id,
    ]);
    expect(deliveries).toEqual([{ endpoint_id: testEndpoint.body.id }]);

    const live = await write('/clients', s.live, { name: 'Cliente Real', phone: phone(), email: `r.${s.slug}@example.com`, consent: true });
    const [liveNotice] = await db.query<{ id: string }[]>(`SELECT id FROM notices WHERE payload->'data'->>'id' = $1`, [live.body.id]);
    await receiver.waitFor((got) => got.some((n) => n.headers['webhook-id'] === liveNotice.id));
    expect(receiver.withId(liveNotice.id).map((n) => n.path)).toEqual([`/live-${s.slug}`]);
    expect(await db.query('SELECT endpoint_id FROM notice_deliveries WHERE notice_id = $1', [liveNotice.id])).toEqual([
      { endpoint_id: liveEndpoint.body.id },
    ]);
    // The event logs are apart too.
    expect((await api.get('/events', { key: s.test })).body.data.map((e: { id: string }) => e.id)).toEqual([sandboxNotice.id]);
    expect((await api.get(`/events/${sandboxNotice.id}`, { key: s.live })).status).toBe(404);
  });
});

describe('e-mails in test mode', () => {
  it('sandbox bookings send the SMTP server nothing and keep files that admin sandbox emails lists; live bookings send', async () => {
    const s = await salon();
    const client = await db.query<{ email: string }[]>('SELECT email FROM clients WHERE id = $1', [s.clients.joao]);
    const liveRecipient = client[0].email;
    // The sandbox's copies of the staff and service; its own client, with another address.
    const sandbox = s.sandbox!;
    const sandboxRecipient = `sandbox.${s.slug}@example.com`;
    const booking = (staffId: string, serviceId: string, startAt: string, clientBody: object) => ({
      staffId,
      serviceId,
      startAt,
      client: clientBody,
    });

    const bookedInSandbox = await write(
      '/appointments',
      s.test,
      booking(sandbox.staff.ana, sandbox.services.cut, '2036-03-04T10:00:00Z', {
        name: 'Cliente Teste',
        phone: phone(),
        email: sandboxRecipient,
      }),
    );
    expect(bookedInSandbox.status).toBe(201);
    const cancelled = await write(`/appointments/${bookedInSandbox.body.id}/cancel`, s.test, { reason: 'Only a test' });
    expect(cancelled.status).toBe(200);
    const bookedLive = await write(
      '/appointments',
      s.live,
      booking(s.staff.ana, s.services.cut, '2036-03-04T10:00:00Z', { id: s.clients.joao }),
    );
    expect(bookedLive.status).toBe(201);

    // The live ones arrive; the sandbox's are kept (sent_at is when the file was written).
    await smtp.waitFor((mail) => mail.to.includes(liveRecipient));
    const kept = await eventually(
      async () => {
        const run = await admin('sandbox', 'emails', '--business', s.slug);
        const emails = run.json.emails as KeptEmail[];
        return emails.length === 4 && emails.every((e) => e.keptAt !== null) ? emails : null;
      },
      15_000,
      'the sandbox e-mails to be kept',
    );
    expect(kept.map((e) => e.kind).sort()).toEqual([
      'APPOINTMENT_BOOKED',
      'APPOINTMENT_BOOKED',
      'APPOINTMENT_CANCELLED',
      'APPOINTMENT_CANCELLED',
    ]);
    const listed = kept;
    const desk = (await db.query<{ notification_email: string }[]>('SELECT notification_email FROM businesses WHERE id = $1', [s.id]))[0]
      .notification_email;
    // The client and the desk (the sandbox copies the live settings, so the same desk address).
    expect(listed.map((e) => e.recipient).sort()).toEqual([desk, desk, sandboxRecipient, sandboxRecipient].sort());
    expect(new Set(listed.map((e) => e.appointmentId))).toEqual(new Set([bookedInSandbox.body.id, cancelled.body.id]));
    for (const email of listed) {
      expect(email.file).toBe(join(folder, `${email.id}.eml`));
      expect(await readFile(join(folder, `${email.id}.eml`), 'utf8')).toContain('Subject:');
    }
    // Every sandbox e-mail is kept, so none can still reach the server: the desk got the live booking's only.
    await smtp.waitFor((mail) => mail.to.includes(desk));
    expect(smtp.received.filter((mail) => mail.to.includes(desk))).toHaveLength(1);
    expect(smtp.received.filter((mail) => mail.to.includes(sandboxRecipient))).toEqual([]);
    // The live e-mails were sent, not kept as files.
    const liveRows = await db.query<{ id: string; sent_at: Date | null }[]>(
      'SELECT id, sent_at FROM outbound_emails WHERE appointment_id = $1',
      [bookedLive.body.id],
    );
    expect(liveRows.length).toBe(2);
    for (const row of liveRows) expect(existsSync(join(folder, `${row.id}.eml`))).toBe(false);
  });
});

describe('gates in test mode', () => {
  it("a FREE business's test key gets 402 like its live key, and both get in once the live plan allows", async () => {
    // A FREE business cannot make a sandbox (docs/design-record.md#d28): this one made it on SOLO, then moved to FREE.
    const s = await salon('SOLO');
    expect((await admin('business', 'plan', '--business', s.slug, '--plan', 'FREE')).code).toBe(0);
    for (const key of [s.live, s.test]) {
      await eventually(async () => (await api.get('/me', { key })).status === 402, 5_000, 'the key to be refused');
      const res = await api.get('/me', { key });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 402, code: 'PLAN_INTEGRATIONS' });
    }
    expect((await admin('business', 'plan', '--business', s.slug, '--plan', 'SOLO')).code).toBe(0);
    await eventually(async () => (await api.get('/me', { key: s.test })).status === 200, 5_000, 'the test key to get in');
    expect((await api.get('/me', { key: s.live })).status).toBe(200);
  });

  it('a test key has a rate-limit bucket of its own', async () => {
    const s = await salon();
    for (let i = 0; i < 5; i += 1) expect((await api.get('/me', { key: s.live })).status).toBe(200);
    const live = await api.get('/me', { key: s.live });
    const test = await api.get('/me', { key: s.test });
    expect(live.headers['ratelimit-remaining']).toBe('114');
    expect(test.headers['ratelimit-remaining']).toBe('119');
  });
});
