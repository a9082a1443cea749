import { RoundTripBatcher } from './round-trip-batcher.js';

function recording(options = { maxBatch: 100, maxInFlight: 1 }) {
  const batches: number[][] = [];
  let release: (() => void) | null = null;
  let hold = false;
  const batcher = new RoundTripBatcher<number, number>(async (items) => {
    batches.push(items);
    if (hold) await new Promise<void>((resolve) => (release = resolve));
    if (items.includes(13) && items.length > 1) throw new Error('unlucky batch');
    if (items.includes(13)) throw new Error('unlucky item');
    return items.map((item) => item * 2);
  }, options);
  return {
    batcher,
    batches,
    holdNext: () => (hold = true),
    release: () => {
      hold = false;
      release?.();
    },
  };
}

describe('RoundTripBatcher', () => {
  it('answers a lone call', async () => {
    const { batcher, batches } = recording();
    await expect(batcher.call(4)).resolves.toBe(8);
    expect(batches).toEqual([[4]]);
  });

  it('sends the calls of one turn together, each answered with its own result', async () => {
    const { batcher, batches } = recording();
    await expect(Promise.all([1, 2, 3].map((n) => batcher.call(n)))).resolves.toEqual([2, 4, 6]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('keeps calls made while a batch is under way for the next one', async () => {
    const { batcher, batches, holdNext, release } = recording();
    holdNext();
    const first = batcher.call(1);
    await new Promise((resolve) => setImmediate(resolve));
    const later = [batcher.call(2), batcher.call(3)];
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(batches).toEqual([[1]]);
    release();
    await expect(Promise.all([first, ...later])).resolves.toEqual([2, 4, 6]);
    expect(batches).toEqual([[1], [2, 3]]);
  });

  it('splits at maxBatch', async () => {
    const { batcher, batches } = recording({ maxBatch: 2, maxInFlight: 1 });
    await Promise.all([1, 2, 3, 4, 5].map((n) => batcher.call(n)));
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('runs the items of a failed batch one by one, so only the bad one fails', async () => {
    const { batcher, batches } = recording();
    const results = await Promise.allSettled([12, 13, 14].map((n) => batcher.call(n)));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([24, 'unlucky item', 28]);
    expect(batches).toEqual([[12, 13, 14], [12], [13], [14]]);
  });
});
