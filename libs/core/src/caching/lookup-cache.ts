interface Entry<T> {
  value: T;
  expiresAt: number;
  /** Read or written since eviction last passed over it. */
  used: boolean;
}

/**
 * A bounded map of lookups that expire, evicting a least recently used entry when full, by second
 * chance: a hit only marks its entry, and eviction sends a marked entry to the back once instead of
 * evicting it. A hit changes nothing in the Map itself: deleting and re-inserting on every hit, as
 * a strict LRU over a Map must, made new hash tables at the rate of requests, and under the
 * failed-authentication flood those were the largest part of what the API's young collections
 * moved to its old generation (docs/performance.md, "Sixth look").
 */
export class LookupCache<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(private readonly capacity: number) {}

  /** The value, or undefined when absent or expired. */
  get(key: string, now: number): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    entry.used = true;
    return entry.value;
  }

  set(key: string, value: T, expiresAt: number): void {
    const entry = this.entries.get(key);
    if (entry) {
      entry.value = value;
      entry.expiresAt = expiresAt;
      entry.used = true;
      return;
    }
    if (this.entries.size >= this.capacity) this.evictOne();
    this.entries.set(key, { value, expiresAt, used: false });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The oldest entry not used since eviction last passed over it; used ones go to the back, unmarked. */
  private evictOne(): void {
    for (const [key, entry] of this.entries) {
      this.entries.delete(key);
      if (!entry.used) return;
      entry.used = false;
      this.entries.set(key, entry);
    }
  }
}
