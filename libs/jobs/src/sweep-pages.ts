import { PollingLoop } from './polling-loop.js';

/** Rows handed over per page, and pages per sweep: the rest waits for the next sweep. */
export const SWEEP_PAGE = 500;
export const SWEEP_MAX_PAGES = 20;

/**
 * One sweep of a table for work whose jobs may be missing: reads a page of rows after the last one
 * (keyset), hands it to the queue, and goes on while pages come back full, at most
 * SWEEP_MAX_PAGES of them. Returns how many rows it handed over.
 */
export async function sweepPages<R>(
  page: (after: R | null, limit: number) => Promise<R[]>,
  handOver: (rows: R[]) => Promise<void>,
): Promise<number> {
  let after: R | null = null;
  let handed = 0;
  for (let n = 0; n < SWEEP_MAX_PAGES; n += 1) {
    const rows = await page(after, SWEEP_PAGE);
    await handOver(rows);
    handed += rows.length;
    if (rows.length < SWEEP_PAGE) break;
    after = rows[rows.length - 1];
  }
  return handed;
}

/** The loop of a sweep: at start and every `everyMs` (sooner when woken); one sweep hands over all it finds, so it never runs again at once. */
export function sweepLoop(
  what: string,
  everyMs: number,
  sweep: () => Promise<unknown>,
  logger: { error(message: string): void },
): PollingLoop {
  return new PollingLoop({
    what,
    everyMs,
    step: async () => {
      await sweep();
      return false;
    },
    logger,
  });
}
