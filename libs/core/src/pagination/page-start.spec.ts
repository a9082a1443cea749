import { pageStart } from './page-start.js';

describe('pageStart', () => {
  const id = '01944c2e-5b7a-7d3f-9c1e-3a8b6f2d4e10';

  it('starts after the cursor, as exact text', () => {
    expect(pageStart({ micros: 1_893_974_400_000_007n, id }, null)).toEqual(['2030-01-07T00:00:00.000007Z', id]);
    expect(pageStart({ micros: 1_893_974_400_000_007n, id }, 5n)).toEqual(['2030-01-07T00:00:00.000007Z', id]);
  });

  it('starts a first page just below from, so that a row at exactly from is on it', () => {
    expect(pageStart(null, 1_893_974_400_000_000n)).toEqual(['2030-01-06T23:59:59.999999Z', 'ffffffff-ffff-ffff-ffff-ffffffffffff']);
  });

  it('starts a first page without from below every row', () => {
    expect(pageStart(null, null)).toEqual(['-infinity', '00000000-0000-0000-0000-000000000000']);
    expect(pageStart(null, BigInt(Date.parse('0001-01-01T00:00:00Z')) * 1000n)).toEqual([
      '-infinity',
      '00000000-0000-0000-0000-000000000000',
    ]);
  });
});
