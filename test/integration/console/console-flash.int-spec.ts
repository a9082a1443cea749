import { randomUUID } from 'node:crypto';
import { ConsoleFlashModule } from '#core/console-flash/console-flash.module.js';
import { ConsoleFlashService } from '#core/console-flash/console-flash.service.js';
import { startTestContext, type TestContext } from '../../utils/test-context.js';

/**
 * The console's one-time messages (docs/design-record.md#d29) on real PostgreSQL: a secret left for
 * a page is given to one reader only, however many read at once (two tabs reloading together), only
 * to its session and path, and is stored sealed.
 */
let context: TestContext;

beforeAll(async () => {
  context = await startTestContext({ imports: [ConsoleFlashModule] });
});
afterAll(() => context?.close());

const flashes = () => context.app.get(ConsoleFlashService);

describe('a console flash', () => {
  it('is given once when many read it at the same moment', async () => {
    const session = randomUUID();
    const secret = `rk_live_${randomUUID().replace(/-/g, '')}`;
    await flashes().put(session, '/console/b/salon/keys', { kind: 'secret', value: secret });
    // Ten readers of the same page in the same session, sent together.
    const taken = await Promise.all(Array.from({ length: 10 }, () => flashes().take(session, '/console/b/salon/keys')));
    expect(taken.flat()).toEqual([{ kind: 'secret', value: secret }]);
    expect(await flashes().take(session, '/console/b/salon/keys')).toEqual([]);
  });

  it('is only for its session and its page, and is stored sealed', async () => {
    const session = randomUUID();
    const secret = `whsec_${randomUUID()}`;
    await flashes().put(session, '/console/b/salon/webhooks/1', { kind: 'secret', value: secret });
    expect(await flashes().take(randomUUID(), '/console/b/salon/webhooks/1')).toEqual([]);
    expect(await flashes().take(session, '/console/b/salon/keys')).toEqual([]);
    const stored = await context.sql.query<{ sealed: string }[]>(`SELECT sealed FROM console_flashes WHERE session_id = $1`, [session]);
    expect(stored).toHaveLength(1);
    expect(stored[0].sealed).not.toContain(secret);
    expect(await flashes().take(session, '/console/b/salon/webhooks/1')).toEqual([{ kind: 'secret', value: secret }]);
  });

  it('is dropped once ten minutes old, unread', async () => {
    const session = randomUUID();
    await flashes().put(session, '/console/b/salon/keys', { kind: 'notice' });
    await context.sql.query(`UPDATE console_flashes SET created_at = now() - interval '11 minutes' WHERE session_id = $1`, [session]);
    expect(await flashes().take(session, '/console/b/salon/keys')).toEqual([]);
  });
});
