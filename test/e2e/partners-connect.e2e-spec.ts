import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { CURRENT_API_VERSION } from '#contract/versions/api-versions.js';
import { REPO_ROOT } from '../utils/child-process.js';
import { consentThroughConsole, listeningApi, signedInOwner, type CookieJar } from '../utils/oauth-owner.js';
import { seed, type SeededBusiness } from '../utils/seed.js';

/**
 * docs/partners.md's "Connect an app (OAuth)" as a partner developer runs it: its sh blocks, word
 * for word but for the two lines it says to fill in (the addresses, the code), in one bash shell one
 * after another with curl, openssl and jq, against a listening API. The owner's consent between
 * them is given as the console's form gives it (test/utils/oauth-owner.ts). And "Connect an AI
 * assistant": its configuration's URL answers an assistant's first request as the text says.
 * A block the section gains that this test does not run fails it, by name.
 */
const APP_PLACEHOLDERS = 'ORIGIN=https://api.example.com; REDIRECT=http://127.0.0.1:8765/callback; ';
const CODE_PLACEHOLDER = /^CODE=…[^\n]*\n/;
const EXAMPLE_ORIGIN = 'https://api.example.com';
/** Nothing listens there: the owner's browser is not followed to it, its address is read. */
const REDIRECT = 'http://127.0.0.1:9/callback';
/** The bold run-in headings of the app section's sh blocks, in the order they are run. */
const STEPS = ['Register the app', 'Send the owner to allow it', 'Exchange the code', 'Call the API', 'Refresh', 'Revoke'] as const;
type Step = (typeof STEPS)[number];

let app: NestExpressApplication;
let origin: string;
let business: SeededBusiness;
let owner: CookieJar;
let partners: string;

beforeAll(async () => {
  ({ app, origin } = await listeningApi());
  business = await seed({ plan: 'TEAM', services: [{ ref: 'cut', name: 'Corte', durationMin: 30, priceCents: 2500 }] });
  owner = await signedInOwner(app, business.slug, business.ownerEmail!);
  partners = await readFile(join(REPO_ROOT, 'docs', 'partners.md'), 'utf8');
});
afterAll(() => app?.close());

/** The text of a `## ` section of docs/partners.md, to the next `## `. */
function section(title: string): string {
  const start = partners.indexOf(`\n## ${title}\n`);
  if (start === -1) throw new Error(`docs/partners.md has no section "## ${title}"`);
  const end = partners.indexOf('\n## ', start + 1);
  return partners.slice(start, end === -1 ? undefined : end);
}

/** Every sh block of the text under a bold run-in heading: heading → script. */
function shBlocks(text: string): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const match of text.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const before = text.slice(0, match.index);
    const heading = /(?:^|\n)\*\*([^*\n]+)\*\*[^\n]*\n\n$/.exec(before)?.[1];
    if (!heading) throw new Error(`an sh block of docs/partners.md has no bold heading right above it:\n${match[1]}`);
    blocks.set(heading, match[1]);
  }
  return blocks;
}

/**
 * One bash, fed the blocks one after another as a reader pastes them into a terminal: what one
 * block sets, the next reads. Each block's output is what it printed before a marker echoed after it.
 */
class Shell {
  private stdout = '';
  private stderr = '';
  private exited: string | null = null;
  private readonly waiting = new Set<() => void>();
  private readonly child: ChildProcessWithoutNullStreams;

  constructor(cwd: string) {
    this.child = spawn('bash', ['--noprofile', '--norc'], { cwd, env: { PATH: process.env.PATH, HOME: cwd } });
    const wake = () => this.waiting.forEach((done) => done());
    this.child.stdout.on('data', (chunk: Buffer) => ((this.stdout += chunk.toString()), wake()));
    this.child.stderr.on('data', (chunk: Buffer) => ((this.stderr += chunk.toString()), wake()));
    this.child.on('exit', (code) => ((this.exited = `bash exited with ${code}`), wake()));
  }

  async run(script: string): Promise<string> {
    const marker = `block-done-${randomUUID()}`;
    const from = this.stdout.length;
    const errorsFrom = this.stderr.length;
    this.child.stdin.write(`${script}\necho ${marker}\n`);
    for (;;) {
      const at = this.stdout.indexOf(marker, from);
      if (at !== -1) {
        const errors = this.stderr.slice(errorsFrom);
        if (errors) throw new Error(`the block wrote to stderr:\n${errors}\n--- block:\n${script}`);
        return this.stdout.slice(from, at);
      }
      if (this.exited) throw new Error(`${this.exited}: ${this.stderr.slice(errorsFrom)}`);
      await new Promise<void>((done) => {
        const wake = () => (this.waiting.delete(wake), done());
        this.waiting.add(wake);
      });
    }
  }

  close(): void {
    this.child.stdin.end();
  }
}

/** The JSON values a block printed one after another (jq's pretty output, curl's raw body). */
function jsonValues(text: string): unknown[] {
  const values: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (depth++ === 0) start = i;
    } else if ((c === '}' || c === ']') && --depth === 0) values.push(JSON.parse(text.slice(start, i + 1)));
  }
  return values;
}

interface TokenAnswer {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
}

const me = (token: string) => fetch(`${origin}/v1/api/me`, { headers: { authorization: `Bearer ${token}` } });

it("connects an app by the owner's consent with the documented blocks: register, authorize, exchange, call, refresh, revoke", async () => {
  const blocks = shBlocks(section('Connect an app (OAuth)'));
  const unrun = [...blocks.keys()].filter((heading) => !STEPS.includes(heading as Step));
  if (unrun.length > 0) {
    throw new Error(`docs/partners.md "Connect an app" has sh blocks this test does not run: ${unrun.join(', ')}. Run them here.`);
  }
  const block = (step: Step): string => {
    const script = blocks.get(step);
    if (!script) throw new Error(`docs/partners.md "Connect an app" has no sh block under **${step}**`);
    return script;
  };

  const folder = await mkdtemp(join(tmpdir(), 'partners-connect-'));
  const shell = new Shell(folder);
  try {
    // Register: the placeholders put in, as the text says.
    const register = block('Register the app');
    if (!register.startsWith(APP_PLACEHOLDERS)) throw new Error(`**Register the app** no longer starts with ${APP_PLACEHOLDERS}`);
    const registered = await shell.run(`ORIGIN=${origin}; REDIRECT=${REDIRECT}; ${register.slice(APP_PLACEHOLDERS.length)}`);
    const clientId = /^CLIENT_ID=(\S+)$/m.exec(registered)?.[1];
    if (!clientId || clientId === 'null') throw new Error(`registration printed no client id:\n${registered}`);
    const [client] = await app
      .get(DataSource)
      .query<{ name: string; redirect_uris: string[] }[]>('SELECT name, redirect_uris FROM oauth_clients WHERE client_id = $1', [clientId]);
    expect(client).toEqual({ name: 'Booking widget', redirect_uris: [REDIRECT] });

    // The authorization address it prints, opened by the owner, who allows it for the business.
    const authorize = (await shell.run(block('Send the owner to allow it'))).trim();
    expect(authorize.startsWith(`${origin}/console/auth/oauth2/authorize?`)).toBe(true);
    const asked = new URL(authorize).searchParams;
    expect(asked.get('code_challenge_method')).toBe('S256');
    expect(asked.get('resource')).toBe(`${origin}/v1/api`);
    const back = await consentThroughConsole(owner, authorize, { business: business.slug });
    expect(back.href.startsWith(`${REDIRECT}?`)).toBe(true);
    // What the text tells the app to check before taking the code.
    expect(back.searchParams.get('state')).toBe(asked.get('state'));
    expect(back.searchParams.get('iss')).toBe(`${origin}/console/auth`);
    const code = back.searchParams.get('code');
    if (!code) throw new Error(`the owner's browser came back with no code: ${back.href}`);

    // The code exchanged: the CODE=… line is the one the reader fills in.
    const exchange = block('Exchange the code');
    if (!CODE_PLACEHOLDER.test(exchange)) throw new Error('**Exchange the code** no longer starts with its CODE=… line');
    const [exchanged] = jsonValues(await shell.run(exchange.replace(CODE_PLACEHOLDER, `CODE='${code}'\n`))) as TokenAnswer[];
    expect(exchanged.access_token).toMatch(/^oat_/);
    expect(exchanged.refresh_token).toMatch(/^ort_/);
    expect(exchanged).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(exchanged.scope.split(' ').sort()).toEqual(['appointments.read', 'appointments.write', 'offline_access', 'services.read']);

    // The API, as the business the owner chose, with what was allowed.
    const called = jsonValues(await shell.run(block('Call the API')));
    expect(called).toHaveLength(2);
    expect(called[0]).toEqual({
      business: business.slug,
      mode: 'live',
      scopes: expect.arrayContaining(['services.read', 'appointments.read', 'appointments.write']) as unknown,
    });
    expect((called[1] as { data: { name: string }[] }).data.map((service) => service.name)).toEqual(['Corte']);
    // Pinned to the version current when the owner allowed it, as the text says.
    const pinned = (await (await me(exchanged.access_token)).json()) as { key: { apiVersion: string } };
    expect(pinned.key.apiVersion).toBe(CURRENT_API_VERSION);

    // A refresh: a new refresh token, and the new access token is taken.
    const [refreshed] = jsonValues(await shell.run(block('Refresh'))) as TokenAnswer[];
    expect(refreshed.refresh_token).toMatch(/^ort_/);
    expect(refreshed.refresh_token).not.toBe(exchanged.refresh_token);
    expect((await me(refreshed.access_token)).status).toBe(200);

    // Revoked: the refresh token and the access token it gave end; the connection stays listed.
    expect((await shell.run(block('Revoke'))).trim()).toBe('200');
    await new Promise((done) => setTimeout(done, 600)); // token lookups are cached 500 ms
    const refused = await me(refreshed.access_token);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { code: string }).code).toBe('API_KEY_INVALID');
    const again = await fetch(`${origin}/console/auth/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshed.refresh_token }),
    });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error: string }).error).toBe('invalid_grant');
    const connections = await owner.fetch(`${origin}/console/b/${business.slug}/connections`);
    expect(await connections.text()).toContain('Booking widget');
  } finally {
    shell.close();
    await rm(folder, { recursive: true, force: true });
  }
});

it("answers an assistant's first request to the documented MCP address with where to get a token", async () => {
  const text = section('Connect an AI assistant');
  const json = /```json\n([\s\S]*?)```/.exec(text)?.[1];
  if (!json) throw new Error('docs/partners.md "Connect an AI assistant" has no json block');
  const config = JSON.parse(json) as { mcpServers: Record<string, { url: string }> };
  const url = Object.values(config.mcpServers)[0].url;
  expect(url).toBe(`${EXAMPLE_ORIGIN}/mcp`);
  // The sentence for clients that take a URL alone names the same address.
  expect(text).toContain(`\`${url}\` alone`);

  const first = await fetch(url.replace(EXAMPLE_ORIGIN, origin), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'assistant', version: '1.0.0' } },
    }),
  });
  expect(first.status).toBe(401);
  const challenge = first.headers.get('www-authenticate') ?? '';
  const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
  if (!metadataUrl) throw new Error(`the 401 names no resource_metadata: ${challenge}`);
  const metadata = await fetch(metadataUrl);
  expect(metadata.status).toBe(200);
  const resource = (await metadata.json()) as { resource: string; authorization_servers: string[] };
  expect(resource.resource).toBe(`${origin}/mcp`);
  expect(resource.authorization_servers).toEqual([`${origin}/console/auth`]);
});
