/** A slot taken from a ConcurrencyLimiter; give it back when the work is done. */
export interface LimiterSlot {
  release(): Promise<void>;
}

/**
 * At most `cap` pieces of work per key at once, across every process that shares the driver (the
 * BullMQ driver keeps the slots in Redis; the in-memory one in this process). A slot not given
 * back (a process that died mid-work) is freed after its lease.
 */
export interface ConcurrencyLimiter {
  /** A slot of `key`, or null when `cap` are taken. */
  acquire(key: string): Promise<LimiterSlot | null>;
}

export interface LimiterOptions {
  /** Names the limiter's keys; one name per kind of work. */
  name: string;
  cap: number;
  /** How long a slot lasts if it is never given back: longer than any piece of work takes. */
  leaseMs: number;
}
