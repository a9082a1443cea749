/** A slot taken from TenantSlots; release() gives it back (a second call does nothing). */
export interface TenantSlot {
  release(): void;
}

export interface TenantSlotLimits {
  /** At most this many at once for one tenant (a live business and its sandbox together). */
  perTenant: number;
  /** At most this many at once in this process, all tenants together; unlimited when absent. */
  total?: number;
}

interface Waiter {
  tenant: string;
  grant(slot: TenantSlot): void;
}

/**
 * In-process slots of a resource shared by every tenant (docs/design-record.md#d24): a tenant
 * never holds more than its share, so what it does to itself (a receiver that never answers, a
 * name server that never replies) cannot take the resource from the others. Either taken at once
 * or refused (tryTake), or waited for in order of arrival until a signal ends the wait (take).
 */
export class TenantSlots {
  private readonly held = new Map<string, number>();
  private total = 0;
  private readonly waiting: Waiter[] = [];

  constructor(private readonly limits: TenantSlotLimits) {
    if (!(limits.perTenant >= 1)) throw new RangeError('TenantSlots: perTenant must be at least 1');
  }

  /** How many slots the tenant holds now. */
  heldBy(tenant: string): number {
    return this.held.get(tenant) ?? 0;
  }

  /** A slot now, or null when the tenant's share or the process's total is taken. */
  tryTake(tenant: string): TenantSlot | null {
    return this.free(tenant) ? this.grant(tenant) : null;
  }

  /** A slot as soon as one is free for this tenant; rejects with the signal's reason if it aborts first. */
  take(tenant: string, signal: AbortSignal): Promise<TenantSlot> {
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    // Behind earlier waiters of the same tenant, so that a tenant's own queue stays in order.
    if (this.free(tenant) && !this.waiting.some((waiter) => waiter.tenant === tenant)) return Promise.resolve(this.grant(tenant));
    return new Promise<TenantSlot>((resolve, reject) => {
      const waiter: Waiter = {
        tenant,
        grant: (slot) => {
          signal.removeEventListener('abort', onAbort);
          resolve(slot);
        },
      };
      const onAbort = () => {
        const index = this.waiting.indexOf(waiter);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(signal.reason as Error);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  private free(tenant: string): boolean {
    return this.heldBy(tenant) < this.limits.perTenant && (this.limits.total === undefined || this.total < this.limits.total);
  }

  private grant(tenant: string): TenantSlot {
    this.held.set(tenant, this.heldBy(tenant) + 1);
    this.total += 1;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const left = this.heldBy(tenant) - 1;
        if (left === 0) this.held.delete(tenant);
        else this.held.set(tenant, left);
        this.total -= 1;
        this.wakeNext();
      },
    };
  }

  /** Hands freed slots to the first waiters that may take one (another tenant's waiter may be first in line). */
  private wakeNext(): void {
    for (let i = 0; i < this.waiting.length;) {
      const waiter = this.waiting[i];
      if (!this.free(waiter.tenant)) {
        i += 1;
        continue;
      }
      this.waiting.splice(i, 1);
      waiter.grant(this.grant(waiter.tenant));
    }
  }
}
