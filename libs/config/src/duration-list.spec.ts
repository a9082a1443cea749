import { parseDuration, parseDurationList } from './duration-list.js';

describe('parseDuration', () => {
  it('reads milliseconds, seconds, minutes and hours; a bare number is milliseconds', () => {
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('5s')).toBe(5_000);
    expect(parseDuration('30m')).toBe(1_800_000);
    expect(parseDuration('2h')).toBe(7_200_000);
    expect(parseDuration(' 40 ')).toBe(40);
    expect(parseDuration('0')).toBe(0);
  });

  it('refuses anything else', () => {
    for (const bad of ['', 'h', '5d', '-5s', '1.5s', '5 s', 'five']) expect(parseDuration(bad)).toBeNull();
  });
});

describe('parseDurationList', () => {
  it('reads the Standard Webhooks schedule', () => {
    expect(parseDurationList('5s,5m,30m,2h,5h,10h,14h,20h,24h')).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000,
    ]);
  });

  it('refuses a list with any malformed item', () => {
    expect(parseDurationList('5s,,5m')).toBeNull();
    expect(parseDurationList('5s,soon')).toBeNull();
  });
});
