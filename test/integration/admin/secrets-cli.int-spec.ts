import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { SecretsCipher } from '#core/secrets/secrets-cipher.js';
import { runAdminCommand } from '../../utils/admin-runner.js';
import { seed } from '../../utils/seed.js';
import { testConfig } from '../../utils/test-config.js';

/** `admin secrets re-encrypt` (docs/operations-interface.md): webhook secrets sealed under SECRETS_KEY's first key. */
describe('admin secrets re-encrypt', () => {
  const config = testConfig();
  const db = new pg.Client({ connectionString: config.DATABASE_URL });
  beforeAll(() => db.connect());
  afterAll(() => db.end());

  it('seals plain secrets of older rows and those of a retiring key under the new key; the secrets stay the same', async () => {
    const salon = await seed({
      webhooks: [
        { ref: 'plain', url: 'https://hooks.example/plain', events: ['appointment.created'] },
        { ref: 'old', url: 'https://hooks.example/old', events: ['appointment.created'] },
      ],
    });
    const { plain, old } = salon.webhooks;
    // A row written before secrets were encrypted holds the secret itself.
    await db.query('UPDATE webhook_endpoints SET secret = $2 WHERE id = $1', [plain.id, plain.secret]);

    const rotated = testConfig({ SECRETS_KEY: `k2:${randomBytes(32).toString('base64')},${config.SECRETS_KEY}` });
    const first = await runAdminCommand(['secrets', 're-encrypt'], rotated);
    expect(first.code).toBe(0);
    expect(first.json.keyId).toBe('k2');
    expect(first.json.resealed).toBeGreaterThanOrEqual(2);

    const cipher = new SecretsCipher(rotated);
    const { rows } = await db.query<{ id: string; secret: string }>('SELECT id, secret FROM webhook_endpoints WHERE id = ANY($1)', [
      [plain.id, old.id],
    ]);
    for (const row of rows) {
      expect(row.secret).toMatch(/^v1:k2:/);
      expect(cipher.open(row.secret, row.id)).toBe(row.id === plain.id ? plain.secret : old.secret);
    }
    // Nothing left to do; the new key alone now opens them.
    expect((await runAdminCommand(['secrets', 're-encrypt'], rotated)).json.resealed).toBe(0);
    const onlyNew = new SecretsCipher(testConfig({ SECRETS_KEY: rotated.SECRETS_KEY.split(',')[0] }));
    for (const row of rows) expect(onlyNew.open(row.secret, row.id)).toMatch(/^whsec_/);

    // Put back under the run's key, so the other tests' processes still open every row.
    expect(
      (
        await runAdminCommand(
          ['secrets', 're-encrypt'],
          testConfig({ SECRETS_KEY: `${config.SECRETS_KEY},${rotated.SECRETS_KEY.split(',')[0]}` }),
        )
      ).code,
    ).toBe(0);
  });

  it('passes over a secret that does not open, naming its endpoint, and reseals the others', async () => {
    const salon = await seed({
      webhooks: [
        { ref: 'damaged', url: 'https://hooks.example/damaged', events: ['appointment.created'] },
        { ref: 'sound', url: 'https://hooks.example/sound', events: ['appointment.created'] },
      ],
    });
    const { damaged, sound } = salon.webhooks;
    await db.query('UPDATE webhook_endpoints SET secret = $2 WHERE id = $1', [
      damaged.id,
      `v1:test1:${randomBytes(60).toString('base64url')}`,
    ]);
    const keyOf = (fill: number) => Buffer.alloc(32, fill).toString('base64');
    try {
      const rotated = testConfig({ SECRETS_KEY: `k3:${keyOf(0x33)},${config.SECRETS_KEY}` });
      const run = await runAdminCommand(['secrets', 're-encrypt'], rotated);
      expect(run.code).toBe(0);
      // Other suites' damaged rows may be named too.
      expect(run.json.unopenable).toContain(damaged.id);
      expect(run.json.unopenable).not.toContain(sound.id);
      const { rows } = await db.query<{ id: string; secret: string }>('SELECT id, secret FROM webhook_endpoints WHERE id = ANY($1)', [
        [damaged.id, sound.id],
      ]);
      const byId = Object.fromEntries(rows.map((row) => [row.id, row.secret]));
      expect(byId[damaged.id]).toMatch(/^v1:test1:/);
      expect(new SecretsCipher(rotated).open(byId[sound.id], sound.id)).toBe(sound.secret);
    } finally {
      await db.query('DELETE FROM webhook_endpoints WHERE id = $1', [damaged.id]);
      // Put back under the run's key, as above.
      const back = await runAdminCommand(['secrets', 're-encrypt'], testConfig({ SECRETS_KEY: `${config.SECRETS_KEY},k3:${keyOf(0x33)}` }));
      expect(back.code).toBe(0);
    }
  });

  it('matches key ids exactly: values under "k-1" are resealed when the current key is "k_1" (`_` is no wildcard)', async () => {
    const salon = await seed({ webhooks: [{ ref: 'hook', url: 'https://hooks.example/exact', events: ['appointment.created'] }] });
    const keyOf = (fill: number) => Buffer.alloc(32, fill).toString('base64');
    // Every secret under "k-1"; then "k_1" becomes the current key. The run's key stays in the
    // list: other suites' stored answers may be sealed under it.
    const underDash = testConfig({ SECRETS_KEY: `k-1:${keyOf(0x11)},${config.SECRETS_KEY}` });
    expect((await runAdminCommand(['secrets', 're-encrypt'], underDash)).code).toBe(0);
    const underscore = testConfig({ SECRETS_KEY: `k_1:${keyOf(0x22)},k-1:${keyOf(0x11)},${config.SECRETS_KEY}` });
    const run = await runAdminCommand(['secrets', 're-encrypt'], underscore);
    expect(run.code).toBe(0);
    expect(run.json.keyId).toBe('k_1');
    expect(run.json.resealed).toBeGreaterThanOrEqual(1);
    // Every secret but those that do not open (other suites' damaged rows) is now under "k_1".
    const { rows } = await db.query<{ id: string }>(
      'SELECT id FROM webhook_endpoints WHERE NOT starts_with(secret, $1) AND NOT id = ANY($2)',
      ['v1:k_1:', run.json.unopenable],
    );
    expect(rows).toEqual([]);
    const { rows: hook } = await db.query<{ id: string; secret: string }>('SELECT id, secret FROM webhook_endpoints WHERE id = $1', [
      salon.webhooks.hook.id,
    ]);
    expect(new SecretsCipher(underscore).open(hook[0].secret, hook[0].id)).toBe(salon.webhooks.hook.secret);

    // Put back under the run's key, as above.
    const back = testConfig({ SECRETS_KEY: `${config.SECRETS_KEY},k_1:${keyOf(0x22)}` });
    expect((await runAdminCommand(['secrets', 're-encrypt'], back)).code).toBe(0);
  });
});
