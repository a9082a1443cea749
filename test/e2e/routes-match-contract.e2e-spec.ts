import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { RequestMethod } from '@nestjs/common';
import { DiscoveryService, Reflector } from '@nestjs/core';
import type { ExecutionContext } from '@nestjs/common';
import { PUBLIC_ROUTE } from '#api/auth/route-access.decorators.js';
import { operationOf } from '#http/operation-metadata.js';
import { operationsById } from '#contract/openapi-document.js';
import { ServedContract } from '#contract/served-contract.js';
import { E2eApi } from '../utils/e2e-api.js';

let api: E2eApi;
beforeAll(async () => {
  api = await E2eApi.start();
});
afterAll(() => api.close());

interface Route {
  method: string;
  path: string;
  scope: string | undefined;
  isPublic: boolean;
}

/** What Nest serves (its route metadata) and the scope ScopeGuard enforces on it. */
function registeredRoutes(): Route[] {
  const discovery = api.app.get(DiscoveryService, { strict: false });
  const reflector = api.app.get(Reflector);
  const routes: Route[] = [];
  for (const wrapper of discovery.getControllers()) {
    const type = wrapper.metatype as (new (...args: unknown[]) => object) | null;
    if (!type) continue;
    const base = String(Reflect.getMetadata(PATH_METADATA, type) ?? '');
    const classPublic = Reflect.getMetadata(PUBLIC_ROUTE, type) === true;
    for (const name of Object.getOwnPropertyNames(type.prototype)) {
      const handler = (type.prototype as Record<string, unknown>)[name];
      if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
      const sub = String(Reflect.getMetadata(PATH_METADATA, handler) ?? '');
      const segments = [base, sub].flatMap((part) => part.split('/')).filter(Boolean);
      const context = { getHandler: () => handler, getClass: () => type } as unknown as ExecutionContext;
      routes.push({
        method: RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number].toLowerCase(),
        path: `/${segments.join('/')}`.replace(/:(\w+)/g, '{$1}'),
        scope: operationOf(reflector, context)?.scope ?? undefined,
        isPublic: classPublic || Reflect.getMetadata(PUBLIC_ROUTE, handler) === true,
      });
    }
  }
  return routes;
}

describe('routes and the contract', () => {
  it('every keyed route is an operation of the document and enforces exactly its x-required-scope', () => {
    const operations = [...operationsById(api.app.get(ServedContract).document).values()];
    const routes = registeredRoutes().filter((r) => !r.isPublic);
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) {
      const operation = operations.find((o) => o.method === route.method && o.path === route.path);
      expect({ route: `${route.method} ${route.path}`, found: Boolean(operation) }).toEqual({
        route: `${route.method} ${route.path}`,
        found: true,
      });
      expect({ route: route.path, scope: route.scope }).toEqual({
        route: route.path,
        scope: operation!.operation['x-required-scope'],
      });
    }
  });

  it('every operation of the document is served by a keyed route', () => {
    const served = new Set(
      registeredRoutes()
        .filter((r) => !r.isPublic)
        .map((r) => `${r.method} ${r.path}`),
    );
    const documented = [...operationsById(api.app.get(ServedContract).document).values()].map((o) => `${o.method} ${o.path}`);
    expect(documented.filter((o) => !served.has(o))).toEqual([]);
  });
});
