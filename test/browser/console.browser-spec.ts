import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createApiApp } from '#api/configure-app.js';
import { CONSOLE_CSP } from '#api/console/console-headers.js';
import { ServedContract } from '#contract/served-contract.js';
import { CURRENT_API_VERSION } from '#contract/versions/api-versions.js';
import { ApiKeysService } from '#core/api-keys/api-keys.service.js';
import { ConsoleLinks } from '#core/console-auth/console-links.service.js';
import { ALL_WEEK } from '../factories/booking-fixture.js';
import { launchChromium } from '../utils/chromium.js';
import { inspect, SCREENSHOTS } from '../utils/page-inspection.js';
import { ContractResponseValidator } from '../utils/contract-response-validator.js';
import { eventually } from '../utils/notice-receiver.js';
import { seed, type SeededBusiness } from '../utils/seed.js';
import { testConfig } from '../utils/test-config.js';
import { testSql, type TestSql } from '../utils/test-context.js';

/**
 * The owner's console (docs/design-record.md#d26, #d29) as a person uses it: the real API bootstrap
 * on a port, in headless Chromium. After every action a reload and the Back button change nothing
 * (the rows are counted in the database) and a secret is gone once its page is left; refused forms
 * keep what was typed with the message beside the field; destructive actions ask first; a rolled
 * key works until its expiry and not after; an edited endpoint is what the API answers. Every page
 * is checked with axe-core at 1280 and 375 px in light and dark, with nothing to act on outside a
 * 375 px screen, in English and Portuguese. Screenshots of the pages go to docs/console/.
 */
jest.setTimeout(300_000);

const contract = new ContractResponseValidator(new ServedContract().published(CURRENT_API_VERSION).document);

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
    // The API alone delivers notices (no worker), and a revoked or expired key is refused at once.
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

type Language = 'en' | 'pt-PT';
const LOCALES: Record<Language, string> = { en: 'en-GB', 'pt-PT': 'pt-PT' };

/** A fresh browser, as a new visitor: its own cookies, and a browser language said explicitly (the fixtures' businesses are pt-PT). */
async function visitor(language: Language = 'en'): Promise<{ context: BrowserContext; page: Page; cspErrors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: LOCALES[language] });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
  const page = await context.newPage();
  const cspErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
  });
  return { context, page, cspErrors };
}

/** Opens a sign-in link and presses its button (whatever the page's language). */
async function signInWithLink(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.locator('main form button[type="submit"]').click();
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

/** A local receiver of notices: what arrived, in order. */
async function startReceiver(): Promise<{
  url: string;
  received: { type: string; business: string; mode?: string }[];
  close: () => Promise<void>;
}> {
  const received: { type: string; business: string; mode?: string }[] = [];
  const receiver: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const notice = JSON.parse(body) as { type: string; business: string; mode?: string };
      received.push({ type: notice.type, business: notice.business, mode: notice.mode });
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

/** A SOLO business (pt-PT, Lisbon) with its owner signed in in a fresh browser. */
async function ownerOfNewBusiness(language: Language = 'en') {
  const business = await seed({ plan: 'SOLO' });
  const owner = business.ownerEmail!;
  const visit = await visitor(language);
  await signInWithLink(visit.page, await linkFor(business.slug, owner));
  return { business, owner, ...visit };
}

/** The rows a console action may make, of the business and its sandbox, counted in the database. */
interface Rows {
  keys: number;
  activeKeys: number;
  sandboxes: number;
  endpoints: number;
  enabledEndpoints: number;
  deliveries: number;
  attempts: number;
  audit: number;
}

async function rowsOf(business: { id: string }): Promise<Rows> {
  const [row] = await sql.query<Record<keyof Rows, string>[]>(
    `WITH owners AS (SELECT id FROM businesses WHERE id = $1 OR live_business_id = $1)
     SELECT (SELECT count(*) FROM api_keys WHERE business_id IN (SELECT id FROM owners)) AS keys,
            (SELECT count(*) FROM api_keys WHERE business_id IN (SELECT id FROM owners) AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())) AS "activeKeys",
            (SELECT count(*) FROM businesses WHERE live_business_id = $1) AS sandboxes,
            (SELECT count(*) FROM webhook_endpoints WHERE business_id IN (SELECT id FROM owners)) AS endpoints,
            (SELECT count(*) FROM webhook_endpoints WHERE business_id IN (SELECT id FROM owners) AND enabled) AS "enabledEndpoints",
            (SELECT count(*) FROM notice_deliveries WHERE business_id IN (SELECT id FROM owners)) AS deliveries,
            (SELECT count(*) FROM delivery_attempts a JOIN notice_deliveries d ON d.id = a.delivery_id WHERE d.business_id IN (SELECT id FROM owners)) AS attempts,
            (SELECT count(*) FROM console_audit_entries WHERE business_id = $1) AS audit`,
    [business.id],
  );
  return Object.fromEntries(Object.entries(row).map(([name, count]) => [name, Number(count)])) as unknown as Rows;
}

/**
 * Post/Redirect/Get (docs/design-record.md#d29), after an action whose result page is open: a
 * reload and the Back button change no row (and send no further notice), and a secret shown on
 * the result page is not on it once reloaded, nor on the page Back leads to. Leaves the page where
 * the action led.
 */
async function reloadAndBackChangeNothing(
  page: Page,
  business: { id: string },
  opts: { secret?: string; received?: unknown[] } = {},
): Promise<Rows> {
  const rows = await rowsOf(business);
  const notices = opts.received?.length;
  const at = page.url();
  if (opts.secret) expect(await page.content()).toContain(opts.secret);
  await page.reload();
  expect(await rowsOf(business)).toEqual(rows);
  if (opts.secret) {
    expect(await page.locator('#shown-once').count()).toBe(0);
    expect(await page.content()).not.toContain(opts.secret);
  }
  await page.goBack();
  expect(await rowsOf(business)).toEqual(rows);
  if (opts.secret) expect(await page.content()).not.toContain(opts.secret);
  expect(opts.received?.length).toBe(notices);
  await page.goto(at);
  return rows;
}

const me = (key: string) => fetch(`${baseUrl}/v1/api/me`, { headers: { Authorization: `Bearer ${key}` } });

/** A GET of the API, its answer checked against the current contract as the e2e tests check every answer. */
async function contractGet(path: string, key: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${baseUrl}/v1/api${path}`, { headers: { Authorization: `Bearer ${key}` } });
  const text = await res.text();
  const headers = Object.fromEntries(res.headers.entries());
  expect(contract.check({ method: 'GET', path, status: res.status, headers, text })).toEqual([]);
  return { status: res.status, body: JSON.parse(text) as Record<string, unknown> };
}

const keysPath = (business: { slug: string }) => `${baseUrl}/console/b/${business.slug}/keys`;

/** Creates a key on the open keys page and returns it, as shown once. */
async function createKey(page: Page, name: string, scopes: string[]): Promise<string> {
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  for (const scope of scopes) await page.getByRole('checkbox', { name: new RegExp(scope.replace('.', '\\.')) }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  return page.getByLabel('Your new API key').inputValue();
}

/** The id of the business's key shown with `prefix` (the row's actions link to it). */
async function keyIdOf(business: { id: string }, key: string): Promise<string> {
  const [row] = await sql.query<{ id: string }[]>(
    `SELECT k.id FROM api_keys k JOIN businesses b ON b.id = k.business_id WHERE (b.id = $1 OR b.live_business_id = $1) AND $2 LIKE k.prefix || '%'`,
    [business.id, key],
  );
  return row.id;
}

describe('the owner console in Chromium', () => {
  it('signs an owner in from the e-mailed link; a refused key form keeps its input; a key is created, shown once, repinned, rolled and revoked, each asked first and none repeated by Reload or Back', async () => {
    const business = await seed({ plan: 'SOLO' });
    const owner = business.ownerEmail!;
    const { context, page, cspErrors } = await visitor('en');

    const first = await page.goto(`${baseUrl}/console`);
    await page.waitForURL(/\/console\/sign-in$/);
    expect(first?.headers()['content-security-policy']).toBe(CONSOLE_CSP);
    await inspect(page, 'sign-in', 'sign-in-en');
    await page.getByLabel('E-mail address').fill(owner.toUpperCase());
    await page.getByRole('button', { name: 'Send me a sign-in link' }).click();
    await page.getByText('If that address belongs to an owner or partner').waitFor();
    await inspect(page, 'link sent');

    await page.goto(await mailedLink(owner));
    await inspect(page, 'confirm sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/keys$/);
    // Served over http here, so without the __Host- prefix that https gives it.
    const session = (await context.cookies()).find((cookie) => cookie.name === 'console_session');
    expect({ httpOnly: session?.httpOnly, sameSite: session?.sameSite }).toEqual({ httpOnly: true, sameSite: 'Lax' });
    await reloadAndBackChangeNothing(page, business);

    // Refused: no scope. What was typed stays, the message is beside the scopes.
    const before = await rowsOf(business);
    await page.getByRole('textbox', { name: 'Name' }).fill('Website');
    await page.getByLabel('API version', { exact: true }).selectOption('1.3.0');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.waitForURL(/#create-key$/);
    expect(await page.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('Website');
    expect(await page.getByLabel('API version', { exact: true }).inputValue()).toBe('1.3.0');
    expect(await page.locator('#key-scopes-error').textContent()).toMatch(/^at least one scope is needed/);
    expect(await page.locator('#key-scopes').getAttribute('aria-describedby')).toBe('key-scopes-error');
    expect(await rowsOf(business)).toEqual(before);
    await inspect(page, 'refused key form');
    // Reloaded, the form is empty again: the refusal was shown once.
    await page.reload();
    expect(await page.locator('#key-scopes-error').count()).toBe(0);

    // Created, pinned to 1.3.0, copied, and used.
    await page.getByLabel('API version', { exact: true }).selectOption('1.3.0');
    const key = await createKey(page, 'Website', ['appointments.read', 'services.read']);
    expect(key).toMatch(/^rk_live_/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied.').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);
    await inspect(page, 'key created', 'key-created-en');
    let rows = await reloadAndBackChangeNothing(page, business, { secret: key });
    expect(rows.keys).toBe(before.keys + 1);
    const used = await me(key);
    expect({ status: used.status, version: used.headers.get('api-version') }).toEqual({ status: 200, version: '1.3.0' });

    // The version raised: asked first, then done once.
    const keyId = await keyIdOf(business, key);
    await page.goto(keysPath(business));
    await page.locator(`#version-${keyId}`).selectOption('1.4.0');
    await page.getByRole('button', { name: 'Change… Website' }).click();
    await page.getByRole('button', { name: 'Pin it to 1.4.0' }).waitFor();
    expect(await rowsOf(business)).toEqual(rows);
    await page.getByRole('button', { name: 'Pin it to 1.4.0' }).click();
    await page.getByText('The key Website now answers in version 1.4.0.').waitFor();
    rows = await reloadAndBackChangeNothing(page, business);
    expect(rows.audit).toBeGreaterThan(before.audit);
    expect((await me(key)).headers.get('api-version')).toBe('1.4.0');

    // Lowered: the confirmation says what the partner stops receiving.
    await page.goto(`${keysPath(business)}/${keyId}/api-version?to=1.2.0`);
    await page.getByText('This is an older version: the partner stops receiving what the versions after it added.').waitFor();
    await page.getByText(/^1\.3\.0: staff, availability, webhook endpoints/).waitFor();
    await page.getByText(/^1\.4\.0: metadata on appointments and clients/).waitFor();
    await inspect(page, 'lower version confirmation', 'version-confirm-en');
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL(/\/keys$/);
    expect((await me(key)).headers.get('api-version')).toBe('1.4.0');
    expect(await rowsOf(business)).toEqual(rows);

    // Rolled with 24 hours: both keys work until the old one's expiry, and the old one not after it.
    await page.getByRole('link', { name: 'Roll… Website' }).click();
    await inspect(page, 'roll confirmation', 'roll-confirm-en');
    await page.getByRole('radio', { name: 'In 24 hours' }).check();
    await page.getByRole('button', { name: 'Roll the key' }).click();
    const rolled = await page.getByLabel('Your new API key').inputValue();
    expect(rolled).toMatch(/^rk_live_/);
    rows = await reloadAndBackChangeNothing(page, business, { secret: rolled });
    expect(rows.activeKeys).toBe(before.activeKeys + 2);
    expect((await me(key)).status).toBe(200);
    expect((await me(rolled)).status).toBe(200);
    await page.goto(keysPath(business));
    const oldRow = page.getByRole('row').filter({ hasText: key.slice(0, 12) });
    expect(await oldRow.locator('.warn').textContent()).toMatch(/^Stops working .+ GMT(\+\d+)?$/);
    await sql.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [keyId]);
    expect((await me(key)).status).toBe(401);
    expect((await me(rolled)).status).toBe(200);

    // Rolled "now": the old key is refused at once.
    const rolledId = await keyIdOf(business, rolled);
    await page.goto(`${keysPath(business)}/${rolledId}/roll`);
    await page.getByRole('radio', { name: 'Now' }).check();
    await page.getByRole('button', { name: 'Roll the key' }).click();
    const third = await page.getByLabel('Your new API key').inputValue();
    expect((await me(rolled)).status).toBe(401);
    expect((await me(third)).status).toBe(200);
    await reloadAndBackChangeNothing(page, business, { secret: third });

    // Revoked, asked first.
    await page.goto(keysPath(business));
    await page.getByRole('link', { name: 'Revoke… Website' }).click();
    await page.getByRole('button', { name: 'Revoke the key' }).waitFor();
    await inspect(page, 'revoke confirmation');
    expect((await me(third)).status).toBe(200);
    await page.getByRole('button', { name: 'Revoke the key' }).click();
    await page.getByText('The key Website was revoked.').waitFor();
    expect((await me(third)).status).toBe(401);
    rows = await reloadAndBackChangeNothing(page, business);

    // Every action once in the audit, by the owner.
    await page.getByRole('link', { name: 'Audit' }).click();
    const actions = await page.locator('td[data-label="What"] code').allTextContents();
    expect(actions.filter((action) => action.startsWith('key.')).sort()).toEqual(
      ['key.api-version', 'key.create', 'key.revoke', 'key.roll', 'key.roll'].sort(),
    );
    await expect(page.getByRole('cell', { name: owner }).first().isVisible()).resolves.toBe(true);
    expect(await rowsOf(business)).toEqual(rows);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are signed out.').waitFor();
    await page.goto(keysPath(business));
    await page.waitForURL(/\/console\/sign-in$/);
    expect(cspErrors).toEqual([]);
    await context.close();
  });

  it('refuses endpoint forms with the message beside each field; registers, pings, edits (as the API then answers), rotates, disables, enables and deletes, none repeated by Reload or Back', async () => {
    const { url: receiverUrl, received, close } = await startReceiver();
    try {
      const { business, context, page } = await ownerOfNewBusiness('en');
      const apiKey = business.keys.owner.key;
      await page.getByRole('link', { name: 'Webhooks' }).click();
      const webhooksUrl = page.url();
      const start = await rowsOf(business);

      // Refused: a description of 300 characters and no event, both said beside their fields.
      const long = 'd'.repeat(300);
      await page.getByLabel('Address (https)').fill(receiverUrl);
      await page.getByLabel('Description (optional)').fill(long);
      await page.getByRole('button', { name: 'Register endpoint' }).click();
      await page.waitForURL(/#register-endpoint$/);
      expect(await page.getByLabel('Address (https)').inputValue()).toBe(receiverUrl);
      expect(await page.getByLabel('Description (optional)').inputValue()).toBe(long);
      expect(await page.locator('#endpoint-description-error').textContent()).toBe('must NOT have more than 200 characters');
      expect(await page.locator('#endpoint-events-error').textContent()).toBe('must NOT have fewer than 1 items');
      expect(await page.getByLabel('Description (optional)').getAttribute('aria-invalid')).toBe('true');
      await inspect(page, 'refused endpoint form');

      // Refused: a tab pasted into the description, and an address that is no URI.
      await page.getByLabel('Address (https)').fill('hooks example com');
      await page.getByLabel('Description (optional)').fill('Zapier\tsales');
      await page.getByRole('checkbox', { name: 'appointment.created' }).check();
      await page.getByRole('button', { name: 'Register endpoint' }).click();
      await page.waitForURL(/#register-endpoint$/);
      expect(await page.getByLabel('Description (optional)').inputValue()).toBe('Zapier\tsales');
      expect(await page.getByRole('checkbox', { name: 'appointment.created' }).isChecked()).toBe(true);
      expect(await page.locator('#endpoint-description-error').textContent()).toMatch(
        /^must be one line of text, without control characters/,
      );
      expect(await page.locator('#endpoint-url-error').textContent()).toBe('must match format "uri"');

      // Refused: an address the delivery rules refuse (this test's receiver is http, which the
      // test settings allow; any other scheme is refused), said beside the address.
      await page.getByLabel('Address (https)').fill('ftp://127.0.0.1/notices');
      await page.getByLabel('Description (optional)').fill('Zapier');
      await page.getByRole('button', { name: 'Register endpoint' }).click();
      await page.waitForURL(/#register-endpoint$/);
      expect(await page.locator('#endpoint-url-error').textContent()).toBe(
        'The address is refused: the address must be an http or https URL.',
      );
      expect(await rowsOf(business)).toEqual(start);

      // Registered: its secret shown once.
      await page.getByLabel('Address (https)').fill(receiverUrl);
      await page.getByRole('button', { name: 'Register endpoint' }).click();
      const secret = await page.getByLabel('Its signing secret').inputValue();
      expect(secret).toMatch(/^whsec_/);
      await inspect(page, 'endpoint registered', 'endpoint-registered-en');
      let rows = await reloadAndBackChangeNothing(page, business, { secret, received });
      expect(rows.endpoints).toBe(start.endpoints + 1);
      const endpointUrl = page.url();
      const endpointId = endpointUrl.split('/').pop()!;

      // A test ping, once, whatever Reload and Back do.
      await page.getByRole('button', { name: 'Send a test ping' }).click();
      await page.getByText('Test ping delivered: the endpoint answered 200.').waitFor();
      expect(received.map((n) => n.type)).toEqual(['webhook.test']);
      rows = await reloadAndBackChangeNothing(page, business, { received });
      expect(received).toHaveLength(1);

      // Edited: what the form saved is what the API answers.
      await page.getByRole('link', { name: 'Edit', exact: true }).click();
      await page.getByLabel('Description (optional)').fill('Zapier \u2014 sales \u00e9\u00e7');
      await page.getByRole('checkbox', { name: 'client.created' }).check();
      await page.getByRole('checkbox', { name: 'appointment.created' }).uncheck();
      await page.getByRole('checkbox', { name: 'appointment.cancelled' }).check();
      await inspect(page, 'edit endpoint', 'endpoint-edit-en');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('The endpoint was changed.').waitFor();
      rows = await reloadAndBackChangeNothing(page, business);
      const answered = await contractGet(`/webhook-endpoints/${endpointId}`, apiKey);
      expect(answered).toMatchObject({
        status: 200,
        body: { id: endpointId, url: receiverUrl, description: 'Zapier \u2014 sales \u00e9\u00e7', active: true },
      });
      expect([...(answered.body.events as string[])].sort()).toEqual(['appointment.cancelled', 'client.created']);

      // An edit refused keeps what was typed, beside each field, and changes nothing.
      await page.goto(`${endpointUrl}/edit`);
      await page.getByLabel('Address (https)').fill('https://user:pw@hooks.example.com/x');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.waitForURL(/\/edit#edit-endpoint$/);
      expect(await page.getByLabel('Address (https)').inputValue()).toBe('https://user:pw@hooks.example.com/x');
      expect(await page.locator('#endpoint-url-error').textContent()).toBe(
        'The address is refused: the address must not carry a user name or password.',
      );
      expect((await contractGet(`/webhook-endpoints/${endpointId}`, apiKey)).body.url).toBe(receiverUrl);
      expect(await rowsOf(business)).toEqual(rows);

      // The secret rotated, asked first; the new one shown once.
      await page.goto(endpointUrl);
      await page.getByRole('link', { name: 'Rotate the secret…' }).click();
      await page.getByRole('button', { name: 'Rotate the secret' }).waitFor();
      await inspect(page, 'rotate confirmation', 'rotate-confirm-en');
      expect(await rowsOf(business)).toEqual(rows);
      await page.getByRole('button', { name: 'Rotate the secret' }).click();
      const rotated = await page.getByLabel(/The new signing secret/).inputValue();
      expect(rotated).toMatch(/^whsec_/);
      expect(rotated).not.toBe(secret);
      rows = await reloadAndBackChangeNothing(page, business, { secret: rotated });

      // Disabled and enabled.
      await page.getByRole('button', { name: 'Disable' }).click();
      await page.getByText('The endpoint was disabled.').waitFor();
      rows = await reloadAndBackChangeNothing(page, business);
      expect(rows.enabledEndpoints).toBe(0);
      expect((await contractGet(`/webhook-endpoints/${endpointId}`, apiKey)).body.active).toBe(false);
      await page.getByRole('button', { name: 'Enable' }).click();
      await page.getByText('The endpoint was enabled.').waitFor();
      rows = await reloadAndBackChangeNothing(page, business);
      expect(rows.enabledEndpoints).toBe(1);

      // Deleted, asked first.
      await page.getByRole('link', { name: 'Delete…' }).click();
      await page.getByRole('button', { name: 'Delete the endpoint' }).waitFor();
      await inspect(page, 'delete confirmation');
      expect(await rowsOf(business)).toEqual(rows);
      await page.getByRole('button', { name: 'Delete the endpoint' }).click();
      await page.getByText(`The endpoint ${receiverUrl} was deleted.`).waitFor();
      expect(page.url()).toBe(webhooksUrl);
      rows = await reloadAndBackChangeNothing(page, business);
      expect(rows.endpoints).toBe(start.endpoints);
      expect((await contractGet(`/webhook-endpoints/${endpointId}`, apiKey)).status).toBe(404);

      // Every action once in the audit.
      await page.getByRole('link', { name: 'Audit' }).click();
      const actions = await page.locator('td[data-label="What"] code').allTextContents();
      expect(actions.filter((action) => action.startsWith('webhook.')).sort()).toEqual(
        [
          'webhook.create',
          'webhook.test',
          'webhook.update',
          'webhook.rotate-secret',
          'webhook.disable',
          'webhook.enable',
          'webhook.delete',
        ].sort(),
      );
      await context.close();
    } finally {
      await close();
    }
  });

  it("creates and resets the sandbox (reset asked first), manages the sandbox's endpoints apart, none repeated by Reload or Back", async () => {
    const { url: receiverUrl, received, close } = await startReceiver();
    try {
      const { business, context, page } = await ownerOfNewBusiness('en');
      await page.getByRole('link', { name: 'Test mode' }).click();
      await page.getByRole('button', { name: 'Create the sandbox' }).click();
      await page.getByText('The sandbox was created.').waitFor();
      let rows = await reloadAndBackChangeNothing(page, business);
      expect(rows.sandboxes).toBe(1);

      await page.getByRole('link', { name: "The sandbox's webhook endpoints" }).click();
      await page.getByRole('note').getByText('Test mode.').waitFor();
      await page.getByLabel('Address (https)').fill(receiverUrl);
      await page.getByRole('checkbox', { name: 'appointment.created' }).check();
      await page.getByRole('button', { name: 'Register endpoint' }).click();
      const secret = await page.getByLabel('Its signing secret').inputValue();
      rows = await reloadAndBackChangeNothing(page, business, { secret });
      expect(rows.endpoints).toBe(1);
      await page.getByRole('button', { name: 'Send a test ping' }).click();
      await page.getByText('Test ping delivered: the endpoint answered 200.').waitFor();
      // As a test key's ping says it: the live business's name, in test mode.
      expect(received).toEqual([{ type: 'webhook.test', business: business.slug, mode: 'test' }]);
      rows = await reloadAndBackChangeNothing(page, business, { received });
      // The live list does not show the sandbox's endpoint.
      await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
      expect(await page.getByRole('link', { name: receiverUrl }).count()).toBe(0);

      await page.getByRole('link', { name: 'Test mode' }).click();
      await page.getByRole('link', { name: 'Reset the sandbox…' }).click();
      await page.getByRole('button', { name: 'Reset the sandbox' }).waitFor();
      await inspect(page, 'reset confirmation', 'test-mode-reset-confirm-en');
      expect(await rowsOf(business)).toEqual(rows);
      await page.getByRole('button', { name: 'Reset the sandbox' }).click();
      await page.getByText('The sandbox was reset.').waitFor();
      rows = await reloadAndBackChangeNothing(page, business);
      expect({ sandboxes: rows.sandboxes, endpoints: rows.endpoints }).toEqual({ sandboxes: 1, endpoints: 0 });

      await page.getByRole('link', { name: 'Audit' }).click();
      const actions = await page.locator('td[data-label="What"] code').allTextContents();
      expect(actions.filter((action) => action.startsWith('sandbox.')).sort()).toEqual(['sandbox.create', 'sandbox.reset']);
      await expect(page.getByText(`sandbox: ${receiverUrl}`).first().isVisible()).resolves.toBe(true);
      await context.close();
    } finally {
      await close();
    }
  });

  it.each(['en', 'pt-PT'] as const)(
    'shows every page in %s (html lang, times with their offset), accessible and within 375 px, light and dark',
    async (language) => {
      const { url: receiverUrl, close } = await startReceiver();
      try {
        const { business, owner, context, page } = await ownerOfNewBusiness(language);
        const suffix = language;
        const base = `${baseUrl}/console/b/${business.slug}`;
        const word = (en: string, pt: string) => (language === 'en' ? en : pt);
        // Something on every page: a key rolled (an expiry shown), an endpoint, the sandbox, audit rows.
        const keys = app.get(ApiKeysService);
        const made = await keys.create({
          businessSlug: business.slug,
          memberEmail: owner,
          name: 'Website',
          scopes: ['services.read', 'webhooks.manage'],
        });
        await keys.roll({ businessSlug: business.slug, memberEmail: owner, key: { id: made.id }, oldKeyExpiresIn: '7d' });

        await page.goto(`${base}/keys`);
        expect(await page.locator('html').getAttribute('lang')).toBe(language);
        await page.getByRole('heading', { level: 1, name: word('API keys', 'Chaves da API') }).waitFor();
        expect(await page.locator('time').first().textContent()).toMatch(/GMT(\+\d+)?$/);
        await inspect(page, `keys ${language}`, `keys-${suffix}`);

        // A refused form in this language: the rule's message beside the field, in its words.
        await page.locator('#key-name').fill('Web\tsite');
        await page.locator('#create-key button[type="submit"]').click();
        await page.waitForURL(/#create-key$/);
        expect(await page.locator('#key-name').inputValue()).toBe('Web\tsite');
        expect(await page.locator('#key-scopes-error').textContent()).toMatch(
          word('at least one scope is needed', 'escolha pelo menos uma permissão'),
        );
        expect(await page.locator('#key-name-error').textContent()).toMatch(
          word(
            'must not contain control, bidirectional or zero-width characters',
            'não pode ter caracteres de controlo, bidirecionais ou de largura zero',
          ),
        );
        await inspect(page, `refused key form ${language}`, `keys-refused-${suffix}`);

        await page.goto(`${base}/keys/${made.id}/revoke`);
        await inspect(page, `revoke confirmation ${language}`, `keys-revoke-confirm-${suffix}`);

        await page.goto(`${base}/webhooks`);
        await page.locator('#endpoint-url').fill(receiverUrl);
        await page.locator('#endpoint-description').fill('d'.repeat(201));
        await page.locator('#register-endpoint button[type="submit"]').click();
        await page.waitForURL(/#register-endpoint$/);
        expect(await page.locator('#endpoint-description-error').textContent()).toBe(
          word('must NOT have more than 200 characters', 'não pode ter mais de 200 caracteres'),
        );
        await inspect(page, `refused endpoint form ${language}`, `webhooks-refused-${suffix}`);
        await page.locator('#endpoint-description').fill('Zapier');
        await page.locator('#endpoint-events input[value="appointment.created"]').check();
        await page.locator('#register-endpoint button[type="submit"]').click();
        await page.locator('#shown-once').waitFor();
        await inspect(page, `endpoint ${language}`, `endpoint-${suffix}`);
        const endpointUrl = page.url();
        await page.goto(`${base}/webhooks`);
        await inspect(page, `webhooks ${language}`, `webhooks-${suffix}`);
        await page.goto(`${endpointUrl}/edit`);
        await inspect(page, `edit endpoint ${language}`);
        await page.goto(`${endpointUrl}/delete`);
        await inspect(page, `delete confirmation ${language}`, `endpoint-delete-confirm-${suffix}`);

        await page.goto(`${base}/test-mode`);
        await page.locator('main form button[type="submit"]').click();
        await page.locator('main .message.success').waitFor();
        await inspect(page, `test mode ${language}`, `test-mode-${suffix}`);
        await page.goto(`${base}/test-mode/webhooks`);
        await inspect(page, `sandbox webhooks ${language}`, `sandbox-webhooks-${suffix}`);
        await page.goto(`${base}/test-mode/reset`);
        await inspect(page, `reset confirmation ${language}`);

        await page.goto(`${base}/audit`);
        await page.getByRole('heading', { level: 1, name: word('Audit', 'Auditoria') }).waitFor();
        await inspect(page, `audit ${language}`, `audit-${suffix}`);
        await context.close();
      } finally {
        await close();
      }
    },
  );

  it('follows a delivery with what was sent and answered, filters the deliveries, sends again from them and from the event log, in both languages, none repeated by Reload or Back', async () => {
    const { url: receiverUrl, received, close } = await startReceiver();
    try {
      const business = await seed({
        plan: 'SOLO',
        services: [{ ref: 'cut', name: 'Cut', durationMin: 30, priceCents: 2000 }],
        staff: [{ ref: 'ana', name: 'Ana', workingHours: ALL_WEEK }],
        clients: [{ ref: 'joao', name: 'João', phone: '+351912000001', email: 'joao@example.com', consent: true }],
      });
      const { context, page } = await visitor('en');
      await signInWithLink(page, await linkFor(business.slug, business.ownerEmail!));
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByLabel('Address (https)').fill(receiverUrl);
      await page.getByRole('checkbox', { name: 'appointment.created' }).check();
      await page.getByRole('button', { name: 'Register endpoint' }).click();
      await page.getByLabel('Its signing secret').waitFor();

      const booked = await fetch(`${baseUrl}/v1/api/appointments`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${business.keys.owner.key}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': randomUUID(),
        },
        body: JSON.stringify({
          staffId: business.staff.ana,
          serviceId: business.services.cut,
          startAt: '2036-07-01T10:00:00Z',
          client: { id: business.clients.joao },
        }),
      });
      expect(booked.status).toBe(201);
      await eventually(() => Promise.resolve(received.some((n) => n.type === 'appointment.created') || null), 30_000, 'the booking notice');

      // One row for the notice and the endpoint, delivered; filtered away by another outcome.
      await page.getByRole('link', { name: 'Deliveries', exact: true }).click();
      const deliveriesUrl = page.url();
      await eventually(async () => {
        await page.goto(deliveriesUrl);
        return (await page.locator('td .outcome.delivered').count()) > 0 || null;
      }, 30_000);
      await inspect(page, 'deliveries', 'deliveries-en');
      await page.getByLabel('Outcome').selectOption('failed');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.getByText('None yet.').waitFor();
      await page.goto(deliveriesUrl);

      // Its page: what was sent (the signature among the headers, the body) and what came back.
      await page
        .getByRole('link', { name: /appointment\.created/ })
        .first()
        .click();
      expect(await page.getByLabel('Headers sent').textContent()).toMatch(/webhook-signature: v1,/);
      expect(await page.getByLabel('Body sent').textContent()).toContain('"type":"appointment.created"');
      await page.getByText('Status 200; the first 1 KB of its body:').waitFor();
      expect(await page.getByLabel('Body of the answer (first 1 KB)').textContent()).toBe('ok');
      await inspect(page, 'a delivery', 'delivery-en');

      // Sent again, once: Reload and Back send nothing more.
      const before = received.length;
      await page.getByRole('button', { name: 'Send again to this endpoint' }).click();
      await page.getByText('The notice was queued to be sent again.').waitFor();
      await eventually(() => Promise.resolve(received.length === before + 1 || null), 30_000, 'the notice sent again');
      await reloadAndBackChangeNothing(page, business, { received });

      // The event log: listed, sent again to the subscribed endpoint, once.
      await page.getByRole('link', { name: 'Events', exact: true }).click();
      await page.getByText('1 delivered, 0 on their way, 0 failed').waitFor();
      await inspect(page, 'events', 'events-en');
      const again = received.length;
      await page
        .getByRole('button', { name: /^Send again/ })
        .first()
        .click();
      await page.getByText('The event was queued to be sent again to 1 endpoint(s).').waitFor();
      await eventually(() => Promise.resolve(received.length === again + 1 || null), 30_000, 'the event sent again');
      await reloadAndBackChangeNothing(page, business, { received });
      await context.close();

      // The same pages in Portuguese.
      const pt = await visitor('pt-PT');
      await signInWithLink(pt.page, await linkFor(business.slug, business.ownerEmail!));
      await pt.page.getByRole('link', { name: 'Entregas', exact: true }).click();
      expect(await pt.page.locator('html').getAttribute('lang')).toBe('pt-PT');
      expect(await pt.page.locator('td .outcome.delivered').first().textContent()).toBe('entregue');
      await inspect(pt.page, 'deliveries (pt-PT)', 'deliveries-pt-PT');
      await pt.page
        .getByRole('link', { name: /appointment\.created/ })
        .first()
        .click();
      await pt.page.getByLabel('Cabeçalhos enviados').last().waitFor();
      await inspect(pt.page, 'a delivery (pt-PT)', 'delivery-pt-PT');
      await pt.page.getByRole('link', { name: 'Eventos', exact: true }).click();
      await inspect(pt.page, 'events (pt-PT)', 'events-pt-PT');
      await pt.context.close();
    } finally {
      await close();
    }
  });

  it('lets a member of several businesses pick the one to manage after signing in', async () => {
    const email = `many-${randomUUID().slice(0, 8)}@example.com`;
    const first = await seed({ plan: 'SOLO', members: [{ ref: 'owner', name: 'Many', email, role: 'OWNER' }] });
    const second = await seed({ plan: 'TEAM', members: [{ ref: 'partner', name: 'Many', email, role: 'PARTNER' }] });
    const { context, page } = await visitor('en');
    await signInWithLink(page, await linkFor(first.slug, email));
    await page.getByRole('heading', { name: 'Your businesses' }).waitFor();
    await inspect(page, 'businesses', 'businesses-en');
    await page.getByRole('listitem').filter({ hasText: second.slug }).getByRole('link').click();
    await page.waitForURL(new RegExp(`/console/b/${second.slug}/keys$`));
    await page.getByText('(partner)').waitFor();
    await context.close();
  });

  it('shows a FREE-plan owner why there are no keys, and offers no way to create one', async () => {
    const business = await seed({ plan: 'FREE', keys: [] });
    const { context, page } = await visitor('en');
    await signInWithLink(page, await linkFor(business.slug, business.ownerEmail!));
    await page.getByText('The FREE plan has no integrations').waitFor();
    expect(await page.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    await inspect(page, 'keys on the FREE plan', 'keys-free-plan-en');
    // Posted anyway (the form's token taken from another form of the page): refused, nothing made.
    const token = await page.locator('input[name="_csrf"]').first().inputValue();
    const refused = await page.request.post(keysPath(business), {
      form: { _csrf: token, name: 'Sneaky', scopes: 'services.read', mode: 'live', apiVersion: '1.4.0' },
      maxRedirects: 0,
    });
    expect({ status: refused.status(), location: refused.headers().location }).toEqual({
      status: 303,
      location: `/console/b/${business.slug}/keys#create-key`,
    });
    // The page the redirect leads to says why, once, beside the plan's explanation.
    await page.goto(keysPath(business));
    expect(await page.getByRole('alert').textContent()).toContain('The plan has no integrations.');
    await page.reload();
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.getByText('The FREE plan has no integrations').waitFor();
    const keys = await sql.query<{ n: string }[]>(`SELECT count(*) AS n FROM api_keys WHERE name = 'Sneaky'`);
    expect(Number(keys[0].n)).toBe(0);
    await context.close();
  });

  it('shows a STAFF member and a signed-out visitor nothing', async () => {
    const business: SeededBusiness = await seed({ plan: 'TEAM' });
    const staffEmail = `staff-${randomUUID().slice(0, 8)}@${business.slug}.example`;
    await sql.query(`INSERT INTO members (id, business_id, name, email, role) VALUES ($1, $2, 'Staff', $3, 'STAFF')`, [
      randomUUID(),
      business.id,
      staffEmail,
    ]);
    const { context, page } = await visitor('en');
    const signedOut = await page.goto(keysPath(business));
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
    const foreign = await page.goto(keysPath(business));
    expect(foreign!.status()).toBe(404);
    await page.getByText('There is no business of yours, or nothing of it, at this address.').waitFor();
    await inspect(page, 'nothing here');
    await context.close();
  });

  it('lets a link sign in once, and not once it has expired', async () => {
    const business = await seed({ plan: 'SOLO' });
    const url = await linkFor(business.slug, business.ownerEmail!);
    const first = await visitor('en');
    // Opening the link spends nothing: a mail scanner's GET leaves it usable.
    await first.page.goto(url);
    await first.page.goto(url);
    await signInWithLink(first.page, url);
    expect(new URL(first.page.url()).pathname).toMatch(/\/keys$/);

    const second = await visitor('pt-PT');
    await second.page.goto(url);
    expect(await second.page.locator('html').getAttribute('lang')).toBe('pt-PT');
    await second.page.getByRole('button', { name: 'Iniciar sessão' }).click();
    await second.page.locator('.message.error').waitFor();
    await inspect(second.page, 'link spent', 'sign-in-link-spent-pt-PT');

    const later = await linkFor(business.slug, business.ownerEmail!);
    await sql.query(`UPDATE console_verifications SET expires_at = now() - interval '1 second' WHERE expires_at > now()`);
    await second.page.goto(later);
    await second.page.getByRole('button', { name: 'Iniciar sessão' }).click();
    await second.page.locator('.message.error').waitFor();
    expect(new URL(second.page.url()).pathname).toBe('/console/sign-in');
    await first.context.close();
    await second.context.close();
  });

  it('refuses a form posted without its token', async () => {
    const business = await seed({ plan: 'SOLO' });
    const { context, page } = await visitor('en');
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
