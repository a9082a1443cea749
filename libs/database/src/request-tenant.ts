import { AsyncLocalStorage } from 'node:async_hooks';

/** The tenant of a request once its key is known; undefined before (the key lookup itself). */
interface RequestTenant {
  id: string | undefined;
}

/**
 * Set for the whole of every API request (an Express middleware), empty until the request's key
 * is authenticated, then naming its tenant: a live business and its sandbox together
 * (docs/design-record.md#d24). What the request runs after that, however deep, draws on that
 * tenant's share of the database pool (docs/design-record.md#pool-share-per-business). A worker's
 * job, an admin command and a request not yet authenticated run outside any tenant and are not
 * limited by it.
 */
const scope = new AsyncLocalStorage<RequestTenant>();

/** Runs a request (the rest of its handling) in a scope of its own, without a tenant yet. */
export function inRequestScope<T>(handle: () => T): T {
  return scope.run({ id: undefined }, handle);
}

/** Names the request's tenant, once its key is authenticated; does nothing outside a request's scope. */
export function setRequestTenant(tenantId: string): void {
  const current = scope.getStore();
  if (current) current.id = tenantId;
}

/** The tenant of the request the caller runs for, or undefined (not yet authenticated, or no request). */
export function requestTenant(): string | undefined {
  return scope.getStore()?.id;
}
