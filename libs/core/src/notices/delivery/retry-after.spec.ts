import { parseRetryAfter } from './retry-after.js';

const now = new Date('2030-01-07T09:00:00Z');

describe('parseRetryAfter', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
  });

  it('reads an HTTP date, and a past one as no wait', () => {
    expect(parseRetryAfter('Mon, 07 Jan 2030 09:05:00 GMT', now)).toBe(300_000);
    expect(parseRetryAfter('Mon, 07 Jan 2030 08:00:00 GMT', now)).toBe(0);
  });

  it('ignores what it cannot read', () => {
    for (const bad of [undefined, '', 'soon', '-5', '1.5', '2030-01-07']) expect(parseRetryAfter(bad, now)).toBeNull();
  });
});
