import { getQueueToken } from '@nestjs/bullmq';
import { QueueEvents, type Queue } from 'bullmq';
import { MAINTENANCE_QUEUE, MaintenanceJob } from '#jobs/queues.js';
import { newId } from '#database/new-id.js';
import { BusinessesModule } from '#core/businesses/businesses.module.js';
import { ApiKeysModule } from '#core/api-keys/api-keys.module.js';
import { startTestContext, type TestContext } from '../../utils/test-context.js';
import { createTenant } from '../../utils/tenant-factory.js';

let context: TestContext;
beforeAll(async () => {
  context = await startTestContext({ app: 'worker', imports: [BusinessesModule, ApiKeysModule] });
});
afterAll(() => context.close());

describe('worker: idempotency record purge', () => {
  it('deletes records past their retention through the real BullMQ queue, and keeps the others', async () => {
    const tenant = await createTenant();
    const db = context.sql;
    const [{ id: keyId }] = await db.query<{ id: string }[]>('SELECT id FROM api_keys WHERE prefix = $1', [tenant.prefix]);
    const insert = (idempotencyKey: string, expiresAt: string) =>
      db.query(
        `INSERT INTO idempotency_records (id, api_key_id, idempotency_key, fingerprint, response_status, response_body, response_content_type, expires_at)
         VALUES ($1, $2, $3, 'f', 201, '{}', 'application/json', ${expiresAt})`,
        [newId(), keyId, idempotencyKey],
      );
    await insert('expired-key-1', "now() - interval '1 minute'");
    await insert('fresh-key-01', "now() + interval '23 hours'");

    const queue = context.app.get<Queue>(getQueueToken(MAINTENANCE_QUEUE));
    const config = context.config;
    const events = new QueueEvents(MAINTENANCE_QUEUE, { connection: { url: config.REDIS_URL }, prefix: config.QUEUE_PREFIX });
    await events.waitUntilReady();
    const job = await queue.add(MaintenanceJob.PurgeIdempotencyRecords, {});
    const result = (await job.waitUntilFinished(events, 10_000)) as { purged: number };
    await events.close();

    expect(result.purged).toBeGreaterThanOrEqual(1);
    const left = await db.query<{ idempotency_key: string }[]>('SELECT idempotency_key FROM idempotency_records WHERE api_key_id = $1', [
      keyId,
    ]);
    expect(left.map((r) => r.idempotency_key)).toEqual(['fresh-key-01']);
  });
});
