import { createServer, type AddressInfo } from 'node:net';
import type { INestApplicationContext } from '@nestjs/common';
import { CURRENT_API_VERSION } from '#contract/versions/api-versions.js';
import { DomainError } from '#core/errors/domain-error.js';
import { WebhookEndpointsService } from '#core/notices/endpoints/webhook-endpoints.service.js';
import { FakeDnsServer } from '../../utils/fake-dns-server.js';
import { eventually } from '../../utils/notice-receiver.js';
import { createBusiness, emptyNoticesQueue, recordNotice } from '../../utils/notice-setup.js';
import { seed } from '../../utils/seed.js';
import { testConfig } from '../../utils/test-config.js';
import { startTestContext, type TestSql } from '../../utils/test-context.js';

/**
 * A refused webhook address says why in words, never the address its name resolved to, at
 * registration and in the delivery log (docs/design-record.md#d28). Names resolve through a real
 * DNS query to a fake server (WEBHOOK_DNS_SERVERS), as in production.
 */
const INTERNAL: Record<string, string> = {
  'private.hooks.test': '10.0.0.1',
  'metadata.hooks.test': '169.254.169.254',
  'closed.hooks.test': '127.0.0.1',
};
const RESOLVED = /10\.0\.0\.1|169\.254\.169\.254|127\.0\.0\.1/;

let dns: FakeDnsServer;
let closedPort: number;

beforeAll(async () => {
  dns = await FakeDnsServer.start(INTERNAL, () => false);
  // A port nothing listens on: a connection to it is refused, and the error names the address.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
});
afterAll(async () => {
  await dns.close();
});

const strictSettings = () => ({
  WEBHOOKS_ALLOW_PRIVATE: 'false',
  WEBHOOK_DNS_SERVERS: dns.address,
  WEBHOOK_RETRY_SCHEDULE: '100ms,100ms',
  NOTICE_SWEEP_EVERY_MS: '500',
});

let app: INestApplicationContext;
afterEach(async () => {
  await app.close();
});

/** The errors of the first attempts of each endpoint's delivery of the notice. */
async function attemptErrors(db: TestSql, noticeId: string, endpointIds: string[]): Promise<Record<string, string>> {
  return eventually(async () => {
    const rows = await db.query<{ endpoint_id: string; error: string }[]>(
      `SELECT d.endpoint_id, a.error FROM delivery_attempts a JOIN notice_deliveries d ON d.id = a.delivery_id
        WHERE d.notice_id = $1 ORDER BY a.attempted_at`,
      [noticeId],
    );
    const byEndpoint = Object.fromEntries(rows.map((row) => [row.endpoint_id, row.error]));
    return endpointIds.every((id) => id in byEndpoint) ? byEndpoint : null;
  });
}

describe('a refused webhook address (docs/design-record.md#d28)', () => {
  it('at registration says the kind of address a name resolved to, not the address', async () => {
    ({ app } = await startTestContext({ app: 'admin', config: strictSettings() }));
    const business = await createBusiness();
    const refusal = (url: string) =>
      app
        .get(WebhookEndpointsService)
        .create(business.id, { url, events: ['client.created'] }, business.id, CURRENT_API_VERSION)
        .then(
          () => null,
          (error: unknown) => error as DomainError,
        );
    const privateName = await refusal('https://private.hooks.test/hook');
    const metadataName = await refusal('https://metadata.hooks.test/hook');
    expect({ code: privateName?.code, detail: privateName?.detail }).toEqual({
      code: 'WEBHOOK_URL_REFUSED',
      detail: 'The address is refused: private.hooks.test resolves to a non-public address (private).',
    });
    expect({ code: metadataName?.code, detail: metadataName?.detail }).toEqual({
      code: 'WEBHOOK_URL_REFUSED',
      detail: 'The address is refused: metadata.hooks.test resolves to a non-public address (link-local).',
    });
    // The names were asked of the DNS server: the refusals are of its answers.
    expect(dns.asked).toEqual(expect.arrayContaining(['private.hooks.test', 'metadata.hooks.test']));
    // A literal address is the partner's own input: it is named with its range.
    expect((await refusal('https://169.254.169.254/hook'))?.detail).toBe(
      'The address is refused: the address must not point to a non-public address (link-local (cloud metadata)).',
    );
  });

  it('in the delivery log says the same, and a connection error names the host, not its address', async () => {
    const strict = testConfig(strictSettings());
    await emptyNoticesQueue(strict);
    let db: TestSql;
    ({ app, sql: db } = await startTestContext({ app: 'worker', config: strictSettings() }));
    const business = await seed({
      members: [],
      webhooks: [
        { ref: 'private', url: 'https://private.hooks.test/hook', events: ['client.created'] },
        { ref: 'metadata', url: 'https://metadata.hooks.test/hook', events: ['client.created'] },
      ],
    });
    const notice = await recordNotice(app, business);
    const errors = await attemptErrors(db, notice.id, [business.webhooks.private.id, business.webhooks.metadata.id]);
    expect(errors[business.webhooks.private.id]).toBe('not sent: private.hooks.test resolves to a non-public address (private)');
    expect(errors[business.webhooks.metadata.id]).toBe('not sent: metadata.hooks.test resolves to a non-public address (link-local)');
    await app.close();

    // With private addresses allowed the send is tried; the refused connection is logged by name.
    const lenient = { WEBHOOK_DNS_SERVERS: dns.address, WEBHOOK_RETRY_SCHEDULE: '100ms,100ms', NOTICE_SWEEP_EVERY_MS: '500' };
    await emptyNoticesQueue(testConfig(lenient));
    ({ app, sql: db } = await startTestContext({ app: 'worker', config: lenient }));
    const closed = await seed({
      members: [],
      webhooks: [{ ref: 'closed', url: `http://closed.hooks.test:${closedPort}/hook`, events: ['client.created'] }],
    });
    const sent = await recordNotice(app, closed);
    const connectError = (await attemptErrors(db, sent.id, [closed.webhooks.closed.id]))[closed.webhooks.closed.id];
    expect(connectError).toContain(`closed.hooks.test:${closedPort}`);
    expect(connectError).toMatch(/ECONNREFUSED/);
    for (const error of [...Object.values(errors), connectError]) expect(error).not.toMatch(RESOLVED);
  });
});
