import { jest } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AddressInfo } from 'node:net';
import { AppConfig } from '#config/app-config.js';
import type { ApiKeyLookup } from '#core/api-keys/api-keys.repository.js';
import { ApiKeysService } from '#core/api-keys/api-keys.service.js';
import { consoleOrigin } from '#core/console-auth/console-origin.js';
import { AccessTokenCallers } from '#core/oauth/access-token-callers.js';
import type { OAuthResource } from '#core/oauth/oauth-resources.js';
import { protectedResourceMetadataUrl } from '#core/oauth/oauth-resources.js';
import { StructuredOutputs } from '#mcp-tools/structured-outputs.js';
import { ALL_WEEK } from '../factories/booking-fixture.js';
import { buildApps, REPO_ROOT } from '../utils/child-process.js';
import { E2eApi } from '../utils/e2e-api.js';
import { seed, type SeededBusiness } from '../utils/seed.js';
import { testConfig } from '../utils/test-config.js';

/**
 * The remote MCP server at /mcp (docs/design-record.md#d30) on a listening API, reached by the
 * official SDK's Streamable HTTP client with an access token. The OAuth server is not part of this
 * test: AccessTokenCallers is replaced by one that knows two tokens, each speaking for a key of a
 * seeded business, so the tool calls go through the REST API in process as that key's grant would.
 */
jest.setTimeout(180_000);

const FULL_TOKEN = 'mcp-test-token-full';
const READER_TOKEN = 'mcp-test-token-reader';

class TestAccessTokens extends AccessTokenCallers {
  readonly keys = new Map<string, string>();
  service?: ApiKeysService;
  async callerOf(token: string, resource: OAuthResource): Promise<ApiKeyLookup | null> {
    const key = this.keys.get(token);
    return resource === 'mcp' && key && this.service ? this.service.authenticate(key) : null;
  }
}

const tokens = new TestAccessTokens();
let api: E2eApi;
let origin: string;
let business: SeededBusiness;
let resourceMetadata: string;

beforeAll(async () => {
  api = await E2eApi.start(testConfig(), [[AccessTokenCallers, tokens]]);
  tokens.service = api.app.get(ApiKeysService);
  await api.app.listen(0, '127.0.0.1');
  origin = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
  resourceMetadata = protectedResourceMetadataUrl(consoleOrigin(api.app.get(AppConfig)), 'mcp');
  business = await seed({
    name: 'Remote MCP Salon',
    services: [{ ref: 'cut', name: 'Corte', durationMin: 30, priceCents: 2500 }],
    staff: [{ ref: 'ana', name: 'Ana Costa', workingHours: ALL_WEEK }],
    clients: [{ ref: 'joao', name: 'João Silva', phone: `+35196${String(Date.now() % 10_000_000).padStart(7, '0')}` }],
    members: [{ ref: 'owner', name: 'Owner', email: `owner.${Date.now()}@example.com`, role: 'OWNER' }],
    keys: [
      {
        ref: 'full',
        member: 'owner',
        name: 'Assistant',
        scopes: ['services.read', 'appointments.read', 'appointments.write', 'clients.read', 'clients.write'],
      },
      { ref: 'reader', member: 'owner', name: 'Read-only assistant', scopes: ['services.read', 'appointments.read'] },
    ],
  });
  tokens.keys.set(FULL_TOKEN, business.keys.full.key);
  tokens.keys.set(READER_TOKEN, business.keys.reader.key);
});

afterAll(() => api?.close());

/** An MCP client connected to /mcp with the token. */
async function remoteClient(token: string): Promise<Client> {
  const client = new Client({ name: 'mcp-remote-e2e', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  return client;
}

/** One JSON-RPC message POSTed to /mcp as an MCP client sends it. */
function post(message: unknown, token?: string): Promise<Response> {
  return fetch(`${origin}/mcp`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(message),
  });
}

const text = (result: CallToolResult): string => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

describe('the remote MCP server at /mcp', () => {
  it('answers 401 naming its resource metadata without a token, and invalid_token for one it does not know', async () => {
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const none = await post(list);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${resourceMetadata}"`);
    expect(resourceMetadata).toMatch(/\/\.well-known\/oauth-protected-resource\/mcp$/);
    const unknown = await post(list, 'not-a-token-we-issued');
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('www-authenticate')).toBe(`Bearer error="invalid_token", resource_metadata="${resourceMetadata}"`);
    // An API key is not an access token of the MCP server.
    expect((await post(list, business.keys.full.key)).status).toBe(401);
  });

  it('reads the body only for a caller it knows', async () => {
    const malformed = (token?: string) =>
      fetch(`${origin}/mcp`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
        body: '{"jsonrpc": "2.0", "id": 1,',
      });
    // Refused on the token, the body unread.
    expect((await malformed()).status).toBe(401);
    const known = await malformed(FULL_TOKEN);
    expect(known.status).toBe(400);
    expect(await known.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it('is stateless: GET and DELETE are 405 with Allow: POST', async () => {
    for (const method of ['GET', 'DELETE']) {
      const answer = await fetch(`${origin}/mcp`, { method, headers: { Authorization: `Bearer ${FULL_TOKEN}` } });
      expect(answer.status).toBe(405);
      expect(answer.headers.get('allow')).toBe('POST');
    }
  });

  it('answers 403 insufficient_scope, before the tool runs, for a tool whose scope the grant lacks', async () => {
    const booking = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: {
        name: 'book_appointment',
        arguments: { serviceId: business.services.cut, startAt: '2035-08-01T10:00:00Z', client: { id: business.clients.joao } },
      },
    };
    const refused = await post(booking, READER_TOKEN);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", scope="services.read appointments.read appointments.write", resource_metadata="${resourceMetadata}"`,
    );
    expect(await refused.json()).toMatchObject({ id: 7, error: { message: expect.stringContaining('appointments.write') } });
    // Nothing was booked.
    const reader = await remoteClient(READER_TOKEN);
    const day = await reader.callTool({
      name: 'list_appointments',
      arguments: { from: '2035-08-01T00:00:00Z', to: '2035-08-02T00:00:00Z' },
    });
    expect((day.structuredContent as { data: unknown[] }).data).toEqual([]);
    await reader.close();
  });

  it('books through the REST API as the grant, says a replay is a replay, and reads', async () => {
    const client = await remoteClient(FULL_TOKEN);
    const outputs = new StructuredOutputs((await client.listTools()).tools);
    const call = async (name: string, args: Record<string, unknown> = {}) =>
      outputs.check(name, (await client.callTool({ name, arguments: args })) as CallToolResult);

    expect(text(await call('list_services'))).toContain(`Corte (30 min, 25 EUR): ${business.services.cut}`);
    const booking = {
      serviceId: business.services.cut,
      staffId: business.staff.ana,
      startAt: '2035-08-02T10:00:00Z',
      client: { id: business.clients.joao },
      idempotencyKey: `remote-${Date.now()}`,
    };
    const booked = await call('book_appointment', booking);
    expect(booked.isError).toBeFalsy();
    // 10:00 UTC in August is 11:00 in Lisbon.
    expect(text(booked)).toMatch(/^Booked: 2035-08-02 11:00–11:30 \+01:00 Europe\/Lisbon \(UTC 2035-08-02T10:00:00\.000Z/);
    expect(booked.structuredContent).toMatchObject({ status: 'CONFIRMED', idempotentReplayed: false });
    const { id } = booked.structuredContent as { id: string };

    const replayed = await call('book_appointment', booking);
    expect(text(replayed)).toMatch(/^Already booked \(a replay: /);
    expect(replayed.structuredContent).toEqual({ ...booked.structuredContent, idempotentReplayed: true });

    const read = await call('get_appointment', { id });
    expect(read.structuredContent).toMatchObject({ id, status: 'CONFIRMED', staff: { id: business.staff.ana } });
    expect(text(read)).toContain('2035-08-02 11:00–11:30 +01:00 Europe/Lisbon');
    // The write went through the API as the key: the REST API sees the appointment.
    const rest = await api.get(`/appointments/${id}`, { key: business.keys.full.key });
    expect(rest.body).toMatchObject({ id, status: 'CONFIRMED' });
    await client.close();
  });
});

describe('the stdio and remote MCP servers', () => {
  it('list exactly the same tools, schemas and annotations, and give the same instructions', async () => {
    await buildApps();
    const stdio = new Client({ name: 'mcp-parity', version: '1.0.0' });
    await stdio.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['dist/apps/mcp/src/main.js'],
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '', SCHEDULING_API_URL: origin, SCHEDULING_API_KEY: business.keys.full.key },
        stderr: 'pipe',
      }),
    );
    const remote = await remoteClient(READER_TOKEN);
    try {
      const [local, served] = [(await stdio.listTools()).tools, (await remote.listTools()).tools];
      expect(served).toEqual(local);
      expect(served.length).toBe(11);
      expect(remote.getInstructions()).toBe(stdio.getInstructions());
      expect(remote.getServerVersion()).toEqual(stdio.getServerVersion());
    } finally {
      await stdio.close();
      await remote.close();
    }
  });
});
