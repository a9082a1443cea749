/**
 * Runs `batch` (a statement that changes at most `size` rows and says how many it changed) until
 * one changes fewer than `size`, so that no single statement holds its locks for long. Returns
 * the rows changed in all.
 */
export async function inBatches(size: number, batch: (size: number) => Promise<number>): Promise<number> {
  let changed = 0;
  for (;;) {
    const count = await batch(size);
    changed += count;
    if (count < size) return changed;
  }
}
