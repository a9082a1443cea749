import { DomainError } from '../errors/domain-error.js';
import { readNewSale } from './new-sale.js';

const service = '01944c2e-5b7a-7d3f-9c1e-3a8b6f2d4e10';

function problems(json: unknown): string[] {
  try {
    readNewSale(json);
    return [];
  } catch (error) {
    return (error as DomainError).fieldErrors.map((e) => `${e.path} ${e.message}`);
  }
}

describe('readNewSale', () => {
  it('reads a sale with defaults: COMPLETED, not pending, no discount', () => {
    expect(
      readNewSale({ items: [{ type: 'SERVICE', name: ' Haircut ', serviceId: service.toUpperCase(), quantity: 1, unitPriceCents: 2500 }] }),
    ).toEqual({
      clientId: null,
      appointmentId: null,
      status: 'COMPLETED',
      paymentPending: false,
      items: [
        { type: 'SERVICE', name: 'Haircut', serviceId: service, quantity: 1, unitPriceCents: 2500, discountCents: 0, costCents: null },
      ],
      discountCents: 0,
      internalNote: null,
    });
  });

  it('takes a discount on the whole sale, up to the sum of the items after their own discounts', () => {
    const items = [
      { type: 'SERVICE', name: 'Haircut', quantity: 1, unitPriceCents: 2500 },
      { type: 'PRODUCT', name: 'Shampoo', quantity: 1, unitPriceCents: 1600, discountCents: 100 },
    ];

    expect(readNewSale({ items, discountCents: 4000 }).discountCents).toBe(4000);
    expect(problems({ items, discountCents: 4001 })).toEqual(["/discountCents must not exceed the sum of the items' totals"]);
  });

  it('reports every problem at once, with its JSON Pointer', () => {
    expect(
      problems({ status: 'PAID', items: [{ type: 'SERVICE', quantity: 0, unitPriceCents: 10 }, 'x'], clientId: 'abc', colour: 'red' }),
    ).toEqual([
      '/colour is not a known field (known: clientId, appointmentId, status, paymentPending, items, discountCents, internalNote)',
      '/clientId must be a UUID or null',
      '/status must be one of OPEN, COMPLETED, VOID',
      '/items/0/name is required',
      '/items/0/quantity must be an integer from 1 to 2147483647',
      '/items/1 must be an object',
    ]);
  });

  it('refuses a discount above the line and a line above the integer range', () => {
    expect(problems({ items: [{ type: 'OTHER', name: 'x', quantity: 2, unitPriceCents: 10, discountCents: 21 }] })).toEqual([
      '/items/0/discountCents must not exceed quantity × unitPriceCents',
    ]);
    expect(problems({ items: [{ type: 'OTHER', name: 'x', quantity: 10_000, unitPriceCents: 1_000_000 }] })).toEqual([
      '/items/0/quantity times unitPriceCents must not exceed 2147483647',
    ]);
  });

  it('needs at least one item and an object', () => {
    expect(problems({ items: [] })).toEqual(['/items must be an array with at least one item']);
    expect(problems([])).toEqual([' must be a JSON object with an items array']);
  });
});
