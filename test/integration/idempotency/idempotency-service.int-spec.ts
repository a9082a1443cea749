import { randomUUID } from 'node:crypto';
import { ApiKeysModule } from '#core/api-keys/api-keys.module.js';
import { BusinessesModule } from '#core/businesses/businesses.module.js';
import { IdempotencyModule } from '#core/idempotency/idempotency.module.js';
import { IdempotencyService } from '#core/idempotency/idempotency.service.js';
import { StatementFailedError } from '#database/statement-failed-error.js';
import { DomainError } from '#core/errors/domain-error.js';
import { startTestContext, type TestContext } from '../../utils/test-context.js';
import { createTenant } from '../../utils/tenant-factory.js';

let context: TestContext;
let apiKeyId: string;
beforeAll(async () => {
  context = await startTestContext({ imports: [BusinessesModule, ApiKeysModule, IdempotencyModule] });
  const tenant = await createTenant();
  const rows = await context.sql.query<{ id: string }[]>('SELECT id FROM api_keys WHERE prefix = $1', [tenant.prefix]);
  apiKeyId = rows[0].id;
});
afterAll(() => context.close());

const deadlock = () =>
  new StatementFailedError('change_appointment_status', Object.assign(new Error('deadlock detected'), { code: '40P01' }));

describe('IdempotencyService', () => {
  it('runs a write that lost a deadlock again, and stores one response', async () => {
    const service = context.app.get(IdempotencyService);
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
    const service = context.app.get(IdempotencyService);
    const request = { apiKeyId, idempotencyKey: randomUUID(), fingerprint: 'POST /x def' };
    let runs = 0;
    await expect(
      service.execute(request, () => {
        runs += 1;
        return Promise.reject(deadlock());
      }),
    ).rejects.toBeInstanceOf(StatementFailedError);
    expect(runs).toBe(3);
    const stored = await context.sql.query('SELECT 1 FROM idempotency_records WHERE idempotency_key = $1', [request.idempotencyKey]);
    expect(stored).toHaveLength(0);
  });

  it('lets a duplicate that waited for the key run the write itself when the first failed, keeping the lock through its refusal', async () => {
    const service = context.app.get(IdempotencyService);
    const request = { apiKeyId, idempotencyKey: randomUUID(), fingerprint: 'POST /x ghi' };
    const refusal = { status: 409, contentType: 'application/problem+json', body: '{"code":"SLOT_TAKEN"}' };
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let firstStarted!: () => void;
    const started = new Promise<void>((resolve) => (firstStarted = resolve));
    const first = service.execute(request, async () => {
      firstStarted();
      await gate;
      throw new Error('boom');
    });
    await started;
    let secondRuns = 0;
    const second = service.execute(request, () => {
      secondRuns += 1;
      return Promise.resolve({ response: refusal, keepWrites: false });
    });
    // The second is waiting for the key's lock, not running its write.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(secondRuns).toBe(0);
    release();
    await expect(first).rejects.toThrow('boom');
    expect(await second).toEqual({ response: refusal, replayed: false });
    expect(secondRuns).toBe(1);

    const third = await service.execute(request, () => Promise.reject(new Error('must replay, not run')));
    expect(third).toEqual({ response: refusal, replayed: true });
    const stored = await context.sql.query('SELECT 1 FROM idempotency_records WHERE idempotency_key = $1', [request.idempotencyKey]);
    expect(stored).toHaveLength(1);
  });
});

/** A write that waits until released, and says when it has started. */
function heldWrite(answer: { status: number; contentType: string; body: string }) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let began!: () => void;
  const started = new Promise<void>((resolve) => (began = resolve));
  const write = async () => {
    began();
    await gate;
    return { response: answer, keepWrites: true };
  };
  return { write, started, release };
}

describe('IdempotencyService.executeOutsideTransaction (docs/design-record.md#d24)', () => {
  const count = async (table: 'idempotency_claims' | 'idempotency_records', key: string) =>
    Number((await context.sql.query<{ n: string }[]>(`SELECT count(*) AS n FROM ${table} WHERE idempotency_key = $1`, [key]))[0].n);
  const answer = (body: string) => ({ status: 201, contentType: 'application/json', body });

  it('replays the answer another stored under the key while its claim had lapsed, and leaves no claim', async () => {
    const service = context.app.get(IdempotencyService);
    const request = { apiKeyId, idempotencyKey: randomUUID(), fingerprint: 'POST /y abc' };
    const first = heldWrite(answer('{"run":1}'));
    const running = service.executeOutsideTransaction(request, first.write);
    await first.started;
    // The first write outlives its claim: the same request takes the key again and stores its answer.
    await context.sql.query("UPDATE idempotency_claims SET expires_at = now() - interval '1 second' WHERE idempotency_key = $1", [
      request.idempotencyKey,
    ]);
    const second = await service.executeOutsideTransaction(request, () =>
      Promise.resolve({ response: answer('{"run":2}'), keepWrites: true }),
    );
    expect(second).toEqual({ response: answer('{"run":2}'), replayed: false });

    first.release();
    expect(await running).toEqual({ response: answer('{"run":2}'), replayed: true });
    expect(await count('idempotency_records', request.idempotencyKey)).toBe(1);
    expect(await count('idempotency_claims', request.idempotencyKey)).toBe(0);
  });

  it('refuses the key when another request stored its answer under it meanwhile, and leaves no claim', async () => {
    const service = context.app.get(IdempotencyService);
    const request = { apiKeyId, idempotencyKey: randomUUID(), fingerprint: 'POST /y def' };
    const first = heldWrite(answer('{"run":1}'));
    const running = service.executeOutsideTransaction(request, first.write);
    await first.started;
    const other = { ...request, fingerprint: 'POST /z def' };
    await service.execute(other, () => Promise.resolve({ response: answer('{"other":true}'), keepWrites: true }));

    first.release();
    const refused = await running.then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await count('idempotency_records', request.idempotencyKey)).toBe(1);
    expect(await count('idempotency_claims', request.idempotencyKey)).toBe(0);
  });

  it('gives the key back when the write throws, so that the same request runs again, and stores a refusal with no claim left', async () => {
    const service = context.app.get(IdempotencyService);
    const request = { apiKeyId, idempotencyKey: randomUUID(), fingerprint: 'POST /y ghi' };
    await expect(service.executeOutsideTransaction(request, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await count('idempotency_claims', request.idempotencyKey)).toBe(0);
    expect(await count('idempotency_records', request.idempotencyKey)).toBe(0);

    const refusal = { status: 404, contentType: 'application/problem+json', body: '{"code":"NOT_FOUND"}' };
    const refused = await service.executeOutsideTransaction(request, () => Promise.resolve({ response: refusal, keepWrites: false }));
    expect(refused).toEqual({ response: refusal, replayed: false });
    expect(await count('idempotency_claims', request.idempotencyKey)).toBe(0);
    const replay = await service.executeOutsideTransaction(request, () => Promise.reject(new Error('must replay, not run')));
    expect(replay).toEqual({ response: refusal, replayed: true });
  });
});
