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
});
