/** What a line's amount depends on. */
export interface PricedLine {
  quantity: number;
  unitPriceCents: number;
  discountCents: number;
}

export interface SaleTotals {
  /** The sum of the lines' totals, their own discounts already taken off. */
  subtotalCents: number;
  /** The discount on the whole sale, on top of the lines' own. */
  discountCents: number;
  totalCents: number;
}

/** A line's total as the contract defines SaleItem.totalCents: quantity × unit price − the line's discount. */
export const lineTotalCents = (line: PricedLine): number => line.quantity * line.unitPriceCents - line.discountCents;

/**
 * A sale's amounts as the contract defines them (docs/design-record.md#d8): the subtotal sums the lines' totals, the
 * sale's discount applies to the whole sale, and the total is their difference. A line's discount
 * is inside its total, so it is never counted again in the sale's discount.
 */
export function saleTotals(lines: readonly PricedLine[], saleDiscountCents: number): SaleTotals {
  const subtotalCents = lines.reduce((sum, line) => sum + lineTotalCents(line), 0);
  return { subtotalCents, discountCents: saleDiscountCents, totalCents: subtotalCents - saleDiscountCents };
}
