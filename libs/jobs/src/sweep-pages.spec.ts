import { SWEEP_MAX_PAGES, SWEEP_PAGE, sweepPages } from './sweep-pages.js';

describe('sweepPages', () => {
  it('pages after the last row while pages come back full, and hands over each page', async () => {
    const rows = Array.from({ length: SWEEP_PAGE * 2 + 3 }, (_, i) => i);
    const handed: number[][] = [];
    const count = await sweepPages(
      (after: number | null, limit) => Promise.resolve(rows.filter((row) => after === null || row > after).slice(0, limit)),
      (page) => {
        handed.push(page);
        return Promise.resolve();
      },
    );
    expect(count).toBe(rows.length);
    expect(handed.map((page) => page.length)).toEqual([SWEEP_PAGE, SWEEP_PAGE, 3]);
    expect(handed.flat()).toEqual(rows);
  });

  it('stops after SWEEP_MAX_PAGES full pages: the rest waits for the next sweep', async () => {
    let pages = 0;
    const count = await sweepPages(
      () => {
        pages += 1;
        return Promise.resolve(Array.from({ length: SWEEP_PAGE }, (_, i) => i));
      },
      () => Promise.resolve(),
    );
    expect(pages).toBe(SWEEP_MAX_PAGES);
    expect(count).toBe(SWEEP_PAGE * SWEEP_MAX_PAGES);
  });
});
