import { randomUUID } from 'node:crypto';
import type { BusinessRefMap, FixtureAdditions, FixtureBusiness } from '#core/fixtures/fixture-file.js';
import { FixturesService } from '#core/fixtures/fixtures.service.js';
import type { NoticeBody } from '#core/notices/outbox/notice-body.js';
import type { ServedNoticeType } from '#core/notices/outbox/notice-types.js';
import { SCOPES, type Scope } from '#core/scopes/scope.js';
import { recordNotice } from './notice-setup.js';
import { startTestContext, type TestContext } from './test-context.js';

/** A business of the fixture format, every field optional: seed() fills in the rest. */
export interface SeedBusiness extends Partial<Omit<FixtureBusiness, 'ref'>> {
  /** Scopes of the default owner's key (ref `owner`); default every scope. Ignored when `keys` is given. */
  scopes?: Scope[];
}

export interface SeededBusiness extends BusinessRefMap {
  /** The e-mail of the default owner (member and key ref `owner`); null when `members` was given. */
  ownerEmail: string | null;
}

/**
 * The one way tests create data: a business entry of the fixture file (docs/operations-interface.md), loaded by
 * the fixture loader of `admin fixtures load` (its validation, its row factories, one
 * transaction). Defaults: a slug no other test uses, a TEAM salon in Lisbon, and unless `members`
 * is given an owner (ref `owner`) with a key (ref `owner`) of `scopes`. `{ members: [] }` is a
 * bare business. Returns what each ref became.
 *
 * The loader runs in an admin application of its own, started at the first seed of a test file
 * and closed after the file: the API's application has no loader, and booting one per business
 * would cost a second each. `settings` seed another database (a private PostgreSQL), in an
 * application closed at once.
 */
export async function seed(business: SeedBusiness = {}, settings: Record<string, string> = {}): Promise<SeededBusiness> {
  const { scopes, ...fields } = business;
  // A field given as undefined keeps its default.
  const given = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Omit<SeedBusiness, 'scopes'>;
  const slug = given.slug ?? `seed-${randomUUID().slice(0, 12)}`;
  const ownerEmail = given.members === undefined ? `owner@${slug}.example` : null;
  const entry: FixtureBusiness = {
    name: 'Salon Test',
    timezone: 'Europe/Lisbon',
    country: 'PT',
    currency: 'EUR',
    locale: 'pt-PT',
    plan: 'TEAM',
    ...given,
    ref: 'business',
    slug,
    members: given.members ?? [{ ref: 'owner', name: 'Owner', email: ownerEmail!, role: 'OWNER' }],
    keys: given.keys ?? (ownerEmail === null ? [] : [{ ref: 'owner', member: 'owner', name: 'Test key', scopes: scopes ?? SCOPES }]),
  };
  const load = async (context: TestContext) => (await context.app.get(FixturesService).load({ businesses: [entry] })).businesses.business;
  if (Object.keys(settings).length === 0) return { ...(await load(await testDatabaseSeeder())), ownerEmail };
  // Another server (a private PostgreSQL the test stops and starts) keeps no connection of ours.
  const context = await startTestContext({ app: 'admin', config: settings });
  try {
    return { ...(await load(context)), ownerEmail };
  } finally {
    await context.close();
  }
}

/**
 * Adds entries (services, staff, clients, appointments, payments, sales) to a business seeded
 * before, through the same loader (`FixturesService.extend`): the new entries may name the earlier
 * ones by ref. Returns the business with every ref, earlier and new. How a test adds rows in the
 * middle of a walk through a list.
 */
export async function seedMore(business: SeededBusiness, additions: FixtureAdditions): Promise<SeededBusiness> {
  const context = await testDatabaseSeeder();
  return { ...(await context.app.get(FixturesService).extend(business, additions)), ownerEmail: business.ownerEmail };
}

/**
 * A notice in the business's event log, recorded as a write records it (the fixture format makes
 * none: its loads are not changes partners are told about). `settings` as for seed().
 */
export async function seedNotice(
  business: { id: string; slug: string },
  type: ServedNoticeType = 'client.created',
  settings: Record<string, string> = {},
): Promise<NoticeBody> {
  if (Object.keys(settings).length === 0) return recordNotice((await testDatabaseSeeder()).app, business, type);
  // Another server, as seed() does with `settings`.
  const context = await startTestContext({ app: 'admin', config: settings });
  try {
    return await recordNotice(context.app, business, type);
  } finally {
    await context.close();
  }
}

/** The seeding application of this test file on the test database, once started. */
let seeder: Promise<TestContext> | undefined;

function testDatabaseSeeder(): Promise<TestContext> {
  seeder ??= startTestContext({ app: 'admin' });
  return seeder;
}

// Registered when a test file imports this module, so every file closes the seeder it started.
afterAll(async () => {
  const started = seeder;
  seeder = undefined;
  const context = await started?.catch(() => undefined);
  await context?.close();
});
