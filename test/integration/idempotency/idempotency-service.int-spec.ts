import { randomUUID } from 'node:crypto';
import { Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DataSource, QueryFailedError } from 'typeorm';
import { ConfigModule } from '#config/config.module.js';
import { ApiKeysModule } from '#core/api-keys/api-keys.module.js';
import { BusinessesModule } from '#core/businesses/businesses.module.js';
import { IdempotencyModule } from '#core/idempotency/idempotency.module.js';
import { IdempotencyService } from '#core/idempotency/idempotency.service.js';
import { DatabaseModule } from '#database/database.module.js';
import { testConfig } from '../../utils/test-config.js';
import { createTenant } from '../../utils/tenant-factory.js';

@Module({
  imports: [ConfigModule.forRoot(testConfig()), DatabaseModule.forRoot('test', 0), BusinessesModule, ApiKeysModule, IdempotencyModule],
})
class IdempotencyTestModule {}

let app: INestApplicationContext;
let apiKeyId: string;
beforeAll(async () => {
  app = await NestFactory.createApplicationContext(IdempotencyTestModule, { logger: false });
  const tenant = await createTenant(app);
  const rows = await app.get(DataSource).query<{ id: string }[]>('SELECT id FROM api_keys WHERE prefix = $1', [tenant.prefix]);
  apiKeyId = rows[0].id;
});
afterAll(() => app.close());

const deadlock = () =>
  new QueryFailedError('UPDATE appointments …', [], Object.assign(new Error('deadlock detected'), { code: '40P01' }));

describe('IdempotencyService', () => {
  it('runs a write that lost a deadlock again, and stores one response', async () => {
    const service = app.get(IdempotencyService);
    const request = { apiKeyId, idempotencyKey: randomUUID(), fingerprint: 'POST /x abc' };
    let runs = 0;
    const write = () => {
      runs += 1;
      if (runs === 1) return Promise.reject(deadlock());
      return Promise.resolve({ response: { status: 201, contentType: 'application/json', body: '{"ok":true}' }, keepWrites: true });
    };
    const first = await service.execute(request, write);
    expect(runs).toBe(2);
    expect(first).toEqual({ response: { status: 201, contentType: 'application/json', body: '{"ok":true}' }, replayed: false });
    const replay = await service.execute(request, write);
    expect(replay.replayed).toBe(true);
    expect(runs).toBe(2);
  });

  it('gives up after three deadlocks and stores nothing', async () => {
    const service = app.get(IdempotencyService);
    const request = { apiKeyId, idempotencyKey: randomUUID(), fingerprint: 'POST /x def' };
    let runs = 0;
    await expect(
      service.execute(request, () => {
        runs += 1;
        return Promise.reject(deadlock());
      }),
    ).rejects.toBeInstanceOf(QueryFailedError);
    expect(runs).toBe(3);
    const stored = await app.get(DataSource).query('SELECT 1 FROM idempotency_records WHERE idempotency_key = $1', [request.idempotencyKey]);
    expect(stored).toHaveLength(0);
  });
});
