import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server } from 'node:net';
import type { INestApplicationContext } from '@nestjs/common';
import { CURRENT_API_VERSION } from '#contract/versions/api-versions.js';
import { DomainError } from '#core/errors/domain-error.js';
import type { HostLookup, ResolvedAddress } from '#core/notices/endpoints/host-lookup.js';
import { NOTICE_SEND_LIMITS_D9, NoticeSender, type NoticeSendLimits } from '#core/notices/delivery/notice-sender.js';
import { HOST_LOOKUP, WebhookResolver } from '#core/notices/endpoints/webhook-resolver.js';
import { WebhookEndpointsService } from '#core/notices/endpoints/webhook-endpoints.service.js';
import { hostileUrls, recordingLookup } from '../../utils/hostile-addresses.js';
import { NoticeReceiver, eventually } from '../../utils/notice-receiver.js';
import { createBusiness, emptyNoticesQueue, recordNotice } from '../../utils/notice-setup.js';
import { seed } from '../../utils/seed.js';
import { testConfig } from '../../utils/test-config.js';
import { startTestContext, testSql, type TestSql } from '../../utils/test-context.js';

/**
 * The address rules of D9 with WEBHOOKS_ALLOW_PRIVATE off: every hostile address is refused before
 * any connection is opened, and a canary listening on 127.0.0.1 counts that nothing reached it.
 * Only loopback is ever connected to; private and other ranges are only shown to be refused.
 */
const strictSettings = { WEBHOOKS_ALLOW_PRIVATE: 'false', WEBHOOK_RETRY_SCHEDULE: '100ms,100ms', NOTICE_SWEEP_EVERY_MS: '500' };
const strict = testConfig(strictSettings);
const lenient = testConfig();

let canary: Server;
let canaryConnections = 0;
let port: number;

const lookups: string[] = [];
const fakeLookup = recordingLookup(lookups);

beforeAll(async () => {
  canary = createServer((socket) => {
    canaryConnections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  port = (canary.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => canary.close(resolve));
});

function sender(config = strict, limits: NoticeSendLimits = NOTICE_SEND_LIMITS_D9, lookup: HostLookup = fakeLookup): NoticeSender {
  return new NoticeSender(config, new WebhookResolver(lookup), limits);
}

const notice = {
  tenantId: 'tenant-a',
  id: '01944c2e-5c01-7e2a-b3c4-d5e6f7a8b9c0',
  timestamp: 1_893_920_400,
  body: '{}',
  signature: 'v1,AAAA',
};

describe('outbound address checks at send time', () => {
  it('refuses at least 20 hostile addresses before connecting, and nothing reaches the canary', async () => {
    const urls = hostileUrls(port);
    expect(urls.length).toBeGreaterThanOrEqual(20);
    for (const url of urls) {
      const result = await sender().send({ ...notice, url });
      expect({ url, delivered: result.delivered, statusCode: result.statusCode }).toEqual({ url, delivered: false, statusCode: null });
      expect(result.error).toMatch(/^not sent: /);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(canaryConnections).toBe(0);
  });

  it('names why: the range of an address typed, only the kind of one a name resolved to (docs/design-record.md#d28)', async () => {
    const refusal = async (url: string) => (await sender().send({ ...notice, url })).error;
    expect(await refusal(`https://2130706433:${port}/`)).toBe('not sent: the address must not point to a non-public address (loopback)');
    expect(await refusal('https://169.254.169.254/')).toBe(
      'not sent: the address must not point to a non-public address (link-local (cloud metadata))',
    );
    expect(await refusal(`https://[::ffff:127.0.0.1]:${port}/`)).toBe(
      'not sent: the address must not point to a non-public address (IPv4-mapped)',
    );
    expect(await refusal('https://mixed.test/')).toBe('not sent: mixed.test resolves to a non-public address (private)');
    expect(await refusal('http://93.184.216.34/')).toBe('not sent: the address must be an https URL');
    expect(await refusal('https://nowhere.test/')).toBe('not sent: the host name nowhere.test does not resolve (ENOTFOUND)');
  });

  it('resolves once per attempt and connects to the checked address, keeping the name as Host', async () => {
    const receiver = await NoticeReceiver.start();
    try {
      lookups.length = 0;
      const result = await sender(lenient).send({ ...notice, url: `http://rebind.test:${receiver.port}/pinned` });
      expect(result).toMatchObject({ delivered: true, statusCode: 200, error: null });
      expect(lookups).toEqual(['rebind.test']);
      expect(receiver.received[0].headers.host).toBe(`rebind.test:${receiver.port}`);
    } finally {
      await receiver.close();
    }
  });

  it('reuses a connection only to the address just checked: a name re-pointed elsewhere connects anew', async () => {
    const hits: string[] = [];
    const listen = async (host: string, port: number) => {
      const server = createHttpServer((req, res) => {
        hits.push(host);
        req.resume();
        res.end('ok');
      });
      await new Promise<void>((resolve) => server.listen(port, host, resolve));
      return server;
    };
    const first = await listen('127.0.0.1', 0);
    const port = (first.address() as AddressInfo).port;
    const second = await listen('127.0.0.2', port);
    const repointed: Record<string, ResolvedAddress[]> = { 'flip.test': [{ address: '127.0.0.1', family: 4 }] };
    const flipping = sender(lenient, NOTICE_SEND_LIMITS_D9, (hostname) => Promise.resolve(repointed[hostname] ?? []));
    try {
      const url = `http://flip.test:${port}/hook`;
      expect((await flipping.send({ ...notice, url })).delivered).toBe(true);
      expect((await flipping.send({ ...notice, url })).delivered).toBe(true);
      repointed['flip.test'] = [{ address: '127.0.0.2', family: 4 }];
      expect((await flipping.send({ ...notice, url })).delivered).toBe(true);
      expect(hits).toEqual(['127.0.0.1', '127.0.0.1', '127.0.0.2']);
    } finally {
      await flipping.onApplicationShutdown();
      for (const server of [first, second]) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    }
  });

  it('never follows a redirect, even to an address that would be allowed', async () => {
    for (const status of [301, 302, 303, 307, 308]) {
      const redirector = await NoticeReceiver.start(() => ({ status, headers: { location: `http://127.0.0.1:${port}/internal` } }));
      try {
        const result = await sender(lenient).send({ ...notice, url: redirector.url() });
        expect(result).toMatchObject({ delivered: false, statusCode: status });
        expect(result.error).toBe(`HTTP ${status}: redirect not followed (Location: http://127.0.0.1:${port}/internal)`);
      } finally {
        await redirector.close();
      }
    }
    expect(canaryConnections).toBe(0);
  });

  it('gives up after the total time limit when the receiver never answers', async () => {
    const silent = await NoticeReceiver.start(() => 'hang');
    try {
      const result = await sender(lenient, { connectTimeoutMs: 500, totalTimeoutMs: 800, maxResponseBytes: 64 * 1024 }).send({
        ...notice,
        url: silent.url(),
      });
      expect(result).toMatchObject({ delivered: false, statusCode: null });
      expect(result.error).toMatch(/timeout|aborted/i);
      expect(result.durationMs).toBeGreaterThanOrEqual(700);
      expect(result.durationMs).toBeLessThan(3_000);
    } finally {
      await silent.close();
    }
  });

  it('reads at most 64 KiB of an answer and drops the rest', async () => {
    let written = 0;
    let closedEarly = false;
    const endless: HttpServer = createHttpServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) written += chunk.length;
        if (!res.destroyed) res.once('drain', pump);
      };
      res.on('close', () => (closedEarly = true));
      pump();
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(endless.address() as AddressInfo).port}/`;
      const result = await sender(lenient).send({ ...notice, url });
      expect(result).toMatchObject({ delivered: true, statusCode: 200 });
      expect(result.durationMs).toBeLessThan(5_000);
      await eventually(() => Promise.resolve(closedEarly), 5_000, 'the endless answer to be cut');
      expect(written).toBeGreaterThan(64 * 1024);
    } finally {
      endless.closeAllConnections();
      await new Promise((resolve) => endless.close(resolve));
    }
  });
});

describe('address checks at registration and through the worker', () => {
  let app: INestApplicationContext;

  afterEach(async () => {
    await app.close();
  });

  it('refuses every hostile address at `webhook create`', async () => {
    ({ app } = await startTestContext({ app: 'admin', config: strictSettings, providers: [[HOST_LOOKUP, fakeLookup]] }));
    const business = await createBusiness();
    for (const url of hostileUrls(port)) {
      const refused = await app
        .get(WebhookEndpointsService)
        .create(business.id, { url, events: ['client.created'] }, business.id, CURRENT_API_VERSION)
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(refused).toBeInstanceOf(DomainError);
      expect({ url, code: (refused as DomainError).code }).toEqual({ url, code: 'WEBHOOK_URL_REFUSED' });
    }
    const [{ n }] = await testSql(app).query<{ n: string }[]>('SELECT count(*) AS n FROM webhook_endpoints WHERE business_id = $1', [
      business.id,
    ]);
    expect(Number(n)).toBe(0);
    expect(canaryConnections).toBe(0);
  });

  it('checks again at every send: a name that now resolves to loopback is refused (DNS rebinding)', async () => {
    await emptyNoticesQueue(strict);
    let db: TestSql;
    // The canary's port is allowed, so that only the address's range can refuse the send.
    const config = { ...strictSettings, WEBHOOK_PORTS: `443,${port}` };
    ({ app, sql: db } = await startTestContext({ app: 'worker', config, providers: [[HOST_LOOKUP, fakeLookup]] }));
    // Registered while the name pointed somewhere public; it has since been re-pointed at loopback.
    const business = await seed({
      members: [],
      webhooks: [{ ref: 'hook', url: `https://rebind.test:${port}/hook`, events: ['client.created'] }],
    });
    const endpointId = business.webhooks.hook.id;
    const recorded = await recordNotice(app, business);

    const failed = await eventually(async () => {
      const rows = await db.query<{ id: string; status: string; attempts: number }[]>(
        'SELECT id, status, attempts FROM notice_deliveries WHERE notice_id = $1 AND endpoint_id = $2',
        [recorded.id, endpointId],
      );
      return rows[0]?.status === 'FAILED' ? rows[0] : null;
    });
    expect(failed.attempts).toBe(3);
    const attempts = await db.query<{ status_code: number | null; error: string }[]>(
      'SELECT status_code, error FROM delivery_attempts WHERE delivery_id = $1',
      [failed.id],
    );
    expect(attempts).toHaveLength(3);
    for (const attempt of attempts) {
      expect(attempt).toEqual({ status_code: null, error: 'not sent: rebind.test resolves to a non-public address (loopback)' });
    }
    expect(canaryConnections).toBe(0);
  });
});
