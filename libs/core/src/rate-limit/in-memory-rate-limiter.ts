import { performance } from 'node:perf_hooks';
import { assertValidPolicy, toDecision } from './rate-limit-decision.js';
import type { Clock, RateLimitDecision, RateLimitPolicy } from './rate-limit.types.js';

export interface InMemoryRateLimiterOptions {
  /** Milliseconds; monotonic by default so wall-clock steps (NTP) cannot reopen or stretch a window. */
  clock?: Clock;
  /** Hard cap on tracked subjects; beyond it the least recently seen subject is forgotten. */
  maxSubjects?: number;
}

const DEFAULT_MAX_SUBJECTS = 10_000;

/**
 * The same exact sliding log as the Redis script, for one process. Used when Redis is
 * unreachable, so a degraded instance still limits instead of refusing or admitting everything.
 *
 * Memory is bounded twice: a subject's log never exceeds `limit` entries (refusals are not
 * recorded), and the subject map is kept in least-recently-seen order so idle subjects are
 * dropped from its front cheaply, with `maxSubjects` as a hard ceiling.
 */
export class InMemoryRateLimiter {
  private readonly logs = new Map<string, number[]>();
  private readonly windowMs: number;
  private readonly clock: Clock;
  private readonly maxSubjects: number;

  constructor(
    private readonly policy: RateLimitPolicy,
    options: InMemoryRateLimiterOptions = {},
  ) {
    assertValidPolicy(policy);
    const maxSubjects = options.maxSubjects ?? DEFAULT_MAX_SUBJECTS;
    if (!Number.isSafeInteger(maxSubjects) || maxSubjects < 1) {
      throw new RangeError(`maxSubjects must be a positive integer, got ${maxSubjects}`);
    }
    this.maxSubjects = maxSubjects;
    this.windowMs = policy.windowSeconds * 1000;
    this.clock = options.clock ?? (() => performance.now());
  }

  consume(subject: string): RateLimitDecision {
    const now = this.clock();
    const log = this.touch(subject, now);

    const allowed = log.length < this.policy.limit;
    if (allowed) {
      log.push(now);
    }
    // log[0] exists: either we just pushed, or the log is full.
    const msUntilOldestExpires = log[0] + this.windowMs - now;
    return toDecision(this.policy, allowed, this.policy.limit - log.length, msUntilOldestExpires);
  }

  /** Whether `consume` would admit now, recording nothing. */
  peek(subject: string): RateLimitDecision {
    const now = this.clock();
    const log = this.logs.get(subject);
    if (log) this.prune(log, now);
    const count = log?.length ?? 0;
    const msUntilOldestExpires = log && count > 0 ? log[0] + this.windowMs - now : 0;
    return toDecision(this.policy, count < this.policy.limit, this.policy.limit - count, msUntilOldestExpires);
  }

  /**
   * Records an admission decided elsewhere (by the shared Redis limiter), so that if this limiter
   * has to take over it knows what this instance already admitted in the window.
   */
  recordAdmission(subject: string): void {
    const now = this.clock();
    const log = this.touch(subject, now);
    if (log.length < this.policy.limit) log.push(now);
  }

  /** Number of subjects currently tracked; exposed for tests and metrics. */
  get size(): number {
    return this.logs.size;
  }

  /** Returns the subject's pruned log, moved to the most-recently-seen end of the map. */
  private touch(subject: string, now: number): number[] {
    const log = this.logs.get(subject) ?? [];
    this.logs.delete(subject);
    if (subject === this.front) this.frontLiveUntil = Number.NEGATIVE_INFINITY;
    this.prune(log, now);
    this.evictIdle(now);
    this.logs.set(subject, log);
    return log;
  }

  private prune(log: number[], now: number): void {
    const cutoff = now - this.windowMs;
    let expired = 0;
    while (expired < log.length && log[expired] <= cutoff) {
      expired++;
    }
    if (expired > 0) {
      log.splice(0, expired);
    }
  }

  /**
   * The least recently seen subject, where the last sweep stopped, and until when its newest entry
   * keeps it: before then a sweep would stop at it again. Starting an iteration of the map is not
   * O(1): it steps over every entry deleted since the map was last rehashed, and touch deletes one
   * on every call, so sweeping on every call cost a few µs per request (docs/design-record.md#d11).
   */
  private front: string | undefined;
  private frontLiveUntil = Number.NEGATIVE_INFINITY;

  /**
   * Drops subjects from the least-recently-seen end while their newest entry has expired; stops at
   * the first live one so each call stays O(1) amortised. Then enforces the hard ceiling, which only
   * makes a forgotten subject's limit more lenient, never stricter.
   */
  private evictIdle(now: number): void {
    if (now >= this.frontLiveUntil) {
      const cutoff = now - this.windowMs;
      this.front = undefined;
      this.frontLiveUntil = Number.NEGATIVE_INFINITY;
      for (const [subject, log] of this.logs) {
        const newest = log.at(-1);
        if (newest !== undefined && newest > cutoff) {
          this.front = subject;
          this.frontLiveUntil = newest + this.windowMs;
          break;
        }
        this.logs.delete(subject);
      }
    }
    if (this.logs.size < this.maxSubjects) return;
    this.frontLiveUntil = Number.NEGATIVE_INFINITY;
    for (const subject of this.logs.keys()) {
      if (this.logs.size < this.maxSubjects) {
        break;
      }
      this.logs.delete(subject);
    }
  }
}
