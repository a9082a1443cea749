import type { Schemas } from '#contract/contract-types.js';
import type { SaleItemRecord, SaleRecord } from './sale-record.js';

/**
 * The Sale of docs/design-record.md#d8, items in their order on the sale; never costs, margins or
 * internal notes. The one shape of a sale: the API answers it, `admin sale record` prints it.
 */
export function toSale(sale: SaleRecord): Schemas['Sale'] {
  return {
    id: sale.id,
    number: sale.number,
    status: sale.status,
    clientId: sale.clientId,
    appointmentId: sale.appointmentId,
    paymentPending: sale.paymentPending,
    items: sale.items.map(toSaleItem),
    subtotalCents: sale.subtotalCents,
    discountCents: sale.discountCents,
    totalCents: sale.totalCents,
    currency: sale.currency,
    // UTC with milliseconds, as every date-time leaves the API (docs/design-record.md#d5).
    createdAt: sale.createdAt.toISOString(),
    updatedAt: sale.updatedAt.toISOString(),
  };
}

function toSaleItem(item: SaleItemRecord): Schemas['SaleItem'] {
  return {
    id: item.id,
    type: item.type,
    name: item.name,
    serviceId: item.serviceId,
    quantity: item.quantity,
    unitPriceCents: item.unitPriceCents,
    discountCents: item.discountCents,
    totalCents: item.totalCents,
  };
}
