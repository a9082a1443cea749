import { randomUUID } from 'node:crypto';
import { readdir, readFile, mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createApiApp } from '#api/configure-app.js';
import { CONSOLE_CSP } from '#api/console/console-headers.js';
import { ApiKeysService } from '#core/api-keys/api-keys.service.js';
import { ConsoleLinks } from '#core/console-auth/console-links.service.js';
import { loadBookingFixture } from '../factories/booking-fixture.js';
import { REPO_ROOT } from '../utils/child-process.js';
import { launchChromium } from '../utils/chromium.js';
import { eventually } from '../utils/notice-receiver.js';
import { seed } from '../utils/seed.js';
import { testConfig } from '../utils/test-config.js';
import { testSql, type TestSql } from '../utils/test-context.js';

/**
 * The owner's console (docs/design-record.md#d26) as a person uses it: the real API bootstrap on a
 * port, in headless Chromium, with the keyboard-free checks of axe-core on every page at desktop
 * and phone widths. Each test makes its own business, so none depends on another's order.
 * Screenshots of the pages are written to docs/console/.
 */
jest.setTimeout(180_000);

const SCREENSHOTS = join(REPO_ROOT, 'docs', 'console');
const AXE_SOURCE = await readFile(join(REPO_ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

let app: NestExpressApplication;
let browser: Browser;
let baseUrl: string;
let sql: TestSql;
let mailDir: string;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  const port = await freePort();
  mailDir = join(tmpdir(), `console-mail-${randomUUID().slice(0, 8)}`);
  const config = testConfig({
    PORT: String(port),
    // The API alone delivers notices (no worker), and a revoked key is refused at once.
    IN_PROCESS_JOBS: 'true',
    REDIS_URL: '',
    AUTH_CACHE_TTL_MS: '0',
    MAIL_DIR: mailDir,
    WEBHOOK_RETRY_SCHEDULE: '1s,1s',
  });
  app = await createApiApp(config);
  await app.listen(port, '127.0.0.1');
  baseUrl = `http://127.0.0.1:${port}`;
  sql = testSql(app);
  await mkdir(SCREENSHOTS, { recursive: true });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** A fresh browser, as a new visitor: its own cookies. */
async function visitor(): Promise<{ context: BrowserContext; page: Page; cspErrors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
  const page = await context.newPage();
  const cspErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
  });
  return { context, page, cspErrors };
}

/** No axe-core violation at desktop width and at 375 px; the page is put back to desktop width after. */
async function expectAccessible(page: Page, name: string, screenshot = false): Promise<void> {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    // Through the DevTools protocol, not a <script>: the page's policy allows no inline script.
    await page.evaluate(AXE_SOURCE);
    const violations = await page.evaluate<string[]>(
      `axe.run().then((result) => result.violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`,
    );
    expect({ page: name, width, violations }).toEqual({ page: name, width, violations: [] });
    if (width === 375) {
      // Nothing wider than the screen but the tables' own scrolling regions.
      const overflow = await page.evaluate('document.documentElement.scrollWidth > window.innerWidth');
      expect({ page: name, overflow }).toEqual({ page: name, overflow: false });
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  if (screenshot) await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

async function signInWithLink(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/console/sign-in'));
}

const linkFor = async (slug: string, email: string): Promise<string> => (await app.get(ConsoleLinks).linkFor(slug, email)).url;

/** The sign-in link mailed to `email`, from the mail folder (the file transport, as without SMTP_URL). */
async function mailedLink(email: string): Promise<string> {
  return eventually(
    async () => {
      const files = await readdir(mailDir).catch(() => [] as string[]);
      for (const file of files) {
        const text = (await readFile(join(mailDir, file), 'utf8')).replace(/=\r?\n/g, '').replace(/=3D/g, '=');
        if (text.includes(`To: ${email}`)) return /http:\/\/\S+\/console\/sign-in\/confirm\?token=[A-Za-z0-9_-]+/.exec(text)?.[0] ?? null;
      }
      return null;
    },
    30_000,
    `the sign-in e-mail to ${email}`,
  );
}

interface ReceivedNotice {
  type: string;
  id: string;
  business: string;
  mode?: string;
}

/** A local receiver of notices: what arrived, in order, with each one's webhook-id. */
async function startReceiver(): Promise<{
  url: string;
  received: { type: string; id: string; mode?: string }[];
  close: () => Promise<void>;
}> {
  const received: ReceivedNotice[] = [];
  const receiver: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const notice = JSON.parse(body) as { type: string; business: string; mode?: string };
      received.push({ type: notice.type, id: String(req.headers['webhook-id']), business: notice.business, mode: notice.mode });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/notices`,
    received,
    close: () => new Promise<void>((resolve) => receiver.close(() => resolve())),
  };
}

/** A new salon (loadBookingFixture), its owner signed in in a fresh browser. */
async function ownerOfNewSalon() {
  const salon = await loadBookingFixture();
  const owner = `owner@${salon.slug}.example`;
  const { context, page } = await visitor();
  await signInWithLink(page, await linkFor(salon.slug, owner));
  return { salon, owner, context, page };
}

/** Registers an endpoint for appointment.created on the webhooks page open in `page`; its secret is shown once. */
async function registerEndpoint(page: Page, url: string): Promise<void> {
  await page.getByLabel('Address (https)').fill(url);
  await page.getByRole('checkbox', { name: 'appointment.created' }).check();
  await page.getByRole('button', { name: 'Register endpoint' }).click();
  expect(await page.getByLabel('Its signing secret').inputValue()).toMatch(/^whsec_/);
}

const me = (key: string) => fetch(`${baseUrl}/v1/api/me`, { headers: { Authorization: `Bearer ${key}` } });

describe('the owner console in Chromium', () => {
  it('signs an owner in from the e-mailed link, creates, copies, uses, repins and revokes a key, and audits it', async () => {
    const business = await seed({ plan: 'SOLO' });
    const owner = business.ownerEmail!;
    const { context, page, cspErrors } = await visitor();

    const first = await page.goto(`${baseUrl}/console`);
    await page.waitForURL(/\/console\/sign-in$/);
    expect(first?.headers()['content-security-policy']).toBe(CONSOLE_CSP);
    await expectAccessible(page, 'sign-in', true);
    await page.getByLabel('E-mail address').fill(owner.toUpperCase());
    await page.getByRole('button', { name: 'Send me a sign-in link' }).click();
    await page.getByText('If that address belongs to an owner or partner').waitFor();
    await expectAccessible(page, 'link-sent', true);

    await page.goto(await mailedLink(owner));
    await expectAccessible(page, 'confirm', true);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/keys$/);
    // Served over http here, so without the __Host- prefix that https gives it.
    const session = (await context.cookies()).find((cookie) => cookie.name === 'console_session');
    expect({ httpOnly: session?.httpOnly, sameSite: session?.sameSite }).toEqual({ httpOnly: true, sameSite: 'Lax' });
    await expectAccessible(page, 'keys', true);

    await page.getByRole('textbox', { name: 'Name' }).fill('Website');
    await page.getByRole('checkbox', { name: /appointments\.read/ }).check();
    await page.getByRole('checkbox', { name: /services\.read/ }).check();
    await page.getByLabel('API version', { exact: true }).selectOption('1.3.0');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.getByLabel('Your new API key').inputValue();
    expect(key).toMatch(/^rk_live_/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied.').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);
    await expectAccessible(page, 'key-created', true);

    const answer = await me(key);
    expect(answer.status).toBe(200);
    const { key: seen } = (await answer.json()) as { key: { name: string; scopes: { scope: string }[] } };
    expect({ name: seen.name, scopes: seen.scopes.map((s) => s.scope).sort() }).toEqual({
      name: 'Website',
      scopes: ['appointments.read', 'services.read'],
    });

    // Its row: the version changed in place.
    const row = page.getByRole('row', { name: /Website/ });
    await row.getByRole('combobox').selectOption('1.4.0');
    await row.getByRole('button', { name: 'Change' }).click();
    await page.getByText("The key's API version was changed.").waitFor();
    // Used once (GET /me above): its last use is shown, not "Never".
    const used = page.getByRole('row', { name: /Website/ });
    expect(await used.getByRole('cell').nth(6).textContent()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);

    await page
      .getByRole('row', { name: /Website/ })
      .getByRole('link', { name: /Revoke/ })
      .click();
    await expectAccessible(page, 'revoke-confirm', true);
    await page.getByRole('button', { name: 'Revoke the key' }).click();
    await page.getByText('The key was revoked.').waitFor();
    expect((await me(key)).status).toBe(401);

    // A test key, on the sandbox made for it.
    await page.getByRole('textbox', { name: 'Name' }).fill('Tests');
    await page.getByRole('checkbox', { name: /services\.read/ }).check();
    await page.getByRole('checkbox', { name: /clients\.read/ }).check();
    await page.getByRole('radio', { name: /Test/ }).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const testKey = await page.getByLabel('Your new API key').inputValue();
    expect(testKey).toMatch(/^rk_test_/);
    expect((await me(testKey)).status).toBe(200);

    await page.getByRole('link', { name: 'Audit' }).click();
    for (const action of ['key.create', 'key.api-version', 'key.revoke'])
      await expect(page.getByText(action).first().isVisible()).resolves.toBe(true);
    await expect(page.getByRole('cell', { name: owner }).first().isVisible()).resolves.toBe(true);
    await expectAccessible(page, 'audit', true);

    await page.getByRole('link', { name: 'Test mode' }).click();
    await page.getByText(/Sandbox .* made/).waitFor();
    await page.getByRole('button', { name: 'Reset the sandbox' }).click();
    await page.getByText('The sandbox was reset.').waitFor();
    await expectAccessible(page, 'test-mode', true);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are signed out.').waitFor();
    await page.goto(`${baseUrl}/console/b/${business.slug}/keys`);
    await page.waitForURL(/\/console\/sign-in$/);
    expect(cspErrors).toEqual([]);
    await context.close();
  });

  it('registers an endpoint on a local receiver, pings it, sees a booking notice delivered, redelivers it, and rotates, disables, deletes', async () => {
    const { url: receiverUrl, received, close } = await startReceiver();
    try {
      const { salon, context, page } = await ownerOfNewSalon();
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await expectAccessible(page, 'webhooks', true);

      await registerEndpoint(page, receiverUrl);
      await expectAccessible(page, 'webhook-created', true);

      await page.getByRole('link', { name: receiverUrl }).first().click();
      await page.getByRole('button', { name: 'Send a test ping' }).click();
      await page.getByText('Test ping delivered: the endpoint answered 200.').waitFor();
      expect(received.map((n) => n.type)).toContain('webhook.test');

      const booked = await fetch(`${baseUrl}/v1/api/appointments`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${salon.keys[0]}`, 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
        body: JSON.stringify({
          staffId: salon.staff.ana,
          serviceId: salon.services.cut,
          startAt: '2035-03-06T10:00:00Z',
          client: { id: salon.clients.joao },
        }),
      });
      expect(booked.status).toBe(201);
      const created = await eventually(
        () => Promise.resolve(received.find((n) => n.type === 'appointment.created')),
        30_000,
        'the booking notice',
      );

      // The deliveries list shows it once delivered; the page is read again until then.
      // The page is opened again (not reloaded: that would post the ping again) until the delivery shows.
      const endpointPage = page.url().replace(/\/test$/, '');
      await eventually(async () => {
        await page.goto(endpointPage);
        return (await page.getByRole('cell', { name: 'appointment.created' }).count()) > 0;
      }, 30_000);
      await expectAccessible(page, 'webhook-endpoint', true);
      await page
        .getByRole('button', { name: /Redeliver appointment\.created/ })
        .first()
        .click();
      await page.getByText('The notice was queued to be sent again.').waitFor();
      await eventually(() => Promise.resolve(received.filter((n) => n.id === created.id).length >= 2), 30_000, 'the redelivered notice');

      await page.getByRole('button', { name: 'Rotate the secret' }).click();
      expect(await page.getByLabel(/The new signing secret/).inputValue()).toMatch(/^whsec_/);
      await page.getByRole('button', { name: 'Disable' }).click();
      await page.getByText('The endpoint was disabled.').waitFor();
      await page.getByRole('button', { name: 'Enable' }).click();
      await page.getByText('The endpoint was enabled.').waitFor();
      await page.getByRole('link', { name: 'Delete…' }).click();
      await expectAccessible(page, 'webhook-delete-confirm');
      await page.getByRole('button', { name: 'Delete the endpoint' }).click();
      await page.getByText('The endpoint was deleted.').waitFor();
      await context.close();
    } finally {
      await close();
    }
  });

  it("manages the sandbox's endpoints apart from the live ones: a test key's booking notice reaches them, marked test", async () => {
    const { url: receiverUrl, received, close } = await startReceiver();
    try {
      const { salon, owner, context, page } = await ownerOfNewSalon();
      await page.getByRole('link', { name: 'Test mode' }).click();
      await page.getByRole('button', { name: 'Create the sandbox' }).click();
      await page.getByText('The sandbox was created.').waitFor();
      await page.getByRole('link', { name: "The sandbox's webhook endpoints" }).click();

      await registerEndpoint(page, receiverUrl);
      await expectAccessible(page, 'sandbox-webhooks', true);
      await page.getByRole('link', { name: receiverUrl }).first().click();
      await page.getByRole('button', { name: 'Send a test ping' }).click();
      await page.getByText('Test ping delivered: the endpoint answered 200.').waitFor();
      // As a test key's ping says it: the live business's name, in test mode.
      expect(received.find((n) => n.type === 'webhook.test')).toMatchObject({ business: salon.slug, mode: 'test' });

      // A test key's booking lands in the sandbox, and its notice at the sandbox's endpoint only.
      const testKey = await app.get(ApiKeysService).create({
        businessSlug: salon.slug,
        memberEmail: owner,
        name: 'Sandbox bookings',
        scopes: ['services.read', 'appointments.write'],
        test: true,
      });
      const services = (await (
        await fetch(`${baseUrl}/v1/api/services`, { headers: { Authorization: `Bearer ${testKey.key}` } })
      ).json()) as { data: { id: string; name: string }[] };
      const booked = await fetch(`${baseUrl}/v1/api/appointments`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${testKey.key}`, 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
        body: JSON.stringify({
          serviceId: services.data.find((service) => service.name === 'Corte')!.id,
          startAt: '2035-03-06T10:00:00Z',
          client: { name: 'Rita Teste', phone: '+351910000001' },
        }),
      });
      expect(booked.status).toBe(201);
      const notice = await eventually(
        () => Promise.resolve(received.find((n) => n.type === 'appointment.created')),
        30_000,
        "the sandbox booking's notice",
      );
      expect(notice).toMatchObject({ business: salon.slug, mode: 'test' });

      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('heading', { name: 'Endpoints' }).waitFor();
      expect(await page.getByRole('link', { name: receiverUrl }).count()).toBe(0);
      await page.getByRole('link', { name: 'Audit' }).click();
      await expect(page.getByText(`sandbox: ${receiverUrl}`).first().isVisible()).resolves.toBe(true);
      await context.close();
    } finally {
      await close();
    }
  });

  it('lets a member of several businesses pick the one to manage after signing in', async () => {
    const email = `many-${randomUUID().slice(0, 8)}@example.com`;
    const first = await seed({ plan: 'SOLO', members: [{ ref: 'owner', name: 'Many', email, role: 'OWNER' }] });
    const second = await seed({ plan: 'TEAM', members: [{ ref: 'partner', name: 'Many', email, role: 'PARTNER' }] });
    const { context, page } = await visitor();
    await signInWithLink(page, await linkFor(first.slug, email));
    await page.getByRole('heading', { name: 'Your businesses' }).waitFor();
    await expectAccessible(page, 'businesses', true);
    await page.getByRole('listitem').filter({ hasText: second.slug }).getByRole('link').click();
    await page.waitForURL(new RegExp(`/console/b/${second.slug}/keys$`));
    await page.getByText('(PARTNER)').waitFor();
    await context.close();
  });

  it('shows a FREE-plan owner why there are no keys, and offers no way to create one', async () => {
    const business = await seed({ plan: 'FREE', keys: [] });
    const { context, page } = await visitor();
    await signInWithLink(page, await linkFor(business.slug, business.ownerEmail!));
    await page.getByText('The FREE plan has no integrations').waitFor();
    expect(await page.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    await expectAccessible(page, 'keys-free-plan', true);
    // Posted anyway (the form's token taken from another form of the page): refused in words.
    const token = await page.locator('input[name="_csrf"]').first().inputValue();
    const refused = await page.request.post(`${baseUrl}/console/b/${business.slug}/keys`, {
      form: { _csrf: token, name: 'Sneaky', scopes: 'services.read', mode: 'live', apiVersion: '1.4.0' },
    });
    // The status the API answers PLAN_INTEGRATIONS with.
    expect(refused.status()).toBe(402);
    expect(await refused.text()).toContain('The FREE plan has no integrations');
    await context.close();
  });

  it('shows a STAFF member and a signed-out visitor nothing', async () => {
    const business = await seed({ plan: 'TEAM' });
    const staffEmail = `staff-${randomUUID().slice(0, 8)}@${business.slug}.example`;
    await sql.query(`INSERT INTO members (id, business_id, name, email, role) VALUES ($1, $2, 'Staff', $3, 'STAFF')`, [
      randomUUID(),
      business.id,
      staffEmail,
    ]);
    const { context, page } = await visitor();
    const signedOut = await page.goto(`${baseUrl}/console/b/${business.slug}/keys`);
    expect(new URL(signedOut!.url()).pathname).toBe('/console/sign-in');
    expect(await page.content()).not.toContain(business.slug);

    // The STAFF member is told what an owner and a stranger are told, and no link is made for them.
    const answers: string[] = [];
    for (const email of [staffEmail, business.ownerEmail!, `nobody-${randomUUID().slice(0, 8)}@nowhere.example`]) {
      await page.goto(`${baseUrl}/console/sign-in`);
      await page.getByLabel('E-mail address').fill(email);
      await page.getByRole('button', { name: 'Send me a sign-in link' }).click();
      await page.getByText('If that address belongs to an owner or partner').waitFor();
      answers.push(await page.locator('main').innerText());
    }
    expect(new Set(answers).size).toBe(1);
    await expect(app.get(ConsoleLinks).linkFor(business.slug, staffEmail)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });

    // An owner of another business signed in sees nothing of this one.
    const other = await seed({ plan: 'SOLO' });
    await signInWithLink(page, await linkFor(other.slug, other.ownerEmail!));
    const foreign = await page.goto(`${baseUrl}/console/b/${business.slug}/keys`);
    expect(foreign!.status()).toBe(404);
    await page.getByText('There is no business of yours at this address.').waitFor();
    await context.close();
  });

  it('lets a link sign in once, and not once it has expired', async () => {
    const business = await seed({ plan: 'SOLO' });
    const url = await linkFor(business.slug, business.ownerEmail!);
    const first = await visitor();
    // Opening the link spends nothing: a mail scanner's GET leaves it usable.
    await first.page.goto(url);
    await first.page.goto(url);
    await signInWithLink(first.page, url);
    expect(new URL(first.page.url()).pathname).toMatch(/\/keys$/);

    const second = await visitor();
    await second.page.goto(url);
    await second.page.getByRole('button', { name: 'Sign in' }).click();
    await second.page.getByText('That sign-in link has been used already, or is not one we sent.').waitFor();
    await expectAccessible(second.page, 'link-spent', true);

    const later = await linkFor(business.slug, business.ownerEmail!);
    await sql.query(`UPDATE console_verifications SET expires_at = now() - interval '1 second' WHERE expires_at > now()`);
    await second.page.goto(later);
    await second.page.getByRole('button', { name: 'Sign in' }).click();
    await second.page.getByText('That sign-in link has expired.').waitFor();
    await first.context.close();
    await second.context.close();
  });

  it('refuses a form posted without its token', async () => {
    const business = await seed({ plan: 'SOLO' });
    const { context, page } = await visitor();
    await signInWithLink(page, await linkFor(business.slug, business.ownerEmail!));
    await page.getByRole('textbox', { name: 'Name' }).fill('No token');
    await page.getByRole('checkbox', { name: /services\.read/ }).check();
    await page.evaluate(`document.querySelectorAll('input[name="_csrf"]').forEach((input) => input.remove())`);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Create key' }).click(),
    ]);
    expect(response.status()).toBe(403);
    await page.getByText('This form was not sent from its page in the console').waitFor();
    const keys = await sql.query<{ n: string }[]>(`SELECT count(*) AS n FROM api_keys WHERE name = 'No token'`);
    expect(Number(keys[0].n)).toBe(0);
    await context.close();
  });
});
