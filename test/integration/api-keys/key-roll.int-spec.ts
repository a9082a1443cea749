import type { INestApplicationContext } from '@nestjs/common';
import { ApiKeysService, type ApiKeyRoll, type CreatedApiKey } from '#core/api-keys/api-keys.service.js';
import { CONSOLE_KEYS_PER_HOUR, MAX_ACTIVE_KEYS_PER_MODE } from '#core/api-keys/key-budget.js';
import { CLOCK, type Clock } from '#core/clock/clock.js';
import { DomainError } from '#core/errors/domain-error.js';
import { seed } from '../../utils/seed.js';
import { startTestContext, type TestContext, type TestSql } from '../../utils/test-context.js';

/**
 * Rolling a key (docs/design-record.md#d29): a new key like the old one, the old one answering until
 * the expiry asked and refused from it, by the service clock, which the tests move instead of waiting.
 */
const HOUR = 60 * 60 * 1000;
/** Real time, moved by `offsetMs`, or held at `heldAt`. */
const clock: Clock & { offsetMs: number; heldAt?: Date } = {
  offsetMs: 0,
  now: () => clock.heldAt ?? new Date(Date.now() + clock.offsetMs),
};

let context: TestContext;
let app: INestApplicationContext;
let sql: TestSql;

beforeAll(async () => {
  context = await startTestContext({ app: 'admin', providers: [[CLOCK, clock]] });
  app = context.app;
  sql = context.sql;
});
afterAll(() => context.close());
afterEach(() => {
  clock.offsetMs = 0;
});

const keys = () => app.get(ApiKeysService);

async function refusal(work: Promise<unknown>): Promise<DomainError> {
  try {
    await work;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('the roll was not refused');
}

interface Salon {
  id: string;
  slug: string;
  owner: string;
  partner: string;
  staff: string;
}

/** A TEAM salon with an OWNER, a PARTNER and a STAFF member (their e-mails), no keys. */
async function salon(): Promise<Salon> {
  const emails = { owner: 'owner@roll.example', partner: 'partner@roll.example', staff: 'staff@roll.example' };
  const { id, slug } = await seed({
    members: [
      { ref: 'owner', name: 'Owner', email: emails.owner, role: 'OWNER' },
      { ref: 'partner', name: 'Partner', email: emails.partner, role: 'PARTNER' },
      { ref: 'staff', name: 'Staff', email: emails.staff, role: 'STAFF' },
    ],
  });
  return { id, slug, ...emails };
}

const roll = (business: { slug: string }, id: string, more: Partial<ApiKeyRoll> = {}) =>
  keys().roll({ businessSlug: business.slug, memberEmail: 'partner@roll.example', key: { id }, oldKeyExpiresIn: '1h', ...more });

describe('a roll', () => {
  it.each([
    ['live', false],
    ['test', true],
  ] as const)('makes a %s key with the old name, scopes, version and mode; the old one answers until its expiry', async (mode, test) => {
    const business = await salon();
    const old = await keys().create({
      businessSlug: business.slug,
      memberEmail: business.owner,
      name: 'Zapier',
      scopes: ['services.read', 'appointments.write'],
      apiVersion: '1.3.0',
      test,
    });

    const rolled = await roll(business, old.id, { oldKeyExpiresIn: '1h' });
    expect(rolled).toEqual({
      key: expect.stringMatching(test ? /^rk_test_/ : /^rk_live_/),
      id: expect.any(String),
      prefix: rolled.key.slice(0, 12),
      name: 'Zapier',
      scopes: ['services.read', 'appointments.write'],
      apiVersion: '1.3.0',
      business: business.slug,
      member: business.partner,
      createdAt: expect.any(String),
      mode,
      rolled: { id: old.id, prefix: old.prefix, expiresAt: new Date(Date.parse(rolled.createdAt) + HOUR).toISOString() },
    });
    expect(rolled.id).not.toBe(old.id);
    const [stored] = await sql.query<{ member_email: string; origin: string; expires_at: Date | null }[]>(
      'SELECT m.email AS member_email, k.origin, k.expires_at FROM api_keys k JOIN members m ON m.id = k.member_id WHERE k.id = $1',
      [rolled.id],
    );
    expect(stored).toEqual({ member_email: business.partner, origin: 'admin', expires_at: null });

    const newKey = await keys().authenticate(rolled.key);
    expect(newKey).toMatchObject({ keyName: 'Zapier', scopes: ['services.read', 'appointments.write'], apiVersion: '1.3.0', mode });
    expect(newKey!.businessId).toBe((await keys().authenticate(old.key))!.businessId);

    const listed = () => keys().list(business.slug);
    expect((await listed()).keys.map((k) => [k.id, k.expiresAt])).toEqual([
      [rolled.id, null],
      [old.id, rolled.rolled.expiresAt],
    ]);

    clock.offsetMs = HOUR - 60_000;
    expect(await keys().authenticate(old.key)).not.toBeNull();
    clock.offsetMs = HOUR + 1;
    expect(await keys().authenticate(old.key)).toBeNull();
    expect(await keys().authenticate(rolled.key)).not.toBeNull();
    // No longer active: not listed, and counted no more.
    expect((await listed()).keys.map((k) => k.id)).toEqual([rolled.id]);
  });

  it('with "now" ends the old key at once; an expiry written in the past is refused as well', async () => {
    const business = await salon();
    const old = await keys().create({ businessSlug: business.slug, memberEmail: business.owner, name: 'K', scopes: ['services.read'] });
    const rolled = await roll(business, old.id, { oldKeyExpiresIn: 'now' });
    expect(rolled.rolled.expiresAt).toBe(rolled.createdAt);
    expect(await keys().authenticate(old.key)).toBeNull();
    expect(await keys().authenticate(rolled.key)).not.toBeNull();

    const other = await keys().create({ businessSlug: business.slug, memberEmail: business.owner, name: 'L', scopes: ['services.read'] });
    await sql.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [other.id]);
    expect(await keys().authenticate(other.key)).toBeNull();
  });

  it('of a key already expiring is allowed, and never lengthens its life', async () => {
    const business = await salon();
    const old = await keys().create({ businessSlug: business.slug, memberEmail: business.owner, name: 'K', scopes: ['services.read'] });
    const first = await roll(business, old.id, { oldKeyExpiresIn: '1h' });
    const second = await roll(business, old.id, { oldKeyExpiresIn: '7d' });
    expect(second.rolled.expiresAt).toBe(first.rolled.expiresAt);
    const third = await roll(business, old.id, { oldKeyExpiresIn: 'now' });
    expect(third.rolled.expiresAt).toBe(third.createdAt);
  });

  it('of a revoked or expired key is refused with KEY_NOT_ACTIVE, and makes no key', async () => {
    const business = await salon();
    const make = (name: string) =>
      keys().create({ businessSlug: business.slug, memberEmail: business.owner, name, scopes: ['services.read'] });
    const revoked = await make('Revoked');
    await keys().revoke(business.slug, { id: revoked.id });
    const expired = await make('Expired');
    await sql.query(`UPDATE api_keys SET expires_at = now() - interval '1 minute' WHERE id = $1`, [expired.id]);
    const expiring = await make('Expiring');
    await roll(business, expiring.id, { oldKeyExpiresIn: '1h' });
    clock.offsetMs = HOUR;
    const count = async () =>
      (await sql.query<{ n: number }[]>('SELECT count(*)::int AS n FROM api_keys WHERE business_id = $1', [business.id]))[0].n;
    const before = await count();

    const notRevoked = await refusal(roll(business, revoked.id));
    expect(notRevoked.code).toBe('KEY_NOT_ACTIVE');
    expect(notRevoked.detail).toMatch(new RegExp(`^The key ${revoked.prefix} was revoked at .*; only an active key can be rolled`));
    const notExpired = await refusal(roll(business, expired.id));
    expect(notExpired.code).toBe('KEY_NOT_ACTIVE');
    expect(notExpired.detail).toMatch(new RegExp(`^The key ${expired.prefix} expired at `));
    // Expired by the clock moved past its roll's hour.
    expect((await refusal(roll(business, expiring.id))).code).toBe('KEY_NOT_ACTIVE');
    expect(await count()).toBe(before);
  });

  it('refuses a life it does not offer, a STAFF member, an unknown key and another business’s key', async () => {
    const business = await salon();
    const other = await salon();
    const key = await keys().create({ businessSlug: business.slug, memberEmail: business.owner, name: 'K', scopes: ['services.read'] });
    const life = await refusal(roll(business, key.id, { oldKeyExpiresIn: '2h' }));
    expect(life).toMatchObject({
      code: 'VALIDATION_FAILED',
      fieldErrors: [{ path: '/oldKeyExpiresIn', message: 'must be one of now, 1h, 24h, 7d' }],
    });
    expect((await refusal(roll(business, key.id, { memberEmail: business.staff }))).fieldErrors).toEqual([
      { path: '/member', message: expect.stringMatching(/only an OWNER or PARTNER/) },
    ]);
    expect((await refusal(roll(business, 'not-a-uuid'))).fieldErrors).toEqual([{ path: '/id', message: expect.any(String) }]);
    expect((await refusal(roll(business, '00000000-0000-4000-8000-000000000000'))).code).toBe('NOT_FOUND');
    expect((await refusal(roll(other, key.id))).code).toBe('NOT_FOUND');
    expect(await keys().authenticate(key.key)).not.toBeNull();
  });

  it('by prefix rolls the one active key with it', async () => {
    const business = await salon();
    const key = await keys().create({
      businessSlug: business.slug,
      memberEmail: business.owner,
      name: 'K',
      scopes: ['services.read'],
      test: true,
    });
    const rolled = await keys().roll({
      businessSlug: business.slug,
      memberEmail: business.owner,
      key: { prefix: key.prefix },
      oldKeyExpiresIn: '24h',
    });
    expect(rolled).toMatchObject({ mode: 'test', rolled: { id: key.id, prefix: key.prefix } });
  });
});

describe("a roll's limits, as a creation's (docs/design-record.md#d28)", () => {
  it(`counts the old key while it answers: at ${MAX_ACTIVE_KEYS_PER_MODE} keys only a roll that ends it now is allowed`, async () => {
    const business = await salon();
    const made: CreatedApiKey[] = [];
    for (let i = 0; i < MAX_ACTIVE_KEYS_PER_MODE; i += 1) {
      made.push(
        await keys().create({ businessSlug: business.slug, memberEmail: business.owner, name: `K${i}`, scopes: ['services.read'] }),
      );
    }
    expect((await refusal(roll(business, made[0].id, { oldKeyExpiresIn: '1h' }))).code).toBe('KEY_LIMIT');
    expect((await keys().list(business.slug)).keys.find((k) => k.id === made[0].id)?.expiresAt).toBeNull();
    const rolled = await roll(business, made[0].id, { oldKeyExpiresIn: 'now' });
    expect(await keys().authenticate(made[0].key)).toBeNull();
    expect((await keys().list(business.slug)).keys.map((k) => k.id)).toEqual([
      rolled.id,
      ...made
        .slice(1)
        .reverse()
        .map((k) => k.id),
    ]);
  });

  it(`spends the console's ${CONSOLE_KEYS_PER_HOUR} keys an hour when the console rolls`, async () => {
    const business = await salon();
    const create = (name: string, test: boolean) =>
      keys().create({ businessSlug: business.slug, memberEmail: business.owner, name, scopes: ['services.read'], test, origin: 'console' });
    let last = await create('K0', false);
    for (let i = 1; i < CONSOLE_KEYS_PER_HOUR; i += 1) {
      await keys().revoke(business.slug, { id: last.id });
      last = await create(`K${i}`, i % 2 === 1);
    }
    const refused = await refusal(roll(business, last.id, { origin: 'console' }));
    expect(refused.code).toBe('API_RATE_LIMIT');
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    // The admin command's rolls are not the console's.
    expect((await roll(business, last.id, { origin: 'admin' })).rolled.id).toBe(last.id);
    // An hour later, the console rolls again.
    clock.offsetMs = HOUR + 60_000;
    const later = (await keys().list(business.slug)).keys[0];
    const rolled = await roll(business, later.id, { origin: 'console' });
    const [stored] = await sql.query<{ origin: string }[]>('SELECT origin FROM api_keys WHERE id = $1', [rolled.id]);
    expect(stored.origin).toBe('console');
  });
});

describe('the key list', () => {
  it('lists keys made in the same millisecond newest first, as it lists any others', async () => {
    const business = await salon();
    // Every key made at one instant: only their ids (time-ordered) can tell which is newer.
    const instant = new Date();
    clock.heldAt = instant;
    const made: CreatedApiKey[] = [];
    try {
      for (let i = 0; i < 3; i += 1) {
        made.push(
          await keys().create({ businessSlug: business.slug, memberEmail: business.owner, name: `Same ${i}`, scopes: ['services.read'] }),
        );
      }
    } finally {
      clock.heldAt = undefined;
    }
    const listed = (await keys().list(business.slug)).keys;
    expect(listed.map((k) => k.createdAt)).toEqual(made.map(() => instant.toISOString()));
    expect(listed.map((k) => k.id)).toEqual(made.map((k) => k.id).reverse());
  });
});
