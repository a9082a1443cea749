import { randomUUID } from 'node:crypto';
import { SCOPES } from '#core/scopes/scope.js';
import { ALL_WEEK } from '../factories/booking-fixture.js';
import { ConsoleClient } from '../utils/console-client.js';
import { E2eApi } from '../utils/e2e-api.js';
import { eventually, NoticeReceiver } from '../utils/notice-receiver.js';
import { seed } from '../utils/seed.js';
import { testConfig } from '../utils/test-config.js';

/**
 * The console's deliveries and event log (docs/design-record.md#d29) against a real receiver: one
 * row per notice and endpoint, its attempts beneath with what was sent and what came back, the
 * filters, and sending again. The API delivers on its own (IN_PROCESS_JOBS), retrying at once.
 */
let api: E2eApi;
let receiver: NoticeReceiver;
const FIVE_KB = 'x'.repeat(5 * 1024);

beforeAll(async () => {
  api = await E2eApi.start(testConfig({ IN_PROCESS_JOBS: 'true', REDIS_URL: '', WEBHOOK_RETRY_SCHEDULE: '1s,1s' }));
  // The first notice at each path is refused with a long answer, every later one accepted.
  const seen = new Map<string, number>();
  receiver = await NoticeReceiver.start((notice) => {
    const n = seen.get(notice.path) ?? 0;
    seen.set(notice.path, n + 1);
    return n === 0 ? { status: 500, body: `refused ${FIVE_KB}` } : { status: 200, body: 'thanks' };
  });
});
afterAll(async () => {
  await api?.app.close();
  await receiver?.close();
});

async function salon() {
  const owner = `owner-${randomUUID()}@salon.example`;
  const business = await seed({
    services: [{ ref: 'cut', name: 'Cut', durationMin: 30, priceCents: 2000 }],
    staff: [{ ref: 'ana', name: 'Ana', workingHours: ALL_WEEK }],
    clients: [{ ref: 'joao', name: 'João', phone: '+351912000001', email: 'joao@example.com', consent: true }],
    members: [{ ref: 'owner', name: 'Owner', email: owner, role: 'OWNER' }],
    keys: [{ ref: 'all', member: 'owner', name: 'All', scopes: SCOPES }],
  });
  return { business, owner, key: business.keys.all.key };
}

describe('the console shows each delivery with its attempts', () => {
  it('what was sent and what came back, filtered by outcome and type, and sends it again from the event log', async () => {
    const { business, owner, key } = await salon();
    const console = await ConsoleClient.signIn(api.app, business.slug, owner);
    const base = `/console/b/${business.slug}`;
    const path = `/${randomUUID()}`;
    const registered = await console.post(`${base}/webhooks`, `${base}/webhooks`, {
      url: receiver.url(path),
      events: 'appointment.created',
    });
    expect(registered.status).toBe(303);

    const booked = await api.post('/appointments', {
      key,
      headers: { 'Idempotency-Key': randomUUID() },
      body: {
        staffId: business.staff.ana,
        serviceId: business.services.cut,
        startAt: '2036-06-02T10:00:00Z',
        client: { id: business.clients.joao },
      },
    });
    expect(booked.status).toBe(201);
    await receiver.waitFor((all) => all.filter((n) => n.path === path).length >= 2, 30_000);

    // One row for the notice and the endpoint, delivered at the second attempt.
    const list = await eventually(async () => {
      const page = await console.get(`${base}/deliveries?outcome=delivered`);
      return page.text.includes('appointment.created') ? page.text : null;
    }, 30_000);
    const detailPath = /href="(\/console\/b\/[^"]+\/deliveries\/[0-9a-f-]{36})"/.exec(list)?.[1];
    expect(detailPath).toBeDefined();
    expect((await console.get(`${base}/deliveries?outcome=failed`)).text).toContain('None yet.');
    expect((await console.get(`${base}/deliveries?eventType=appointment.cancelled`)).text).toContain('None yet.');

    const detail = (await console.get(detailPath!)).text;
    const sent = receiver.received.filter((n) => n.path === path);
    // What was sent: the signature header and the body, byte for byte (as HTML text).
    expect(detail).toContain(`webhook-signature: ${String(sent[0].headers['webhook-signature'])}`);
    expect(detail).toContain(String(sent[0].headers['webhook-id']));
    expect(detail).toContain(sent[1].body.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'));
    // What came back: the refusal's status and only the first 1 KB of its 5 KB body; then the 200.
    expect(detail).toContain('Status 500');
    expect(detail).toContain('Status 200');
    const excerpt = /refused x+/.exec(detail)?.[0] ?? '';
    expect(excerpt.length).toBe(1024);
    expect(detail).toContain('thanks');

    // The event log lists it; sending it again reaches the endpoint once more.
    const events = await console.get(`${base}/events?type=appointment.created`);
    const eventId = String(sent[0].headers['webhook-id']);
    expect(events.text).toContain(eventId);
    const again = await console.post(`${base}/events`, `${base}/events/${eventId}/send-again`, {});
    expect(again.status).toBe(303);
    expect(again.text).toContain('The event was queued to be sent again to 1 endpoint(s).');
    await receiver.waitFor((all) => all.filter((n) => n.path === path).length >= 3, 30_000);
    // Reloading the page the redirect led to sends nothing more, and the notice is gone from it.
    const reloaded = await console.get(`${base}/events`);
    expect(reloaded.text).not.toContain('queued to be sent again');
    expect(receiver.received.filter((n) => n.path === path)).toHaveLength(3);
  });

  it('speaks Portuguese to a browser that asks for it', async () => {
    const { business, owner } = await salon();
    const console = await ConsoleClient.signIn(api.app, business.slug, owner, 'pt-PT,pt;q=0.9');
    const page = await console.get(`/console/b/${business.slug}/deliveries`);
    expect(page.text).toContain('<html lang="pt-PT">');
    expect(page.text).toContain('<h1>Entregas</h1>');
  });
});
