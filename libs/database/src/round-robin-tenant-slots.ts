export interface RoundRobinLimits {
  /** At most this many at once for one tenant (a live business and its sandbox together). */
  perTenant: number;
  /** At most this many at once in this process, all tenants together. */
  total: number;
}

interface Waiter {
  grant(): void;
}

/**
 * In-process slots of a resource every tenant draws on at a high rate (the database pool,
 * docs/design-record.md#pool-share-per-business): a tenant never holds more than its share, and
 * when the whole is taken, a freed slot goes to the tenants that wait in turn, round robin, not to
 * whoever asked first. So a tenant that sends many requests at once waits mostly behind itself:
 * another tenant's request is at most one turn away, however long the first one's queue.
 *
 * Unlike TenantSlots (a few slow things: test pings, name lookups), slots here are taken for every
 * statement: taking and giving one back are counted by tenant, with no object per slot, so the
 * caller gives back by naming the tenant it took for, exactly once per slot taken.
 */
export class RoundRobinTenantSlots {
  private readonly held = new Map<string, number>();
  private total = 0;
  /**
   * The tenants that wait, each with its waiters in order of arrival. A Map keeps its keys in
   * insertion order: a tenant served goes back to the end, which makes the order the round robin.
   */
  private readonly waiting = new Map<string, Waiter[]>();

  constructor(private readonly limits: RoundRobinLimits) {
    if (!(limits.perTenant >= 1)) throw new RangeError('RoundRobinTenantSlots: perTenant must be at least 1');
    if (!(limits.total >= limits.perTenant)) throw new RangeError('RoundRobinTenantSlots: total must be at least perTenant');
  }

  /** How many slots the tenant holds now. */
  heldBy(tenant: string): number {
    return this.held.get(tenant) ?? 0;
  }

  /** How many of the tenant's requests wait for a slot now. */
  waitingOf(tenant: string): number {
    return this.waiting.get(tenant)?.length ?? 0;
  }

  /** Slots held now, all tenants together. */
  heldInAll(): number {
    return this.total;
  }

  /** Requests that wait now, all tenants together. */
  waitingInAll(): number {
    let count = 0;
    for (const waiters of this.waiting.values()) count += waiters.length;
    return count;
  }

  /**
   * Takes a slot now if one is free for the tenant and none of its own requests waits before it
   * (its queue stays in order); false otherwise, and nothing is taken.
   */
  tryTake(tenant: string): boolean {
    if (!this.free(tenant) || this.waiting.has(tenant)) return false;
    this.count(tenant, 1);
    return true;
  }

  /**
   * Resolves once a slot is the tenant's: at once when tryTake would give one, else in the
   * tenant's turn. Rejects with the signal's reason if it aborts first; the slot is then not taken.
   */
  take(tenant: string, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    if (this.tryTake(tenant)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.forget(tenant, waiter);
        reject(signal.reason as Error);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      const queue = this.waiting.get(tenant);
      if (queue) queue.push(waiter);
      else this.waiting.set(tenant, [waiter]);
    });
  }

  /** Gives back one slot the tenant took, and hands what is free to the next waiters in turn. */
  release(tenant: string): void {
    if (this.heldBy(tenant) === 0) throw new Error('RoundRobinTenantSlots: a slot was given back that was not taken');
    this.count(tenant, -1);
    if (this.waiting.size > 0) this.wakeInTurn();
  }

  private free(tenant: string): boolean {
    return this.total < this.limits.total && this.heldBy(tenant) < this.limits.perTenant;
  }

  private count(tenant: string, change: 1 | -1): void {
    const now = this.heldBy(tenant) + change;
    if (now === 0) this.held.delete(tenant);
    else this.held.set(tenant, now);
    this.total += change;
  }

  /**
   * While slots are free: the first tenant in turn that may take one gets it for its oldest
   * waiter, and goes to the end of the turn. A tenant at its share keeps its place.
   */
  private wakeInTurn(): void {
    while (this.total < this.limits.total) {
      let served: string | undefined;
      for (const tenant of this.waiting.keys()) {
        if (this.heldBy(tenant) < this.limits.perTenant) {
          served = tenant;
          break;
        }
      }
      if (served === undefined) return;
      const queue = this.waiting.get(served)!;
      const waiter = queue.shift()!;
      this.waiting.delete(served);
      if (queue.length > 0) this.waiting.set(served, queue);
      this.count(served, 1);
      waiter.grant();
    }
  }

  private forget(tenant: string, waiter: Waiter): void {
    const queue = this.waiting.get(tenant);
    if (!queue) return;
    const index = queue.indexOf(waiter);
    if (index >= 0) queue.splice(index, 1);
    // Deleted only when empty: a tenant keeps its turn while others of its requests wait.
    if (queue.length === 0) this.waiting.delete(tenant);
  }
}
