import { checkBirthDate } from './birth-date.js';

const today = new Date('2026-11-21T12:00:00Z');

describe('checkBirthDate', () => {
  it('treats "" and null as no birth date', () => {
    expect(checkBirthDate('', today)).toEqual({ ok: true, value: null });
    expect(checkBirthDate(null, today)).toEqual({ ok: true, value: null });
  });

  it('accepts a real past date and today', () => {
    expect(checkBirthDate('1990-04-01', today)).toEqual({ ok: true, value: '1990-04-01' });
    expect(checkBirthDate('2026-11-21', today).ok).toBe(true);
  });

  it('refuses impossible dates, other formats, the future and the implausibly old', () => {
    for (const bad of ['1990-02-30', '01/04/1990', '1990-4-1', '2026-12-25', '1850-01-01']) {
      expect(checkBirthDate(bad, today).ok).toBe(false);
    }
  });
});
