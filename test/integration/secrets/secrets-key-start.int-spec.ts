import { jest } from '@jest/globals';
import { Test } from '@nestjs/testing';
import { createApiApp } from '#api/configure-app.js';
import { ConfigError, type AppConfig } from '#config/app-config.js';
import { parseSecretsKeys } from '#config/secrets-keys.js';
import { keyCheckValue } from '#core/secrets/key-check-value.js';
import { SecretsModule } from '#core/secrets/secrets.module.js';
import { NoticeDeliveryProcessor } from '#jobs/processors/notices/notice-delivery.processor.js';
import { WorkerModule } from '#worker/worker.module.js';
import { runAdminCommand } from '../../utils/admin-runner.js';
import { seed } from '../../utils/seed.js';
import { testConfig } from '../../utils/test-config.js';
import { startTestContext, type TestContext } from '../../utils/test-context.js';

/**
 * SECRETS_KEY checked against the database at the start of every process that seals or opens a
 * stored secret (docs/design-record.md#d25): the API, the worker and the admin commands.
 */
const RUN_KEY = testConfig().SECRETS_KEY;
/** Fixed keys (the check values they record stay valid for the whole run). */
const KEY_A = Buffer.alloc(32, 0xa1).toString('base64');
const KEY_B = Buffer.alloc(32, 0xb2).toString('base64');
const withKeys = (SECRETS_KEY: string): AppConfig => testConfig({ SECRETS_KEY });

let context: TestContext;

async function checkValues(): Promise<Record<string, string>> {
  const rows = await context.sql.query<{ key_id: string; check_value: string }[]>('SELECT key_id, check_value FROM secrets_key_checks');
  return Object.fromEntries(rows.map((row) => [row.key_id, row.check_value]));
}

/** The refusal the API's start gives (main.ts prints a ConfigError's message and exits 1), or null when it starts. */
async function apiStart(config: AppConfig): Promise<Error | null> {
  const app = await createApiApp(config);
  try {
    await app.init();
    return null;
  } catch (error) {
    return error as Error;
  } finally {
    await app.close();
  }
}

/** The same for the worker (its main.ts does the same with a ConfigError). */
async function workerStart(config: AppConfig): Promise<Error | null> {
  const moduleRef = await Test.createTestingModule({ imports: [WorkerModule.forRoot(config)] }).compile();
  moduleRef.useLogger(false);
  try {
    await moduleRef.init();
    return null;
  } catch (error) {
    return error as Error;
  } finally {
    await moduleRef.close();
  }
}

beforeAll(async () => {
  // Started with the run's key: its check value is recorded (if no earlier suite did).
  context = await startTestContext({ imports: [SecretsModule] });
});

afterAll(() => context.close());

describe('SECRETS_KEY at start (docs/design-record.md#d25)', () => {
  it('refuses to start the API, the worker and admin commands when a key id is given another key than the one that sealed under it', async () => {
    const recorded = await checkValues();
    expect(recorded.test1).toBe(keyCheckValue(parseSecretsKeys(RUN_KEY)[0]));
    const business = await seed({});
    const wrong = withKeys(`test1:${KEY_A}`);

    // Refused before the worker takes a job: its delivery processor never starts.
    const processorStarts = jest.spyOn(NoticeDeliveryProcessor.prototype, 'onModuleInit');
    const workerRefusal = await workerStart(wrong);
    expect(processorStarts).not.toHaveBeenCalled();
    processorStarts.mockRestore();
    for (const refusal of [await apiStart(wrong), workerRefusal]) {
      expect(refusal).toBeInstanceOf(ConfigError);
      expect(refusal!.message).toMatch(/^SECRETS_KEY gives the key id "test1" a key that is not the one that sealed under that id/);
      expect(refusal!.message).toMatch(/admin secrets re-encrypt/);
      expect(refusal!.message).not.toContain('\n');
    }
    const listed = await runAdminCommand(['webhook', 'list', '--business', business.slug], wrong);
    expect(listed.code).toBe(1);
    expect(listed.error).toEqual({ code: 'CONFIG_INVALID', detail: expect.stringMatching(/the key id "test1"/) });
    // migrate opens nothing, and runs before the table of check values exists: not checked.
    expect((await runAdminCommand(['migrate'], wrong)).code).toBe(0);

    // Nothing was recorded from the wrong key, and the right one still starts.
    expect(await checkValues()).toEqual(recorded);
    expect(await apiStart(testConfig())).toBeNull();
    expect(await workerStart(testConfig())).toBeNull();
  });

  it('records the check value of a new current key id at its first start; another key under that id is then refused', async () => {
    const first = withKeys(`fresh-1:${KEY_A},${RUN_KEY}`);
    expect(await workerStart(first)).toBeNull();
    expect((await checkValues())['fresh-1']).toBe(keyCheckValue({ id: 'fresh-1', key: Buffer.from(KEY_A, 'base64') }));

    const refusal = await apiStart(withKeys(`fresh-1:${KEY_B},${RUN_KEY}`));
    expect(refusal?.message).toMatch(/the key id "fresh-1" a key that is not the one/);

    // Nothing sealed under it: a start without it retires the id (its check value is dropped).
    expect(await apiStart(testConfig())).toBeNull();
    expect(await checkValues()).not.toHaveProperty('fresh-1');
  });

  it('refuses to start while values are sealed under a key id SECRETS_KEY does not hold, naming it and the remedy', async () => {
    const business = await seed({});
    // An endpoint made while "old-1" was the current key.
    const oldKeys = withKeys(`old-1:${KEY_B},${RUN_KEY}`);
    const created = await runAdminCommand(
      ['webhook', 'create', '--business', business.slug, '--url', 'https://127.0.0.1/old', '--events', 'client.created'],
      oldKeys,
    );
    expect(created.code).toBe(0);

    // "old-1" dropped from SECRETS_KEY without running re-encrypt first.
    const refusal = await apiStart(testConfig());
    expect(refusal).toBeInstanceOf(ConfigError);
    expect(refusal!.message).toMatch(
      /^Values stored in the database .* are sealed under the key id "old-1", which SECRETS_KEY does not hold/,
    );
    expect(refusal!.message).toContain('SECRETS_KEY=test1:<current key>,old-1:<its key>');
    expect(refusal!.message).toContain('`admin secrets re-encrypt`');
    expect((await workerStart(testConfig()))?.message).toMatch(/"old-1"/);
    const listed = await runAdminCommand(['webhook', 'list', '--business', business.slug]);
    expect(listed.error.code).toBe('CONFIG_INVALID');
    expect(listed.error.detail).toMatch(/"old-1"/);

    // The remedy: the old key back after the current one, re-encrypt, then without it.
    const remedy = withKeys(`${RUN_KEY},old-1:${KEY_B}`);
    expect(await apiStart(remedy)).toBeNull();
    const resealed = await runAdminCommand(['secrets', 're-encrypt'], remedy);
    expect(resealed.code).toBe(0);
    expect(resealed.json.resealed).toBeGreaterThanOrEqual(1);
    expect(await apiStart(testConfig())).toBeNull();
    const listedAfter = await runAdminCommand(['webhook', 'list', '--business', business.slug]);
    expect(listedAfter.code).toBe(0);
    expect(listedAfter.json.webhooks).toHaveLength(1);
    expect(await checkValues()).not.toHaveProperty('old-1');
  });
});
