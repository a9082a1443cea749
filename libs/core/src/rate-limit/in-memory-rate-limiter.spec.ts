import fc from 'fast-check';
import { InMemoryRateLimiter } from './in-memory-rate-limiter.js';
import type { RateLimitPolicy } from './rate-limit.types.js';

describe('InMemoryRateLimiter', () => {
  const policy: RateLimitPolicy = { limit: 3, windowSeconds: 10 };
  let now: number;
  const clock = (): number => now;

  beforeEach(() => {
    now = 1_000_000;
  });

  it('admits up to the limit, then refuses with remaining 0 and a retry delay', () => {
    const limiter = new InMemoryRateLimiter(policy, { clock });

    const remaining = [0, 1, 2].map(() => limiter.consume('a').remaining);
    const refused = limiter.consume('a');

    expect(remaining).toEqual([2, 1, 0]);
    expect(refused).toEqual({ allowed: false, limit: 3, remaining: 0, resetSeconds: 10, retryAfterSeconds: 10 });
  });

  it('slides: each slot frees exactly when its own request leaves the window', () => {
    const limiter = new InMemoryRateLimiter(policy, { clock });
    limiter.consume('a'); // t = 0
    now += 4_000;
    limiter.consume('a'); // t = 4 s
    limiter.consume('a'); // t = 4 s

    now += 5_999; // t = 9.999 s: the first request is still in the window
    expect(limiter.consume('a')).toMatchObject({ allowed: false, retryAfterSeconds: 0.001 });

    now += 1; // t = 10 s: only the first request has left
    expect(limiter.consume('a')).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 4 });
    expect(limiter.consume('a').allowed).toBe(false);
  });

  it('does not record refusals, so waiting retryAfterSeconds is enough', () => {
    const limiter = new InMemoryRateLimiter(policy, { clock });
    for (let i = 0; i < 3; i++) limiter.consume('a');
    const first = limiter.consume('a');
    now += 5_000;
    for (let i = 0; i < 10; i++) limiter.consume('a'); // hammering while refused

    now += first.retryAfterSeconds! * 1000 - 5_000;
    expect(limiter.consume('a').allowed).toBe(true);
  });

  it('reports the time until the oldest admitted request expires as reset', () => {
    const limiter = new InMemoryRateLimiter(policy, { clock });
    expect(limiter.consume('a')).toEqual({
      allowed: true,
      limit: 3,
      remaining: 2,
      resetSeconds: 10,
      retryAfterSeconds: null,
    });
    now += 2_500;
    expect(limiter.consume('a').resetSeconds).toBe(7.5);
  });

  it('keeps subjects independent', () => {
    const limiter = new InMemoryRateLimiter(policy, { clock });
    for (let i = 0; i < 3; i++) limiter.consume('a');

    expect(limiter.consume('a').allowed).toBe(false);
    expect(limiter.consume('b')).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('forgets subjects once their window has passed', () => {
    const limiter = new InMemoryRateLimiter(policy, { clock });
    for (let i = 0; i < 100; i++) limiter.consume(`idle-${i}`);
    expect(limiter.size).toBe(100);

    now += 10_000;
    limiter.consume('active');

    expect(limiter.size).toBe(1);
  });

  it('decides and forgets exactly as a sweep from the least recently seen subject on every call would', () => {
    // The sweep of every call, as it was written before it learnt to skip a front still live.
    class EverySweep {
      private readonly logs = new Map<string, number[]>();
      constructor(private readonly maxSubjects: number) {}
      consume(subject: string): boolean {
        const log = this.logs.get(subject) ?? [];
        this.logs.delete(subject);
        while (log.length > 0 && log[0] <= now - 10_000) log.shift();
        for (const [other, entries] of this.logs) {
          if (entries.length > 0 && entries[entries.length - 1] > now - 10_000) break;
          this.logs.delete(other);
        }
        for (const other of this.logs.keys()) {
          if (this.logs.size < this.maxSubjects) break;
          this.logs.delete(other);
        }
        this.logs.set(subject, log);
        const allowed = log.length < 3;
        if (allowed) log.push(now);
        return allowed;
      }
      get size(): number {
        return this.logs.size;
      }
    }
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 6 }),
        fc.array(fc.record({ subject: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'), wait: fc.integer({ min: 0, max: 6_000 }) }), {
          maxLength: 200,
        }),
        (maxSubjects, calls) => {
          now = 1_000_000;
          const limiter = new InMemoryRateLimiter(policy, { clock, maxSubjects });
          const reference = new EverySweep(maxSubjects);
          for (const { subject, wait } of calls) {
            now += wait;
            const decision = limiter.consume(subject);
            expect(decision.allowed).toBe(reference.consume(subject));
            expect(limiter.size).toBe(reference.size);
          }
        },
      ),
      { seed: 1795, numRuns: 300 },
    );
  });

  it('never tracks more than maxSubjects, dropping the least recently seen', () => {
    const limiter = new InMemoryRateLimiter(policy, { clock, maxSubjects: 2 });
    for (let i = 0; i < 3; i++) limiter.consume('a');
    limiter.consume('b');
    limiter.consume('a'); // refused, but marks 'a' as recently seen
    limiter.consume('c'); // evicts 'b'

    expect(limiter.size).toBe(2);
    expect(limiter.consume('a').allowed).toBe(false);
    expect(limiter.consume('b').remaining).toBe(2);
  });

  it.each([[{ limit: 0, windowSeconds: 60 }], [{ limit: 120, windowSeconds: 0 }], [{ limit: 1.5, windowSeconds: 60 }]])(
    'rejects the invalid policy %o',
    (invalid) => {
      expect(() => new InMemoryRateLimiter(invalid)).toThrow(RangeError);
    },
  );

  it('uses a real clock by default', () => {
    const limiter = new InMemoryRateLimiter({ limit: 1, windowSeconds: 60 });
    expect(limiter.consume('a').allowed).toBe(true);
    expect(limiter.consume('a').allowed).toBe(false);
  });
});
