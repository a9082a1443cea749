import { RoundRobinTenantSlots } from './round-robin-tenant-slots.js';
import { ShareWaitTimeoutError } from './connection-wait.js';

/** The settings of pg's pool the share is made of: its size and its longest wait for a connection. */
export interface PoolShareSettings {
  /** Connections of the pool (DATABASE_POOL_SIZE). */
  max: number;
  /** DATABASE_CONNECT_TIMEOUT_MS: the longest a request waits for its turn; 0 waits without end, as pg does. */
  connectionTimeoutMillis: number;
}

/** The most connections one tenant holds at once in a pool of `poolSize`: half of it, at least one. */
export function sharePerTenant(poolSize: number): number {
  return Math.max(1, Math.floor(poolSize / 2));
}

/**
 * Each tenant's share of the process's database pool (docs/design-record.md#pool-share-per-business):
 * a request of a tenant takes one of the tenant's slots before it takes a connection, and gives it
 * back with the connection. A tenant holds at most half of the pool; its further requests wait in
 * its own queue, served round robin with other tenants' when the pool is all taken, at most
 * DATABASE_CONNECT_TIMEOUT_MS (then ShareWaitTimeoutError: 503 SERVICE_UNAVAILABLE, as pg's own
 * wait). Statements outside any tenant (the key lookup, the worker, admin) take no slot: they wait
 * for a connection in pg's own queue, beside the tenants' admitted requests.
 */
export class PoolShare {
  private slots: RoundRobinTenantSlots | undefined;
  private timeoutMs = 0;

  /** `settings`: read at the first request of a tenant, once the pool exists. */
  constructor(private readonly settings: () => PoolShareSettings) {}

  /** Connections the tenant holds (or is being given) now. */
  heldBy(tenant: string): number {
    return this.slots?.heldBy(tenant) ?? 0;
  }

  /** The tenant's requests waiting for their turn now. */
  waitingOf(tenant: string): number {
    return this.slots?.waitingOf(tenant) ?? 0;
  }

  /** Slots held and requests waiting, all tenants together (for the metrics). */
  inAll(): { held: number; waiting: number } {
    return { held: this.slots?.heldInAll() ?? 0, waiting: this.slots?.waitingInAll() ?? 0 };
  }

  /**
   * Takes one of the tenant's slots: undefined when taken at once (the usual case, without a
   * promise), else a promise of the tenant's turn, which rejects with ShareWaitTimeoutError after
   * DATABASE_CONNECT_TIMEOUT_MS. Every slot taken is given back by leave(tenant), once.
   */
  enter(tenant: string): Promise<void> | undefined {
    const slots = (this.slots ??= this.made());
    return slots.tryTake(tenant) ? undefined : this.waitFor(slots, tenant);
  }

  leave(tenant: string): void {
    this.slots!.release(tenant);
  }

  private async waitFor(slots: RoundRobinTenantSlots, tenant: string): Promise<void> {
    const signal = this.timeoutMs > 0 ? AbortSignal.timeout(this.timeoutMs) : new AbortController().signal;
    try {
      await slots.take(tenant, signal);
    } catch (error) {
      if (signal.aborted) throw new ShareWaitTimeoutError(this.timeoutMs);
      throw error;
    }
  }

  private made(): RoundRobinTenantSlots {
    const { max, connectionTimeoutMillis } = this.settings();
    this.timeoutMs = connectionTimeoutMillis;
    return new RoundRobinTenantSlots({ perTenant: sharePerTenant(max), total: max });
  }
}
