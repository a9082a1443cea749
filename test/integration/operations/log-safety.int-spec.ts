import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import type { RequestBody } from '#contract/contract-types.js';
import { ApiKeysService } from '#core/api-keys/api-keys.service.js';
import { SCOPES } from '#core/scopes/scope.js';
import { loadBookingFixture } from '../../factories/booking-fixture.js';
import { Child, buildApps, childEnv, freePort } from '../../utils/child-process.js';
import { NoticeReceiver, eventually } from '../../utils/notice-receiver.js';
import { createEndpoint, emptyNoticesQueue } from '../../utils/notice-setup.js';
import { TEST_DATABASE_NAME } from '../../utils/test-database.js';
import { testConfig } from '../../utils/test-config.js';
import { startTestContext, type TestSql } from '../../utils/test-context.js';
import { TestSmtpServer } from '../../utils/test-smtp-server.js';

/**
 * Every line the processes log during a representative flow (keys, a webhook secret, clients with
 * phones and e-mails, a booking with its e-mails and notices, failures and retries) is read back:
 * none may carry a key, a secret, a phone number or an e-mail address, and every request line
 * says which request, key and business it was. Run as deployments run them: the compiled API and
 * worker at LOG_LEVEL=log, their stdout and stderr captured whole; and the API alone without Redis.
 */
jest.setTimeout(120_000);

const config = testConfig();
let app: INestApplicationContext;
let db: TestSql;
let receiver: NoticeReceiver;
let smtp: TestSmtpServer;
const children: Child[] = [];

beforeAll(async () => {
  await buildApps();
  ({ app, sql: db } = await startTestContext({ app: 'admin' }));
  // Each receiver path fails its first notice, so delivery failures and retries are logged too.
  receiver = await NoticeReceiver.start((notice) =>
    receiver.received.filter((r) => r.path === notice.path).length === 1 ? { status: 500, body: 'busy' } : { status: 204 },
  );
  smtp = await TestSmtpServer.start();
});

afterAll(async () => {
  for (const child of children) await child.kill();
  await app?.close();
  await receiver?.close();
  await smtp?.close();
});

interface LogLine {
  text: string;
  json: Record<string, unknown> | null;
}

function logLines(...processes: Child[]): LogLine[] {
  return processes
    .flatMap((child) => child.output.split('\n'))
    .filter((text) => text.trim() !== '')
    .map((text) => {
      try {
        return { text, json: JSON.parse(text) as Record<string, unknown> };
      } catch {
        return { text, json: null };
      }
    });
}

const EMAIL_ADDRESS = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+/;

async function flow(
  apiPort: number,
  receiverPath: string,
): Promise<{ secrets: string[]; authenticatedIds: Set<string>; anonymousIds: Set<string> }> {
  const salon = await loadBookingFixture({ keys: 1 });
  // A key made as `admin key create` makes it, with every scope.
  const { key } = await app
    .get(ApiKeysService)
    .create({ businessSlug: salon.slug, memberEmail: `owner@${salon.slug}.example`, name: 'Logs', scopes: SCOPES });
  const keys = [key, salon.keys[0]];
  smtp.refuse(salon.clientEmail, 1);
  const endpoint = await createEndpoint(app, { id: salon.businessId, slug: salon.slug }, receiver.url(receiverPath), [
    'client.created',
    'appointment.created',
  ]);
  const phone = `+35193${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  const email = `rita.${randomUUID().slice(0, 8)}@example.com`;
  const wrongKey = `rk_live_${'A'.repeat(32)}000000`;
  const authenticatedIds = new Set<string>();
  const anonymousIds = new Set<string>();

  const call = async (path: string, init: { key?: string; keyHeader?: 'x-api-key'; body?: unknown } = {}): Promise<Response> => {
    const requestId = randomUUID();
    const headers: Record<string, string> = { 'x-request-id': requestId };
    if (init.key) headers[init.keyHeader ?? 'authorization'] = init.keyHeader ? init.key : `Bearer ${init.key}`;
    if (init.body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['idempotency-key'] = randomUUID();
    }
    const res = await fetch(`http://127.0.0.1:${apiPort}${path}`, {
      method: init.body === undefined ? 'GET' : 'POST',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    await res.arrayBuffer();
    (res.status === 401 || !init.key ? anonymousIds : authenticatedIds).add(requestId);
    return res;
  };

  expect((await call('/v1/api/me', { key: keys[0] })).status).toBe(200);
  expect((await call('/v1/api/me', { key: keys[1], keyHeader: 'x-api-key' })).status).toBe(200);
  const created = await call('/v1/api/clients', {
    key: keys[0],
    body: { name: 'Rita Lopes', phone, email, consent: true } satisfies RequestBody<'createClient'>,
  });
  expect(created.status).toBe(201);
  // The same phone again: a 409 whose detail must not reach the log either.
  expect((await call('/v1/api/clients', { key: keys[0], body: { name: 'Rita', phone, email, consent: true } })).status).toBe(409);
  // Personal data in a query string (the client lookup of D21): the request line logs the path only,
  // whether the lookup finds the client or refuses the value.
  const lookup = await call(`/v1/api/clients?email=${encodeURIComponent(email)}&phone=${encodeURIComponent(phone)}`, { key: keys[0] });
  expect(lookup.status).toBe(200);
  expect(
    (await call(`/v1/api/clients?email=${encodeURIComponent(`x${email}@`)}&phone=${encodeURIComponent(`${phone}0000`)}`, { key: keys[0] }))
      .status,
  ).toBe(400);
  const booked = await call('/v1/api/appointments', {
    key: keys[1],
    body: { staffId: salon.staff.ana, serviceId: salon.services.cut, startAt: '2035-07-10T09:30:00Z', client: { id: salon.clients.joao } },
  });
  expect(booked.status).toBe(201);
  expect((await call('/v1/api/me', { key: wrongKey })).status).toBe(401);
  expect((await call('/v1/api/me', { key: `${keys[0].slice(0, -1)}${keys[0].endsWith('x') ? 'y' : 'x'}` })).status).toBe(401);
  expect((await call('/v1/api/openapi.json')).status).toBe(200);

  // Let the notices (one failure, then success) and the e-mails (one refusal, then sent) run their course.
  await eventually(
    async () => {
      const [row] = await db.query<{ pending: number; unsent: number }[]>(
        `SELECT (SELECT count(*)::int FROM notice_deliveries WHERE endpoint_id = $1 AND status <> 'DELIVERED') AS pending,
                (SELECT count(*)::int FROM outbound_emails WHERE business_id = $2 AND sent_at IS NULL) AS unsent`,
        [endpoint.id, salon.businessId],
      );
      const [{ delivered }] = await db.query<{ delivered: number }[]>(
        `SELECT count(*)::int AS delivered FROM notice_deliveries WHERE endpoint_id = $1 AND status = 'DELIVERED'`,
        [endpoint.id],
      );
      return row.pending === 0 && row.unsent === 0 && delivered === 2;
    },
    30_000,
    'the notices to be delivered and the e-mails sent',
  );
  return {
    secrets: [...salon.keys, salon.readOnlyKey, wrongKey, endpoint.secret, phone, phone.slice(1), phone.slice(4), email, salon.clientEmail],
    authenticatedIds,
    anonymousIds,
  };
}

function checkLines(lines: LogLine[], result: Awaited<ReturnType<typeof flow>>): void {
  expect(lines.length).toBeGreaterThan(10);
  for (const { text } of lines) {
    for (const secret of result.secrets) expect(text).not.toContain(secret);
    expect(text).not.toContain('whsec_');
    expect(text).not.toMatch(EMAIL_ADDRESS);
    expect(text).not.toMatch(/\+\d{9,15}/);
  }
  const requestLines = lines.filter((line) => line.json?.req !== undefined && line.json.res !== undefined);
  const byId = new Map(requestLines.map((line) => [line.json?.requestId, line.json]));
  for (const id of result.authenticatedIds) {
    const line = byId.get(id);
    expect(line).toMatchObject({
      requestId: id,
      keyPrefix: expect.stringMatching(/^rk_live_[0-9A-Za-z]{4}$/),
      business: expect.stringMatching(/^book-/),
    });
    expect(Object.keys(line?.req as object)).toEqual(['method', 'path']);
    expect(JSON.stringify(line)).not.toContain('?');
  }
  for (const id of result.anonymousIds) {
    const line = byId.get(id);
    expect(line).toMatchObject({ requestId: id });
    expect(line?.keyPrefix).toBeUndefined();
  }
  for (const line of requestLines) expect(line.json?.requestId).toEqual(expect.any(String));
}

// Without Redis unless a test adds it: the API alone runs with IN_PROCESS_JOBS, refused beside REDIS_URL.
const processEnv = (extra: Record<string, string>): NodeJS.ProcessEnv =>
  childEnv('log-safety', {
    LOG_LEVEL: 'log',
    REDIS_URL: undefined,
    QUEUE_PREFIX: undefined,
    WEBHOOK_RETRY_SCHEDULE: '300ms,300ms,300ms',
    NOTICE_SWEEP_EVERY_MS: '500',
    SMTP_URL: smtp.url,
    ...extra,
  });

async function stop(...processes: Child[]): Promise<void> {
  for (const child of processes) child.process.kill('SIGTERM');
  for (const child of processes) expect(await child.exited).toBe(0);
}

describe('log lines', () => {
  it('of the API and the worker carry no key, secret, phone or e-mail, and name each request', async () => {
    const apiPort = await freePort();
    const shared = { REDIS_URL: config.REDIS_URL, QUEUE_PREFIX: `logs-${TEST_DATABASE_NAME}` };
    await emptyNoticesQueue(testConfig(shared));
    const api = Child.spawn(process.execPath, ['dist/apps/api/src/main.js'], processEnv({ ...shared, PORT: String(apiPort) }));
    const worker = Child.spawn(process.execPath, ['dist/apps/worker/src/main.js'], processEnv(shared));
    children.push(api, worker);
    await api.waitForOutput(/Listening on/);
    await worker.waitForOutput(/Worker started/);

    const result = await flow(apiPort, '/with-worker');
    await stop(api, worker);
    const lines = logLines(api, worker);
    checkLines(lines, result);
    // The failures were logged (without what they must not say).
    expect(worker.output).toMatch(/Notice .* failed \(HTTP 500/);
    expect(worker.output).toMatch(/was not sent: .*451/);
  });

  it('of the API without Redis, which delivers notices and e-mails itself, carry none either', async () => {
    const apiPort = await freePort();
    const api = Child.spawn(
      process.execPath,
      ['dist/apps/api/src/main.js'],
      processEnv({ PORT: String(apiPort), IN_PROCESS_JOBS: 'true' }),
    );
    children.push(api);
    await api.waitForOutput(/Listening on/);

    const result = await flow(apiPort, '/in-process');
    await stop(api);
    checkLines(logLines(api), result);
    expect(api.output).toMatch(/Notice .* failed \(HTTP 500/);
    expect(api.output).toMatch(/was not sent: .*451/);
  });
});
