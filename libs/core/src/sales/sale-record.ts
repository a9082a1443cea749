import type { SaleItemEntity } from '#database/entities/sale-item.entity.js';
import type { SaleEntity } from '#database/entities/sale.entity.js';

/** A line of a sale as the API may show it: never its cost, which is never selected. */
export type SaleItemRecord = Pick<
  SaleItemEntity,
  'id' | 'type' | 'name' | 'serviceId' | 'quantity' | 'unitPriceCents' | 'discountCents' | 'totalCents'
>;

/** A sale as the API may show it (docs/design-record.md#d8), items in their order on the sale; never the internal note. */
export type SaleRecord = Pick<
  SaleEntity,
  | 'id'
  | 'number'
  | 'status'
  | 'clientId'
  | 'appointmentId'
  | 'paymentPending'
  | 'subtotalCents'
  | 'discountCents'
  | 'totalCents'
  | 'currency'
  | 'createdAt'
  | 'updatedAt'
> & { items: SaleItemRecord[] };
