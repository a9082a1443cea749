import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { generateApiKey } from '#core/api-keys/api-key-format.js';
import { SCOPES } from '#core/scopes/scope.js';
import { Child, freePort, REPO_ROOT } from '../utils/child-process.js';
import { E2eApi } from '../utils/e2e-api.js';
import { createKey, createTenant } from '../utils/tenant-factory.js';
import { keyOf, representativeCases, type CaseKeys, type RepresentativeCase } from './support/representative-requests.js';
import { loadRobustSalon, type RobustSalon } from './support/robust-salon.js';

/**
 * Issue 8.3: an independent check of the contract. The real API listens on a port and Stoplight
 * Prism, in proxy mode with --errors, stands in front of it; the representative requests (every
 * operation, successes and errors) go through Prism, which validates each request and response
 * against openapi/v1.5.0.yaml on its own (not with this repository's Ajv setup). Any violation it
 * reports (a `sl-violations` header, or its own problem in place of the API's answer) fails.
 *
 * Two proxies: one validates requests too, for the requests that follow the document; the other
 * (--validate-request=false) forwards the deliberately bad ones (400, 413, 415, a malformed id),
 * so that the API's answers to those are checked as well. A third, in front of an upstream that
 * answers nonsense, shows that Prism does report violations here.
 */
jest.setTimeout(120_000);

const PRISM = join(REPO_ROOT, 'node_modules', '.bin', 'prism');
const CONTRACT = join(REPO_ROOT, 'openapi', 'v1.5.0.yaml');

let api: E2eApi;
let salon: RobustSalon;
let keys: CaseKeys;
let liar: Server;
const proxies: Child[] = [];
let validating: string;
let forwarding: string;
let selfTest: string;

async function startPrism(upstream: string, extra: string[] = []): Promise<string> {
  const port = await freePort();
  const child = Child.spawn(
    process.execPath,
    [PRISM, 'proxy', CONTRACT, upstream, '--errors', '--port', String(port), '--host', '127.0.0.1', ...extra],
    { PATH: process.env.PATH, NO_COLOR: '1' },
  );
  proxies.push(child);
  await child.waitForOutput(/Prism is listening/, 60_000);
  return `http://127.0.0.1:${port}`;
}

interface ProxyAnswer {
  status: number;
  violations: string | null;
  text: string;
}

async function through(base: string, c: RepresentativeCase): Promise<ProxyAnswer> {
  const key = keyOf(c, keys);
  const res = await fetch(`${base}${c.path}`, {
    method: c.method,
    headers: { ...c.headers, ...(key ? { Authorization: `Bearer ${key}` } : {}) },
    body: c.body,
  });
  return { status: res.status, violations: res.headers.get('sl-violations'), text: await res.text() };
}

beforeAll(async () => {
  api = await E2eApi.start();
  await api.app.listen(0, '127.0.0.1');
  const { port } = api.app.getHttpServer().address() as AddressInfo;
  liar = createServer((_req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.setHeader('X-Request-Id', 'liar');
    res.end(JSON.stringify({ hello: 'world' }));
  });
  await new Promise<void>((done) => liar.listen(0, '127.0.0.1', done));
  const liarPort = (liar.address() as AddressInfo).port;
  [validating, forwarding, selfTest] = await Promise.all([
    startPrism(`http://127.0.0.1:${port}/v1/api`),
    startPrism(`http://127.0.0.1:${port}/v1/api`, ['--validate-request=false']),
    startPrism(`http://127.0.0.1:${liarPort}/v1/api`, ['--validate-request=false']),
  ]);

  salon = await loadRobustSalon({ activeAppointments: 4 });
  const free = await createTenant({ plan: 'FREE' });
  const exhausted = await createKey(api.app, salon.tenant, SCOPES);
  for (let i = 0; i < 120; i += 1) expect((await api.get('/me', { key: exhausted })).status).toBe(200);
  keys = {
    'all-scopes': salon.tenant.key,
    'free-plan': free.key,
    'wrong-scope': await createKey(api.app, salon.tenant, ['services.read']),
    'wrong-scope-services': await createKey(api.app, salon.tenant, ['sales.read']),
    exhausted,
    unknown: generateApiKey(),
  };
});

afterAll(async () => {
  await Promise.all(proxies.map((p) => p.kill()));
  await new Promise((done) => liar?.close(done));
  await api?.close();
});

describe('Stoplight Prism (proxy, --errors) in front of the real API', () => {
  it('reports a violation when the upstream breaks the contract (the check is live)', async () => {
    const answer = await through(
      selfTest,
      representativeCases(salon, 9).find((c) => c.operationId === 'getMe' && c.status === 200)!,
    );
    expect(answer.violations).toContain('Response body must have required property');
  });

  it('finds no violation in the answers to every operation, successes and errors', async () => {
    const cases = representativeCases(salon, 3);
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const c of cases) {
      const answer = await through(c.invalidRequest ? forwarding : validating, c);
      seen.add(c.operationId);
      if (answer.violations !== null || answer.status !== c.status) {
        problems.push(
          `${c.method} ${c.path.slice(0, 80)} (${c.operationId}, ${c.label}): expected ${c.status}, got ${answer.status}` +
            `${answer.violations ? ` with sl-violations ${answer.violations}` : ''} ${answer.text.slice(0, 300)}`,
        );
      }
    }
    expect(seen.size).toBe(29);
    expect(problems).toEqual([]);
  });
});
