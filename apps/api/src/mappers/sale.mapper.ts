import type { SaleItemRecord, SaleRecord } from '#core/sales/sale-record.js';
import type { Schemas } from '#contract/contract-types.js';
import { isoTime } from './iso-time.js';

/** The Sale of docs/design-record.md#d8, items in their order on the sale; never costs, margins or internal notes. */
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
    createdAt: isoTime(sale.createdAt),
    updatedAt: isoTime(sale.updatedAt),
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
