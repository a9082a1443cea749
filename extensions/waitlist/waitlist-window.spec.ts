import { MAX_WAITLIST_DAYS, waitlistWindowProblem } from './waitlist-window.js';

describe('waitlistWindowProblem', () => {
  it.each([
    ['2026-12-01', '2026-12-01'],
    ['2026-12-01', '2026-12-24'],
    ['2026-12-01', '2027-03-01'],
  ])('accepts %s to %s', (from, to) => {
    expect(waitlistWindowProblem(from, to)).toBeNull();
  });

  it('refuses a window that ends before it starts', () => {
    expect(waitlistWindowProblem('2026-12-02', '2026-12-01')).toBe('to must not be before from');
  });

  it(`refuses more than ${MAX_WAITLIST_DAYS} days, counted in calendar days whatever the clock change`, () => {
    expect(waitlistWindowProblem('2026-03-01', '2026-05-30')).toBeNull();
    expect(waitlistWindowProblem('2026-03-01', '2026-05-31')).toBe(`to must be at most ${MAX_WAITLIST_DAYS} days after from`);
  });
});
