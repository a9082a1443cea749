import { anyStaffOrder } from './any-staff-order.js';

describe('anyStaffOrder', () => {
  it('puts the fewest appointments that day first, then fewer before the start, then the lowest id', () => {
    const order = anyStaffOrder([
      { id: 'd', dayCount: 2, countBefore: 0 },
      { id: 'c', dayCount: 1, countBefore: 1 },
      { id: 'b', dayCount: 1, countBefore: 0 },
      { id: 'a', dayCount: 1, countBefore: 1 },
      { id: 'e', dayCount: 0, countBefore: 0 },
    ]);
    expect(order.map((c) => c.id)).toEqual(['e', 'b', 'a', 'c', 'd']);
  });

  it('leaves its input as it was', () => {
    const input = [
      { id: 'b', dayCount: 1, countBefore: 0 },
      { id: 'a', dayCount: 0, countBefore: 0 },
    ];
    anyStaffOrder(input);
    expect(input.map((c) => c.id)).toEqual(['b', 'a']);
  });
});
