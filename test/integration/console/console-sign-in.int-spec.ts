import { randomBytes } from 'node:crypto';
import { Module } from '@nestjs/common';
import { ConsoleAuthentication } from '#core/console-auth/console-authentication.js';
import { ConsoleAuthModule } from '#core/console-auth/console-auth.module.js';
import { LINK_REQUESTS_PER_ADDRESS, LINK_REQUESTS_PER_EMAIL, ConsoleLinkLimits } from '#core/console-auth/console-link-limits.js';
import { ConsoleLinkRequests, SIGN_IN_MAILER, type SignInMailer } from '#core/console-auth/console-link-requests.service.js';
import { ConsoleLinks } from '#core/console-auth/console-links.service.js';
import { BusinessesModule } from '#core/businesses/businesses.module.js';
import { RedisModule } from '#core/redis/redis.module.js';
import { runAdminCommand } from '../../utils/admin-runner.js';
import { startTestContext, type TestContext } from '../../utils/test-context.js';
import { uniqueSlug } from '../fixtures/example-fixture.js';

/**
 * The console's sign-in rules (docs/design-record.md#d26) on the real database and Redis: a link
 * signs in once and not after 15 minutes, the page's answer does not depend on the e-mail, link
 * requests are limited per address and per e-mail, and a session ends when idle or too old.
 */
const mailed: { email: string; url: string }[] = [];
const mailer: SignInMailer = {
  send: (email, url) => {
    mailed.push({ email, url });
    return Promise.resolve();
  },
};

@Module({
  imports: [RedisModule, BusinessesModule, ConsoleAuthModule],
  providers: [ConsoleLinkLimits, ConsoleLinkRequests, { provide: SIGN_IN_MAILER, useValue: mailer }],
})
class SignInTestModule {}

let context: TestContext;
let links: ConsoleLinks;
let authentication: ConsoleAuthentication;
let requests: ConsoleLinkRequests;
const BASE = 'http://console.test';
/** The client's address the audit records. */
const ADDRESS = '203.0.113.7';

beforeAll(async () => {
  context = await startTestContext({ imports: [SignInTestModule] });
  links = context.app.get(ConsoleLinks);
  authentication = context.app.get(ConsoleAuthentication);
  requests = context.app.get(ConsoleLinkRequests);
});
afterAll(() => context.close());

/** A business with an OWNER, a PARTNER and a STAFF member, made through the admin command line. */
async function business(plan = 'SOLO'): Promise<{ slug: string; owner: string; partner: string; staff: string }> {
  const slug = uniqueSlug('console');
  const admin = (...argv: string[]) => runAdminCommand(argv, context.config);
  const settings = ['--timezone', 'Europe/Lisbon', '--country', 'PT', '--currency', 'EUR', '--plan', plan];
  expect((await admin('business', 'create', '--slug', slug, '--name', 'Console', ...settings)).code).toBe(0);
  const people = { owner: `owner@${slug}.example`, partner: `partner@${slug}.example`, staff: `staff@${slug}.example` };
  for (const [role, email] of [
    ['OWNER', people.owner],
    ['PARTNER', people.partner],
    ['STAFF', people.staff],
  ]) {
    expect((await admin('business', 'member', 'add', '--business', slug, '--email', email, '--name', role, '--role', role)).code).toBe(0);
  }
  return { slug, ...people };
}

/** An address of its own for each call: the limits' counts in Redis outlive a run, and another run must not meet them. */
const freshAddress = (): string => `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}::1`;
const tokenOf = (url: string): string => new URL(url).searchParams.get('token')!;
const cookieHeaders = (setCookies: string[]): Headers => new Headers({ cookie: setCookies.map((c) => c.split(';')[0]).join('; ') });

describe('sign-in links', () => {
  it('sign an OWNER in once, and never again', async () => {
    const { slug, owner } = await business();
    const link = await links.linkFor(slug, owner.toUpperCase());
    expect(link.email).toBe(owner);
    expect(new URL(link.url).pathname).toBe('/console/sign-in/confirm');

    const first = await authentication.spend(tokenOf(link.url), ADDRESS);
    expect(first).toMatchObject({ signedIn: true, email: owner });
    const second = await authentication.spend(tokenOf(link.url), ADDRESS);
    expect(second).toEqual({ signedIn: false, refusal: 'used-or-unknown-link' });

    const lookup = await authentication.session(cookieHeaders(first.signedIn ? first.setCookies : []));
    expect(lookup.session?.email).toBe(owner);
  });

  it('do not sign in once expired', async () => {
    const { slug, owner } = await business();
    const link = await links.linkFor(slug, owner);
    // What 15 minutes do to the stored link, without waiting for them.
    await context.sql.query(`UPDATE console_verifications SET expires_at = now() - interval '1 second' WHERE value LIKE $1`, [
      `%${owner}%`,
    ]);
    expect(await authentication.spend(tokenOf(link.url), ADDRESS)).toEqual({ signedIn: false, refusal: 'expired-link' });
  });

  it('are stored hashed: the token in the link is nowhere in the table', async () => {
    const { slug, partner } = await business();
    const link = await links.linkFor(slug, partner);
    const rows = await context.sql.query<{ identifier: string }[]>(`SELECT identifier FROM console_verifications WHERE value LIKE $1`, [
      `%${partner}%`,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0].identifier).not.toContain(tokenOf(link.url));
  });

  it('are refused to STAFF and to strangers by the admin command line', async () => {
    const { slug, staff } = await business();
    const refused = await runAdminCommand(['member', 'sign-in-link', '--business', slug, '--email', staff], context.config);
    expect(refused.code).toBe(1);
    expect(refused.error.code).toBe('VALIDATION_FAILED');
    const unknown = await runAdminCommand(['member', 'sign-in-link', '--business', slug, '--email', 'nobody@x.example'], context.config);
    expect(unknown.error.code).toBe('NOT_FOUND');
  });
});

describe('the sign-in page', () => {
  it('answers the same for a member, a STAFF member and an unknown e-mail, and mails only the member', async () => {
    const { owner, staff } = await business();
    const answers = [];
    for (const email of [owner, staff, `nobody-${Date.now()}@nowhere.example`, 'not an e-mail']) {
      const { outcome, sending } = await requests.request(email, freshAddress(), BASE);
      await sending;
      answers.push(outcome);
    }
    expect(answers).toEqual(['accepted', 'accepted', 'accepted', 'accepted']);
    expect(mailed.filter((m) => m.email === owner)).toHaveLength(1);
    expect(mailed.filter((m) => m.email === staff)).toHaveLength(0);
    const url = mailed.find((m) => m.email === owner)!.url;
    expect(url.startsWith(`${BASE}/console/sign-in/confirm?token=`)).toBe(true);
    expect(await authentication.spend(tokenOf(url), ADDRESS)).toMatchObject({ signedIn: true, email: owner });
  });

  it('limits the links one e-mail is sent, whatever the address, known e-mail or not', async () => {
    const { owner } = await business();
    const unknown = `nobody-${Date.now()}@nowhere.example`;
    for (const email of [owner, unknown]) {
      const outcomes = [];
      for (let i = 0; i <= LINK_REQUESTS_PER_EMAIL.limit; i++) outcomes.push((await requests.request(email, freshAddress(), BASE)).outcome);
      expect(outcomes.slice(0, LINK_REQUESTS_PER_EMAIL.limit).every((o) => o === 'accepted')).toBe(true);
      expect(outcomes.at(-1)).toBe('limited');
    }
  });

  it('limits the requests one address makes, whatever the e-mails', async () => {
    const address = freshAddress();
    const outcomes = [];
    for (let i = 0; i <= LINK_REQUESTS_PER_ADDRESS.limit; i++) {
      outcomes.push((await requests.request(`someone-${i}-${Date.now()}@nowhere.example`, address, BASE)).outcome);
    }
    expect(outcomes.slice(0, LINK_REQUESTS_PER_ADDRESS.limit).every((o) => o === 'accepted')).toBe(true);
    expect(outcomes.at(-1)).toBe('limited');
  });
});

describe('sessions', () => {
  async function signedIn(): Promise<{ headers: Headers; owner: string }> {
    const { slug, owner } = await business();
    const spent = await authentication.spend(tokenOf((await links.linkFor(slug, owner)).url), ADDRESS);
    if (!spent.signedIn) throw new Error('not signed in');
    return { headers: cookieHeaders(spent.setCookies), owner };
  }

  it('end after 12 hours without a request', async () => {
    const { headers, owner } = await signedIn();
    expect((await authentication.session(headers)).session?.email).toBe(owner);
    await context.sql.query(
      `UPDATE console_sessions SET expires_at = now() - interval '1 second' WHERE user_id = (SELECT id FROM console_users WHERE email = $1)`,
      [owner],
    );
    expect((await authentication.session(headers)).session).toBeNull();
  });

  it('end 7 days after the sign-in however busy', async () => {
    const { headers, owner } = await signedIn();
    const eightDaysOn = new Date(Date.now() + 8 * 24 * 3_600_000);
    expect((await authentication.session(headers, eightDaysOn)).session).toBeNull();
    // And it is gone, not only refused that once.
    expect((await authentication.session(headers)).session).toBeNull();
    expect(owner).toContain('@');
  });

  it('end at sign-out', async () => {
    const { headers } = await signedIn();
    const cleared = await authentication.signOut(headers, ADDRESS);
    expect(cleared.join('\n')).toMatch(/console_session=;/);
    expect((await authentication.session(headers)).session).toBeNull();
  });

  it('lists only the businesses the e-mail is OWNER or PARTNER of', async () => {
    const first = await business();
    const second = await business('FREE');
    // The first business's owner is also STAFF of the second, and PARTNER of a third.
    const third = await business();
    const admin = (...argv: string[]) => runAdminCommand(argv, context.config);
    await admin('business', 'member', 'add', '--business', second.slug, '--email', first.owner, '--name', 'S', '--role', 'STAFF');
    await admin('business', 'member', 'add', '--business', third.slug, '--email', first.owner, '--name', 'P', '--role', 'PARTNER');
    const slugs = (await links.businessesOf(first.owner)).map((m) => m.slug).sort();
    expect(slugs).toEqual([first.slug, third.slug].sort());
    expect(await links.membershipIn(first.owner, second.slug)).toBeNull();
  });
});

describe('the audit (docs/design-record.md#d29)', () => {
  interface Entry {
    actor: string | null;
    action: string;
    subject: string;
    address: string | null;
  }
  const entriesOf = async (slug: string): Promise<Entry[]> =>
    context.sql.query<Entry[]>(
      `SELECT e.actor_email AS actor, e.action, e.subject, e.address FROM console_audit_entries e
        JOIN businesses b ON b.id = e.business_id WHERE b.slug = $1 ORDER BY e.created_at, e.id`,
      [slug],
    );
  const entriesWithoutBusinessOf = async (actor: string | null, address: string): Promise<Entry[]> =>
    context.sql.query<Entry[]>(
      `SELECT actor_email AS actor, action, subject, address FROM console_audit_entries
        WHERE business_id IS NULL AND actor_email IS NOT DISTINCT FROM $1 AND address = $2 ORDER BY created_at, id`,
      [actor, address],
    );

  it('lists a sign-in and a sign-out with the address, in the business of the member', async () => {
    const { slug, owner } = await business();
    const address = freshAddress();
    const spent = await authentication.spend(tokenOf((await links.linkFor(slug, owner)).url), address);
    if (!spent.signedIn) throw new Error('not signed in');
    await authentication.signOut(cookieHeaders(spent.setCookies), address);
    const entries = (await entriesOf(slug)).filter((entry) => entry.action !== 'member.sign-in-link');
    expect(entries.slice(-2)).toEqual([
      { actor: owner, action: 'sign-in', subject: 'signed in to the console', address },
      { actor: owner, action: 'sign-out', subject: 'signed out of the console', address },
    ]);
  });

  it("lists refused attempts: an expired link in its member's business, a used or malformed one and a stranger's e-mail apart", async () => {
    const { slug, owner, staff } = await business();
    const address = freshAddress();
    const expired = await links.linkFor(slug, owner);
    await context.sql.query(`UPDATE console_verifications SET expires_at = now() - interval '1 second' WHERE value LIKE $1`, [
      `%${owner}%`,
    ]);
    expect(await authentication.spend(tokenOf(expired.url), address)).toEqual({ signedIn: false, refusal: 'expired-link' });
    // What a quoted-printable e-mail made of a link copied as it stood: not a token at all.
    expect(await authentication.spend(`3D${tokenOf(expired.url).slice(0, 20)}=`, address)).toEqual({
      signedIn: false,
      refusal: 'malformed-link',
    });
    const used = tokenOf((await links.linkFor(slug, owner)).url);
    expect(await authentication.spend(used, address)).toMatchObject({ signedIn: true });
    expect(await authentication.spend(used, address)).toEqual({ signedIn: false, refusal: 'used-or-unknown-link' });
    const stranger = `nobody-${randomBytes(4).toString('hex')}@nowhere.example`;
    for (const email of [stranger, staff]) await (await requests.request(email, address, BASE)).sending;

    expect((await entriesOf(slug)).filter((entry) => entry.action === 'sign-in.refused')).toEqual([
      { actor: owner, action: 'sign-in.refused', subject: 'a sign-in link that had expired', address },
      { actor: staff, action: 'sign-in.refused', subject: 'a sign-in link asked for an e-mail that is no owner or partner', address },
    ]);
    expect(await entriesWithoutBusinessOf(null, address)).toEqual([
      { actor: null, action: 'sign-in.refused', subject: 'a sign-in link that is not whole (cut or altered)', address },
      { actor: null, action: 'sign-in.refused', subject: 'a sign-in link already used, or never sent', address },
    ]);
    expect(await entriesWithoutBusinessOf(stranger, address)).toEqual([
      { actor: stranger, action: 'sign-in.refused', subject: 'a sign-in link asked for an e-mail that is no owner or partner', address },
    ]);
  });

  it('lists the changes made with the admin command line, by "operator" from no address', async () => {
    const { slug, owner, partner } = await business();
    const admin = (...argv: string[]) => runAdminCommand(argv, context.config);
    const created = await admin('key', 'create', '--business', slug, '--member', owner, '--name', 'Website', '--scopes', 'services.read');
    expect(created.code).toBe(0);
    const { id, prefix } = created.json as { id: string; prefix: string };
    expect((await admin('key', 'api-version', '--business', slug, '--id', id, '--api-version', '1.2.0')).code).toBe(0);
    expect((await admin('key', 'revoke', '--business', slug, '--id', id)).code).toBe(0);
    expect((await admin('business', 'plan', '--business', slug, '--plan', 'FREE')).code).toBe(0);
    expect((await admin('member', 'sign-in-link', '--business', slug, '--email', partner)).code).toBe(0);

    const byOperator = (await entriesOf(slug)).filter((entry) => entry.actor === 'operator');
    expect(byOperator).toEqual([
      { actor: 'operator', action: 'business.create', subject: `${slug} (SOLO plan)`, address: null },
      { actor: 'operator', action: 'member.add', subject: `${owner} (OWNER)`, address: null },
      { actor: 'operator', action: 'member.add', subject: `${partner} (PARTNER)`, address: null },
      { actor: 'operator', action: 'member.add', subject: `staff@${slug}.example (STAFF)`, address: null },
      { actor: 'operator', action: 'key.create', subject: `Website (${prefix}, live, services.read)`, address: null },
      { actor: 'operator', action: 'key.api-version', subject: `Website (${prefix}) to 1.2.0`, address: null },
      { actor: 'operator', action: 'key.revoke', subject: `${prefix} (${id})`, address: null },
      { actor: 'operator', action: 'business.plan', subject: 'FREE', address: null },
      { actor: 'operator', action: 'member.sign-in-link', subject: partner, address: null },
    ]);
  });
});
