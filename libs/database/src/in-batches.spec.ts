import { inBatches } from './in-batches.js';

describe('inBatches', () => {
  it('runs batches until one changes fewer rows than its size, and adds them up', async () => {
    const left = [10, 10, 4];
    const sizes: number[] = [];
    const changed = await inBatches(10, (size) => {
      sizes.push(size);
      return Promise.resolve(left.shift()!);
    });
    expect(changed).toBe(24);
    expect(sizes).toEqual([10, 10, 10]);
  });

  it('runs once when the first batch is short, even empty', async () => {
    let runs = 0;
    expect(
      await inBatches(10, () => {
        runs += 1;
        return Promise.resolve(0);
      }),
    ).toBe(0);
    expect(runs).toBe(1);
  });
});
