import { randomUUID } from 'node:crypto';
import type { ConcurrencyLimiter, LimiterOptions, LimiterSlot } from '../../concurrency-limiter.js';

/** Slots in this process's memory: one process is the whole service (IN_PROCESS_JOBS). */
export class InMemoryConcurrencyLimiter implements ConcurrencyLimiter {
  /** Per key, each slot's token and when its lease ends. */
  private readonly slots = new Map<string, Map<string, number>>();

  constructor(
    private readonly options: LimiterOptions,
    private readonly now: () => number = Date.now,
  ) {}

  acquire(key: string): Promise<LimiterSlot | null> {
    const now = this.now();
    const held = this.slots.get(key) ?? new Map<string, number>();
    for (const [token, until] of held) if (until <= now) held.delete(token);
    if (held.size >= this.options.cap) return Promise.resolve(null);
    const token = randomUUID();
    held.set(token, now + this.options.leaseMs);
    this.slots.set(key, held);
    return Promise.resolve({
      release: () => {
        held.delete(token);
        if (held.size === 0 && this.slots.get(key) === held) this.slots.delete(key);
        return Promise.resolve();
      },
    });
  }
}
