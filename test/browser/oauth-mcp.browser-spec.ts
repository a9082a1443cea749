import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jest } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  auth,
  discoverAuthorizationServerMetadata,
  refreshAuthorization,
  type OAuthClientProvider,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Browser, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { createApiApp } from '#api/configure-app.js';
import { ConsoleLinks } from '#core/console-auth/console-links.service.js';
import { launchChromium } from '../utils/chromium.js';
import { inspect } from '../utils/page-inspection.js';
import { listeningApi } from '../utils/oauth-owner.js';
import { seed, type SeededBusiness } from '../utils/seed.js';
import { testConfig } from '../utils/test-config.js';
import { freePort } from '../utils/child-process.js';

/**
 * docs/design-record.md#d30 as an AI assistant meets it: the official MCP TypeScript client against
 * the remote MCP server of a running API. Discovery from the 401, registration (dynamic, and by a
 * Client ID Metadata Document), PKCE, the owner's consent clicked in Chromium, tool calls, a
 * refresh, parallel refreshes inside the grace (the grant survives), the spent token after the
 * grace (refused), and the connection ended on the console's Connections page: refused by two API
 * instances (one origin behind a balancer) within 1 s.
 */
jest.setTimeout(180_000);

let instanceA: NestExpressApplication;
let instanceB: NestExpressApplication;
let origin: string;
let originB: string;
let browser: Browser;
let page: Page;
let business: SeededBusiness;
let callbacks: Server;
let callbackOrigin: string;
/** The codes the assistant's redirect URI received, by state. */
const received = new Map<string, string>();

/** What an assistant keeps between runs: its registration, its tokens, its PKCE verifier. */
class AssistantStorage implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;

  constructor(
    readonly redirectUrl: string,
    preset?: OAuthClientInformationMixed,
  ) {
    this.info = preset;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Test Assistant',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

beforeAll(async () => {
  callbacks = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/client.json') {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          client_id: `${callbackOrigin}/client.json`,
          client_name: 'Metadata Document Assistant',
          redirect_uris: [`${callbackOrigin}/callback`],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        }),
      );
      return;
    }
    // Only the redirect counts: the browser also asks this origin for its icon.
    if (url.pathname === '/callback') received.set(url.searchParams.get('state') ?? '', url.searchParams.get('code') ?? '');
    res.end('You can close this window.');
  });
  await new Promise<void>((done) => callbacks.listen(0, '127.0.0.1', done));
  callbackOrigin = `http://127.0.0.1:${(callbacks.address() as AddressInfo).port}`;

  ({ app: instanceA, origin } = await listeningApi());
  // A second instance of the same deployment: the same public origin, its own process state.
  const portB = await freePort();
  instanceB = await createApiApp(testConfig({ PORT: String(portB), PUBLIC_BASE_URL: origin }));
  await instanceB.listen(portB, '127.0.0.1');
  originB = `http://127.0.0.1:${portB}`;

  business = await seed({ plan: 'TEAM' });
  browser = await launchChromium();
  page = await (await browser.newContext()).newPage();
  // The owner signs in with the link `admin member sign-in-link` prints.
  const link = await instanceA.get(ConsoleLinks).linkFor(business.slug, business.ownerEmail!);
  await page.goto(link.url);
  await page.locator('main form button[type="submit"]').click();
  await page.waitForURL(/\/console\/b\//);
});

afterAll(async () => {
  await browser?.close();
  await instanceB?.close();
  await instanceA?.close();
  await new Promise((done) => callbacks?.close(done));
});

/** The owner, in Chromium, approves what the assistant asked for; the code the assistant received. */
async function ownerApproves(authorizationUrl: URL, screenshot?: string): Promise<string> {
  await page.goto(authorizationUrl.href);
  await page.waitForURL(/\/console\/oauth\/consent/);
  if (screenshot) {
    await inspect(page, 'consent', `${screenshot}-en`);
    // The same page in Portuguese, as a Portuguese browser asks for it.
    const pt = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'pt-PT' });
    await pt.addCookies(await page.context().cookies());
    const ptPage = await pt.newPage();
    await ptPage.goto(page.url());
    expect(await ptPage.getAttribute('html', 'lang')).toBe('pt-PT');
    await inspect(ptPage, 'consent (pt-PT)', `${screenshot}-pt-PT`);
    await pt.close();
  }
  await page.getByRole('combobox', { name: 'Business' }).selectOption(business.slug);
  await page.getByRole('button', { name: 'Allow' }).click();
  await page.waitForURL((url) => url.href.startsWith(`${callbackOrigin}/callback`));
  const state = authorizationUrl.searchParams.get('state') ?? '';
  const code = received.get(state);
  if (!code) throw new Error(`the assistant received no code: ${page.url()}`);
  return code;
}

async function connected(storage: AssistantStorage, at = origin): Promise<Client> {
  const client = new Client({ name: 'test-assistant', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${at}/mcp`), { authProvider: storage }));
  return client;
}

/** A tools/call over /mcp with a bare token: its HTTP status (401 once the connection is ended). */
async function mcpStatus(at: string, token: string): Promise<number> {
  const response = await fetch(`${at}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  return response.status;
}

it('connects an assistant by dynamic registration and the owner consent, then serves its tools, refreshes, and ends on revocation', async () => {
  const storage = new AssistantStorage(`${callbackOrigin}/callback`);
  const first = new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { authProvider: storage });
  // The 401 names the resource's metadata; from it the client finds the server, registers, and
  // sends the owner to authorize with PKCE.
  await expect(new Client({ name: 'test-assistant', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(storage.info?.client_id).toBeTruthy();
  expect(storage.authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
  expect(storage.authorizationUrl?.searchParams.get('resource')).toBe(`${origin}/mcp`);
  await first.finishAuth(await ownerApproves(storage.authorizationUrl!, 'oauth-consent'));
  expect(storage.saved?.access_token).toMatch(/^oat_/);

  const client = await connected(storage);
  const tools = await client.listTools();
  expect(tools.tools.map((tool) => tool.name)).toContain('list_services');
  const services = await client.callTool({ name: 'list_services', arguments: {} });
  expect(services.isError).toBeFalsy();

  // A refresh by the client itself: new tokens, and the tools still answer.
  const before = storage.saved!;
  await auth(storage, { serverUrl: `${origin}/mcp` });
  expect(storage.saved!.refresh_token).not.toBe(before.refresh_token);
  expect((await (await connected(storage)).callTool({ name: 'list_services', arguments: {} })).isError).toBeFalsy();

  // Three refreshes at once with the same token: the grant survives them, and the token spent
  // answers again with the same new tokens while the grace lasts.
  const metadata = (await discoverAuthorizationServerMetadata(new URL(`${origin}/console/auth`)))!;
  const refreshing = {
    metadata,
    clientInformation: storage.info!,
    refreshToken: storage.saved!.refresh_token!,
    resource: new URL(`${origin}/mcp`),
  };
  const settled = await Promise.allSettled([1, 2, 3].map(() => refreshAuthorization(metadata.issuer, refreshing)));
  const rotated = settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  expect(rotated.length).toBeGreaterThan(0);
  const again = await refreshAuthorization(metadata.issuer, refreshing);
  expect(again.refresh_token).toBe(rotated[0].refresh_token);
  storage.saveTokens(again);
  expect(await mcpStatus(origin, again.access_token)).toBe(200);

  // After the grace (its end moved back rather than waited for), the spent token is refused.
  await instanceA
    .get(DataSource)
    .query(`UPDATE oauth_refresh_tokens SET rotation_replay_expires_at = now() - interval '1 second' WHERE rotated_at IS NOT NULL`);
  await expect(refreshAuthorization(metadata.issuer, refreshing)).rejects.toThrow();
});

it('registers by a Client ID Metadata Document, and a disconnect in the console is refused by both instances within 1 s', async () => {
  const storage = new AssistantStorage(`${callbackOrigin}/callback`, { client_id: `${callbackOrigin}/client.json` });
  const first = new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { authProvider: storage });
  await expect(new Client({ name: 'test-assistant', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  await first.finishAuth(await ownerApproves(storage.authorizationUrl!));
  const token = storage.saved!.access_token;
  expect(await mcpStatus(origin, token)).toBe(200);
  expect(await mcpStatus(originB, token)).toBe(200);

  await page.goto(`${origin}/console/b/${business.slug}/connections`);
  await inspect(page, 'connections', 'connections-en');
  const row = page.locator('tr', { hasText: 'Metadata Document Assistant' });
  await row.getByRole('link', { name: 'Disconnect' }).click();
  await inspect(page, 'disconnect confirmation');
  await page.getByRole('button', { name: 'Disconnect' }).click();
  await page.waitForURL(/\/connections$/);
  const revokedAt = Date.now();
  // The API's lookups are kept at most AUTH_CACHE_TTL_MS (500 ms): by 1 s every instance refuses.
  await new Promise((done) => setTimeout(done, Math.max(0, 1000 - (Date.now() - revokedAt))));
  expect(await mcpStatus(origin, token)).toBe(401);
  expect(await mcpStatus(originB, token)).toBe(401);
});
