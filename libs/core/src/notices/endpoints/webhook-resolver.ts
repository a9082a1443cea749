import { Inject, Injectable } from '@nestjs/common';
import { refuseInsideTransaction } from '#database/database.js';
import { TenantSlots } from '../../concurrency/tenant-slots.js';
import type { HostLookup, ResolvedAddress } from './host-lookup.js';

/** The resolver webhook addresses are looked up with; a token so that tests can answer for names they invent. */
export const HOST_LOOKUP = Symbol('HOST_LOOKUP');

/** Lookups of one business (live and sandbox together) under way at once, per process (docs/design-record.md#d24). */
export const LOOKUPS_PER_BUSINESS = 2;

function lookupStopped(hostname: string, signal: AbortSignal): Error {
  return Object.assign(new Error(`the lookup of ${hostname} timed out`), { code: 'ETIMEOUT', cause: signal.reason as unknown });
}

/** Settles with the promise, or rejects when the signal aborts first. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal, stopped: () => Error): Promise<T> {
  if (signal.aborted) return Promise.reject(stopped());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(stopped());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Name resolution for webhook addresses, shared fairly between businesses (docs/design-record.md#d24): a
 * business resolves at most LOOKUPS_PER_BUSINESS names at once, and the time it waits for its turn
 * counts in its own time-out, so a business whose name server never answers only ever delays
 * itself. Refuses to run inside a transaction.
 */
@Injectable()
export class WebhookResolver {
  private readonly slots = new TenantSlots({ perTenant: LOOKUPS_PER_BUSINESS });

  constructor(@Inject(HOST_LOOKUP) private readonly lookup: HostLookup) {}

  /** `business` is the live business's slug or id (a sandbox counts as its live business). */
  async resolve(business: string, hostname: string, timeoutMs: number): Promise<ResolvedAddress[]> {
    refuseInsideTransaction(`Resolving ${hostname}`);
    const signal = AbortSignal.timeout(timeoutMs);
    const stopped = () => lookupStopped(hostname, signal);
    const slot = await this.slots.take(business, signal).catch(() => Promise.reject(stopped()));
    try {
      // The lookup stops itself on the signal; the race also bounds a lookup that would not.
      return await untilAborted(this.lookup(hostname, signal), signal, stopped);
    } finally {
      slot.release();
    }
  }

  /** Lookups of the business under way now (tests and metrics). */
  underWay(business: string): number {
    return this.slots.heldBy(business);
  }
}
