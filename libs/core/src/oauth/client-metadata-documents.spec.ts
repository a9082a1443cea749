import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GenericEndpointContext } from '@better-auth/core';
import type { OAuthOptions, Scope } from '@better-auth/oauth-provider';
import { CLIENT_METADATA_MAX_BYTES, clientMetadataDocuments, isMetadataDocumentClientId } from './client-metadata-documents.js';

let server: Server;
let origin: string;
/** What the document server answers, by path. */
const answers = new Map<string, { status: number; body: string; headers?: Record<string, string> }>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const answer = answers.get(req.url ?? '') ?? { status: 404, body: '' };
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(answer.body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((done) => server.close(done)));

const loopback = () => Promise.resolve([{ address: '127.0.0.1', family: 4 as const }]);
const noOptions = () => ({}) as OAuthOptions<Scope[]>;
const ctx = {} as GenericEndpointContext;
const document = (clientId: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ client_id: clientId, client_name: 'Assistant', redirect_uris: ['http://127.0.0.1:9/cb'], ...extra });

describe('Client ID Metadata Documents', () => {
  it('takes only a whole URL with a path as a document client id', () => {
    expect(isMetadataDocumentClientId('https://app.example/client.json')).toBe(true);
    expect(isMetadataDocumentClientId('https://app.example/')).toBe(false);
    expect(isMetadataDocumentClientId('https://user:pw@app.example/c.json')).toBe(false);
    expect(isMetadataDocumentClientId('https://app.example/c.json#x')).toBe(false);
    expect(isMetadataDocumentClientId('gTwqQqakFKnEMvSSDwaOYxcxocjmLRpv')).toBe(false);
  });

  it('treats a document it cannot use as an unknown client, whatever the reason', async () => {
    const discovery = clientMetadataDocuments({ allowPrivate: true, resolve: loopback }, noOptions);
    type Answer = { status: number; body: string; headers?: Record<string, string> };
    const cases: Record<string, (clientId: string) => Answer> = {
      '/missing.json': () => ({ status: 404, body: '' }),
      '/moved.json': () => ({ status: 302, body: '', headers: { location: '/other.json' } }),
      '/other-id.json': () => ({ status: 200, body: document('https://elsewhere.example/c.json') }),
      '/no-redirects.json': (clientId) => ({ status: 200, body: JSON.stringify({ client_id: clientId, client_name: 'x' }) }),
      '/secret.json': (clientId) => ({ status: 200, body: document(clientId, { client_secret: 'shh' }) }),
      '/huge.json': () => ({ status: 200, body: 'x'.repeat(CLIENT_METADATA_MAX_BYTES + 1) }),
      '/not-json.json': () => ({ status: 200, body: 'hello' }),
    };
    for (const [path, answer] of Object.entries(cases)) {
      const clientId = `${origin}${path}`;
      answers.set(path, answer(clientId));
      expect({ path, client: await discovery.resolve(ctx, clientId, null) }).toEqual({ path, client: null });
    }
  });

  it('refuses a plain http or private address unless WEBHOOKS_ALLOW_PRIVATE lifts the webhook rules', async () => {
    answers.set('/ok.json', { status: 200, body: document(`${origin}/ok.json`) });
    const strict = clientMetadataDocuments({ allowPrivate: false, resolve: loopback }, noOptions);
    expect(await strict.resolve(ctx, `${origin}/ok.json`, null)).toBeNull();
  });
});
