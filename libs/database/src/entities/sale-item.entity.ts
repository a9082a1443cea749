import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { SaleEntity } from './sale.entity.js';
import { ServiceEntity } from './service.entity.js';

export const SALE_ITEM_TYPES = ['SERVICE', 'PRODUCT', 'PACKAGE', 'GIFT_CARD', 'OTHER'] as const;
export type SaleItemType = (typeof SALE_ITEM_TYPES)[number];

@Entity({ name: 'sale_items' })
@Check('sale_items_type_check', `type IN ('SERVICE', 'PRODUCT', 'PACKAGE', 'GIFT_CARD', 'OTHER')`)
@Check('sale_items_quantity_check', `quantity > 0`)
@Index('sale_items_sale_idx', ['saleId', 'position'])
export class SaleItemEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'business_id', type: 'uuid' })
  businessId: string;

  @Column({ name: 'sale_id', type: 'uuid' })
  saleId: string;

  /** Order of the item on the sale. */
  @Column({ type: 'integer' })
  position: number;

  @Column({ type: 'text' })
  type: SaleItemType;

  @Column({ type: 'text' })
  name: string;

  @Column({ name: 'service_id', type: 'uuid', nullable: true })
  serviceId: string | null;

  @Column({ type: 'integer' })
  quantity: number;

  @Column({ name: 'unit_price_cents', type: 'integer' })
  unitPriceCents: number;

  @Column({ name: 'discount_cents', type: 'integer', default: 0 })
  discountCents: number;

  @Column({ name: 'total_cents', type: 'integer' })
  totalCents: number;

  /** Never returned by the API. */
  @Column({ name: 'cost_cents', type: 'integer', nullable: true })
  costCents: number | null;

  @ManyToOne(() => SaleEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'sale_id' })
  sale?: SaleEntity;

  @ManyToOne(() => ServiceEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'service_id' })
  service?: ServiceEntity;
}
