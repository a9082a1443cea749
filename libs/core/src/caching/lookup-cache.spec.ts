import { LookupCache } from './lookup-cache.js';

describe('LookupCache', () => {
  it('evicts the least recently used entry when full, not everything', () => {
    const cache = new LookupCache<string>(3);
    cache.set('a', 'A', 100);
    cache.set('b', 'B', 100);
    cache.set('c', 'C', 100);
    expect(cache.get('a', 0)).toBe('A'); // a is now the most recently used
    cache.set('d', 'D', 100);
    expect(cache.size).toBe(3);
    expect(cache.get('b', 0)).toBeUndefined();
    expect(cache.get('a', 0)).toBe('A');
    expect(cache.get('c', 0)).toBe('C');
    expect(cache.get('d', 0)).toBe('D');
  });

  it('forgets an entry once it has expired', () => {
    const cache = new LookupCache<null>(2);
    cache.set('a', null, 10);
    expect(cache.get('a', 9)).toBeNull();
    expect(cache.get('a', 10)).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});

describe('LookupCache when full', () => {
  it('evicts the oldest entry not read since it was last passed over, and keeps an entry read since', () => {
    const cache = new LookupCache<string>(2);
    cache.set('a', 'A', 100);
    cache.set('b', 'B', 100);
    expect(cache.get('a', 0)).toBe('A');
    expect(cache.get('b', 0)).toBe('B');
    // Both read: eviction passes over both once, then takes the oldest.
    cache.set('c', 'C', 100);
    expect([cache.get('a', 0), cache.get('b', 0), cache.get('c', 0)]).toEqual([undefined, 'B', 'C']);
  });

  it('refreshes an entry that is set again, in place', () => {
    const cache = new LookupCache<string>(2);
    cache.set('a', 'A', 10);
    cache.set('b', 'B', 100);
    cache.set('a', 'A2', 100);
    cache.set('c', 'C', 100);
    expect(cache.get('a', 50)).toBe('A2');
    expect(cache.get('b', 50)).toBeUndefined();
    expect(cache.size).toBe(2);
  });
});
