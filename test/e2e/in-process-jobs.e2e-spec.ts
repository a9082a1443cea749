import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestBody } from '#contract/contract-types.js';
import { REDIS_CLIENT } from '#core/redis/redis.module.js';
import { ALL_WEEK, loadBookingFixture } from '../factories/booking-fixture.js';
import { E2eApi } from '../utils/e2e-api.js';
import { eventually } from '../utils/notice-receiver.js';
import { createEndpoint } from '../utils/notice-setup.js';
import { seed } from '../utils/seed.js';
import { createTenant } from '../utils/tenant-factory.js';
import { testConfig } from '../utils/test-config.js';
import { TestSmtpServer } from '../utils/test-smtp-server.js';
// eslint-disable-next-line no-restricted-imports -- docs/partners.md's receiver example, run here as a real receiver so that it stays true
import { noticeRequestHandler, type Notice } from '../../examples/notice-receiver.js';
import { testSql, type TestSql } from '../utils/test-context.js';

/**
 * IN_PROCESS_JOBS (what `npm start` runs without REDIS_URL): the API alone, with no Redis at all,
 * delivers notices and e-mails with the worker's relay, signing, retry schedule and mail code.
 */
const RETRY_MS = 400;

let api: E2eApi;
let db: TestSql;
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await TestSmtpServer.start();
  api = await E2eApi.start(
    testConfig({
      IN_PROCESS_JOBS: 'true',
      // A REDIS_URL from the environment (CI exports one) would conflict with IN_PROCESS_JOBS.
      REDIS_URL: '',
      SMTP_URL: smtp.url,
      WEBHOOK_RETRY_SCHEDULE: `${RETRY_MS}ms,${RETRY_MS}ms`,
      NOTICE_SWEEP_EVERY_MS: '500',
    }),
  );
  db = testSql(api.app);
});
afterAll(async () => {
  await api.close();
  await smtp.close();
});

describe('the API without Redis (IN_PROCESS_JOBS)', () => {
  it('has no Redis client: readiness is PostgreSQL alone and keys are limited in memory', async () => {
    expect(api.app.get(REDIS_CLIENT)).toBeNull();
    const ready = await api.get('/health/ready');
    expect(ready.status).toBe(200);
    expect(Object.keys(ready.body.info as object)).toEqual(['postgresql']);

    const { key } = await createTenant();
    const first = await api.get('/me', { key });
    const second = await api.get('/me', { key });
    expect(first.status).toBe(200);
    expect(first.headers['ratelimit-limit']).toBe('120');
    expect(Number(second.headers['ratelimit-remaining'])).toBe(Number(first.headers['ratelimit-remaining']) - 1);
  });

  it('delivers the notice of POST /clients to a receiver, signed, and retries it on WEBHOOK_RETRY_SCHEDULE', async () => {
    const tenant = await createTenant();
    const arrivals: number[] = [];
    const notices: Notice[] = [];
    // Listening before the endpoint exists (its address is needed), verifying once its secret is known.
    let handle: RequestListener = (_req, res) => res.writeHead(503).end();
    const receiver = createServer((req, res) => {
      arrivals.push(Date.now());
      handle(req, res);
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/notices`;
      const endpoint = await createEndpoint(api.app, { id: tenant.businessId, slug: tenant.slug }, url, ['client.created']);
      handle = noticeRequestHandler({
        secret: endpoint.secret,
        onNotice: (notice) => {
          // The first attempt fails (the example answers 500), as a receiver briefly down would.
          if (arrivals.length === 1) throw new Error('not now');
          notices.push(notice);
        },
      });

      const created = await api.post('/clients', {
        key: tenant.key,
        headers: { 'Idempotency-Key': randomUUID() },
        body: {
          name: 'Rita Lopes',
          phone: '+351913000321',
          email: 'rita@example.com',
          consent: true,
        } satisfies RequestBody<'createClient'>,
      });
      expect(created.status).toBe(201);

      await eventually(() => Promise.resolve(notices.length === 1), 15_000, 'the notice to be verified and handled');
      expect(notices[0]).toMatchObject({ type: 'client.created', business: tenant.slug, data: { id: created.body.id } });
      expect(arrivals).toHaveLength(2);
      // The retry waited for the schedule's first delay, ±20% jitter.
      expect(arrivals[1] - arrivals[0]).toBeGreaterThanOrEqual(RETRY_MS * 0.8 - 50);

      const attempts = await eventually(async () => {
        const rows = await db.query<{ status: string; status_code: number | null }[]>(
          `SELECT d.status, a.status_code FROM notice_deliveries d JOIN delivery_attempts a ON a.delivery_id = d.id
            WHERE d.endpoint_id = $1 ORDER BY a.attempted_at`,
          [endpoint.id],
        );
        return rows.length === 2 && rows[0].status === 'DELIVERED' ? rows : null;
      });
      expect(attempts.map((row) => row.status_code)).toEqual([500, 204]);

      const metrics = await api.metrics();
      expect(metrics.text).toMatch(/^queue_jobs\{queue="notices",state="delayed"\} \d+/m);
      expect(metrics.text).toMatch(/^notice_delivery_attempts_5m\{outcome="http_error"\} [1-9]/m);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it('sends the booking e-mails through SMTP_URL, and retries one the server refused on the e-mail schedule', async () => {
    const salon = await loadBookingFixture({ keys: 1 });
    smtp.refuse(salon.clientEmail, 1);
    const booked = await api.post('/appointments', {
      key: salon.keys[0],
      headers: { 'Idempotency-Key': randomUUID() },
      body: {
        staffId: salon.staff.ana,
        serviceId: salon.services.cut,
        startAt: '2035-07-10T09:30:00Z',
        client: { id: salon.clients.joao },
      },
    });
    expect(booked.status).toBe(201);

    const desk = await smtp.waitFor((mail) => mail.to.includes(`desk@${salon.slug}.example`), 30_000);
    expect(desk.message.headers.subject).toMatch(/^Nova marcação: /);
    const toClient = await smtp.waitFor((mail) => mail.to.includes(salon.clientEmail.toLowerCase()), 30_000);
    expect(toClient.message.headers.subject).toMatch(/^Marcação registada: /);

    const row = await eventually(async () => {
      const [email] = await db.query<{ sent_at: Date | null; attempts: number; last_error: string | null }[]>(
        `SELECT sent_at, attempts, last_error FROM outbound_emails WHERE appointment_id = $1 AND audience = 'CLIENT'`,
        [booked.body.id],
      );
      return email?.sent_at ? email : null;
    });
    expect(row.attempts).toBe(2);
    expect(row.last_error).toMatch(/451/);
  });

  it("keeps a sandbox booking's e-mails as files, never offering them to SMTP_URL (docs/design-record.md#d19)", async () => {
    const salon = await seed({
      services: [{ ref: 'cut', name: 'Corte', durationMin: 30, priceCents: 2500 }],
      staff: [{ ref: 'ana', name: 'Ana', workingHours: ALL_WEEK }],
      keys: [{ ref: 'test', member: 'owner', name: 'Test', scopes: ['appointments.write'], mode: 'test' }],
    });
    const recipient = `sandbox.${salon.slug}@example.com`;
    const booked = await api.post('/appointments', {
      key: salon.keys.test.key,
      headers: { 'Idempotency-Key': randomUUID() },
      body: {
        staffId: salon.sandbox!.staff.ana,
        serviceId: salon.sandbox!.services.cut,
        startAt: '2035-07-11T09:30:00Z',
        client: {
          name: 'Cliente Teste',
          phone: `+35196${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`,
          email: recipient,
        },
      },
    });
    expect(booked.status).toBe(201);
    const kept = await eventually(async () => {
      const [email] = await db.query<{ id: string; sent_at: Date | null }[]>(
        `SELECT id, sent_at FROM outbound_emails WHERE appointment_id = $1 AND audience = 'CLIENT'`,
        [booked.body.id],
      );
      return email?.sent_at ? email : null;
    });
    expect(await readFile(join(testConfig().MAIL_DIR, `${kept.id}.eml`), 'utf8')).toContain(recipient);
    expect(smtp.received.filter((mail) => mail.to.includes(recipient))).toEqual([]);
  });
});
