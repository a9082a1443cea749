import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import pg from 'pg';
import { buildNoticeBody } from '#core/notices/outbox/notice-body.js';
import { NOTICE_CHANNEL } from '#core/notices/outbox/notice-channel.js';
import { NoticesRepository } from '#core/notices/outbox/notices.repository.js';
import type { AppConfig } from '#config/app-config.js';
import type { Database } from '#database/database.js';
import { createBusiness, type TestBusiness } from '../../utils/notice-setup.js';
import { startTestContext, type TestSql } from '../../utils/test-context.js';

/**
 * The relay's wake-up: a NOTIFY sent after the commit of a transaction that recorded notices, in
 * a transaction of its own (a NOTIFY inside the write would make every such commit wait for the
 * previous one), and none for a transaction that rolled back.
 */
let app: INestApplicationContext;
let db: TestSql;
let database: Database;
let listener: pg.Client;
let business: TestBusiness;
const wakeups: number[] = [];

beforeAll(async () => {
  let config: AppConfig;
  ({ app, config, sql: db, database } = await startTestContext({ app: 'admin' }));
  business = await createBusiness();
  listener = new pg.Client({ connectionString: config.DATABASE_URL });
  await listener.connect();
  listener.on('notification', () => wakeups.push(performance.now()));
  await listener.query(`LISTEN ${NOTICE_CHANNEL}`);
});
afterAll(async () => {
  await listener.end();
  await app.close();
});
beforeEach(() => {
  wakeups.length = 0;
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
const notice = () =>
  buildNoticeBody({ type: 'client.created', businessSlug: business.slug, subjectId: randomUUID(), occurredAt: new Date() });
const unrelayed = async (id: string) => (await db.query('SELECT 1 FROM notices WHERE id = $1', [id])).length;

describe('the relay wake-up', () => {
  it('comes after the commit of a transaction that recorded a notice, and not from inside it', async () => {
    const notices = app.get(NoticesRepository);
    const body = notice();
    const statements: { sql: string; client: unknown }[] = [];
    await database.transactional(async () => {
      // Whatever the write sends, on any connection of this process, and on which.
      const query = jest.spyOn(pg.Client.prototype, 'query');
      await notices.record(business.id, body);
      statements.push(...query.mock.calls.map(([sql], i) => ({ sql: JSON.stringify(sql), client: query.mock.contexts[i] })));
      query.mockRestore();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(wakeups).toHaveLength(0);
    });
    const committedAt = performance.now();
    // No NOTIFY inside the write, on any connection: its commit takes no notify lock.
    expect(statements.map(({ sql }) => sql).join('\n')).not.toMatch(/notify/i);
    // On the transaction's connection, its BEGIN goes with its first statement (Database), then the
    // notice itself. The process's other connections may carry work of its own meanwhile (the OAuth
    // provider's look at its resources when it starts, on a slow machine).
    const transaction = statements.find(({ sql }) => sql === '"BEGIN"')?.client;
    expect(statements.filter(({ client }) => client === transaction).map(({ sql }) => sql)).toEqual([
      '"BEGIN"',
      expect.stringContaining('insert_notice'),
    ]);
    await settle();
    expect(await unrelayed(body.id)).toBe(1);
    expect(wakeups.length).toBeGreaterThanOrEqual(1);
    expect(wakeups[0]).toBeGreaterThanOrEqual(committedAt - 5);
  });

  it('is not sent for a transaction that rolled back', async () => {
    const notices = app.get(NoticesRepository);
    const body = notice();
    await expect(
      database.transactional(async () => {
        await notices.record(business.id, body);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    await settle();
    expect(await unrelayed(body.id)).toBe(0);
    expect(wakeups).toHaveLength(0);
  });

  it('answers a burst of commits with fewer NOTIFYs, the last one after the last commit', async () => {
    const notices = app.get(NoticesRepository);
    const commits = await Promise.all(
      Array.from({ length: 30 }, async () => {
        await database.transactional(() => notices.record(business.id, notice()));
        return performance.now();
      }),
    );
    await settle();
    expect(wakeups.length).toBeGreaterThanOrEqual(1);
    expect(wakeups.length).toBeLessThanOrEqual(30);
    expect(Math.max(...wakeups)).toBeGreaterThanOrEqual(Math.max(...commits) - 5);
  });

  it('is sent at once for a notice recorded outside a transaction', async () => {
    await app.get(NoticesRepository).record(business.id, notice());
    await settle();
    expect(wakeups.length).toBeGreaterThanOrEqual(1);
  });
});
