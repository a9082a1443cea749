import { InMemoryConcurrencyLimiter } from './in-memory-concurrency-limiter.js';

describe('InMemoryConcurrencyLimiter', () => {
  let now = 0;
  const limiter = () => new InMemoryConcurrencyLimiter({ name: 'test', cap: 2, leaseMs: 1_000 }, () => now);

  beforeEach(() => {
    now = 10_000;
  });

  it('gives at most `cap` slots per key, and each key its own', async () => {
    const slots = limiter();
    const a1 = await slots.acquire('a');
    const a2 = await slots.acquire('a');
    expect([a1, a2].every((slot) => slot !== null)).toBe(true);
    expect(await slots.acquire('a')).toBeNull();
    expect(await slots.acquire('b')).not.toBeNull();
  });

  it('gives a slot back on release', async () => {
    const slots = limiter();
    const first = await slots.acquire('a');
    await slots.acquire('a');
    await first!.release();
    expect(await slots.acquire('a')).not.toBeNull();
    expect(await slots.acquire('a')).toBeNull();
  });

  it('frees a slot never given back once its lease is over', async () => {
    const slots = limiter();
    await slots.acquire('a');
    await slots.acquire('a');
    now += 999;
    expect(await slots.acquire('a')).toBeNull();
    now += 1;
    expect(await slots.acquire('a')).not.toBeNull();
  });
});
