import { lineTotalCents, saleTotals } from './sale-totals.js';

describe('saleTotals', () => {
  it('sums the lines after their own discounts, and counts no line discount twice', () => {
    const lines = [
      { quantity: 1, unitPriceCents: 2500, discountCents: 0 },
      { quantity: 1, unitPriceCents: 1600, discountCents: 100 },
    ];

    expect(lines.map(lineTotalCents)).toEqual([2500, 1500]);
    expect(saleTotals(lines, 0)).toEqual({ subtotalCents: 4000, discountCents: 0, totalCents: 4000 });
  });

  it('takes a discount on the whole sale off the subtotal', () => {
    const lines = [{ quantity: 3, unitPriceCents: 1000, discountCents: 500 }];

    expect(saleTotals(lines, 250)).toEqual({ subtotalCents: 2500, discountCents: 250, totalCents: 2250 });
  });
});
