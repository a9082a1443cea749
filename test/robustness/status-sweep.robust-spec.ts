import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { RequestMethod } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { PUBLIC_ROUTE } from '#api/auth/route-access.decorators.js';
import { loadContract, operationsById } from '#contract/openapi-document.js';
import { ServedContract } from '#contract/served-contract.js';
import { generateApiKey } from '#core/api-keys/api-key-format.js';
import { SCOPES } from '#core/scopes/scope.js';
import { REPO_ROOT } from '../utils/child-process.js';
import { E2eApi } from '../utils/e2e-api.js';
import { createKey, createTenant } from '../utils/tenant-factory.js';
import { keyOf, representativeCases, type CaseKeys, type RepresentativeCase } from './support/representative-requests.js';
import { loadRobustSalon, type RobustSalon } from './support/robust-salon.js';

/**
 * Issue 8.2, the producing half of the coverage gate: one request for every operation × status the
 * contract documents (500 comes from outages.robust-spec.ts), each answered exactly as documented.
 * The routes Nest registers and the document's operations are the same set, both ways.
 */
let api: E2eApi;
let salon: RobustSalon;
let keys: CaseKeys;
let cases: RepresentativeCase[];

beforeAll(async () => {
  api = await E2eApi.start();
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
  cases = representativeCases(salon, 0);
});
afterAll(() => api.close());

/** Every handler Nest registered, with the path the document writes (`{id}`), outside the public ones. */
function registeredOperations(): string[] {
  const discovery = api.app.get(DiscoveryService, { strict: false });
  const routes: string[] = [];
  for (const wrapper of discovery.getControllers()) {
    const type = wrapper.metatype as (new (...args: unknown[]) => object) | null;
    if (!type || Reflect.getMetadata(PUBLIC_ROUTE, type) === true) continue;
    const base = String(Reflect.getMetadata(PATH_METADATA, type) ?? '');
    for (const name of Object.getOwnPropertyNames(type.prototype)) {
      const handler = (type.prototype as Record<string, unknown>)[name];
      if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
      if (Reflect.getMetadata(PUBLIC_ROUTE, handler) === true) continue;
      const sub = String(Reflect.getMetadata(PATH_METADATA, handler) ?? '');
      const path = `/${[base, sub].filter((p) => p && p !== '/').join('/')}`.replace(/:(\w+)/g, '{$1}');
      routes.push(`${RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number].toLowerCase()} ${path}`);
    }
  }
  return routes.sort();
}

describe('routes and the contract, both ways', () => {
  it('Nest registers exactly the operations of the document, no more and no fewer', () => {
    // The served contract: the core's operations and the enabled extensions' (none unless EXTENSIONS names one).
    const documented = [...operationsById(api.app.get(ServedContract).document).values()].map((o) => `${o.method} ${o.path}`).sort();
    // Outside the API: the public document, docs, health and metrics routes are marked @Public.
    expect(registeredOperations()).toEqual(documented);
  });
});

describe('every operation × documented status, once', () => {
  it('has a case for every operation × status but 500 and the excluded ones', () => {
    const { document } = loadContract();
    const { excluded } = JSON.parse(readFileSync(join(REPO_ROOT, 'test', 'robustness', 'contract-coverage-exclusions.json'), 'utf8')) as {
      excluded: { operationId: string; status: number }[];
    };
    const excludedPairs = new Set(excluded.map((e) => `${e.operationId} ${e.status}`));
    const covered = new Set(representativeCases(salon, 1).map((c) => `${c.operationId} ${c.status}`));
    const missing: string[] = [];
    for (const { operation } of operationsById(document).values()) {
      for (const status of Object.keys(operation.responses)) {
        const pair = `${operation.operationId} ${status}`;
        // 500 and 503 come from outages.robust-spec.ts (the database stopped; the pool held).
        if (status !== '500' && status !== '503' && !excludedPairs.has(pair) && !covered.has(pair)) missing.push(pair);
      }
    }
    expect(missing).toEqual([]);
  });

  it('answers each case as documented', async () => {
    const wrong: string[] = [];
    for (const c of cases) {
      const res = await api.call(c.method, c.path, { key: keyOf(c, keys), headers: c.headers, rawBody: c.body });
      const code = res.status >= 400 ? (res.body.code as string) : undefined;
      if (res.status !== c.status || code !== c.code) {
        wrong.push(
          `${c.operationId} (${c.label}): expected ${c.status} ${c.code ?? ''}, got ${res.status} ${code ?? ''} ${res.text.slice(0, 200)}`,
        );
      }
    }
    expect(wrong).toEqual([]);
  });
});
