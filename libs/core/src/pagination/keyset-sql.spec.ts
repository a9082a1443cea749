import { keysetAfter, positionOf, SqlParams } from './keyset-sql.js';
import { updateOrderTail } from './update-order.js';

describe('keyset SQL', () => {
  it('numbers parameters in the order they are added, and passes instants as exact text', () => {
    const params = new SqlParams();
    expect(params.add('a')).toBe('$1');
    expect(params.addTimestamp(1_893_974_400_000_007n)).toBe('$2::timestamptz');
    expect(params.values).toEqual(['a', '2030-01-07T00:00:00.000007Z']);
  });

  it('compares (time, id) as one row value, after a position', () => {
    const params = new SqlParams();
    params.add('business');
    expect(keysetAfter('a.starts_at', 'a.id', { micros: 5n, id: '01944c2e-5b7a-7d3f-9c1e-3a8b6f2d4e10' }, params)).toBe(
      '(a.starts_at, a.id) > ($2::timestamptz, $3::uuid)',
    );
    expect(params.values.slice(1)).toEqual(['1970-01-01T00:00:00.000005Z', '01944c2e-5b7a-7d3f-9c1e-3a8b6f2d4e10']);
  });

  it('reads a position as whole microseconds, never through a float', () => {
    expect(positionOf('c.updated_at')).toBe('(extract(epoch from c.updated_at) * 1000000)::bigint::text');
  });

  it('writes a page in update order with its optional bounds and no OFFSET', () => {
    const params = new SqlParams();
    const tail = updateOrderTail('p', 'business', 7n, { after: { micros: 9n, id: '01944c2e-5b7a-7d3f-9c1e-3a8b6f2d4e10' }, take: 8 }, params);
    expect(tail).toContain('p.business_id = $1');
    expect(tail).toContain('p.updated_at >= $2::timestamptz');
    expect(tail).toContain('(p.updated_at, p.id) > ($3::timestamptz, $4::uuid)');
    expect(tail).toMatch(/ORDER BY p\.updated_at, p\.id\s+LIMIT \$5$/);
    expect(tail).not.toMatch(/OFFSET/i);
    expect(params.values).toHaveLength(5);
    const plain = updateOrderTail('p', 'business', null, { after: null, take: 51 }, new SqlParams());
    expect(plain).not.toContain('>=');
    expect(plain).not.toContain(') > (');
  });
});
