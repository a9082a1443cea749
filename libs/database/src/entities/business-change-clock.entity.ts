import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { BusinessEntity } from './business.entity.js';

/**
 * A business's change clock (docs/design-record.md#d27): the last stamp given to a change of its
 * appointments, clients, payments or sales. Written only by the database function
 * business_change_stamp, which the tables' stamp_change triggers call; its row lock orders one
 * business's writes.
 */
@Entity({ name: 'business_change_clocks' })
export class BusinessChangeClockEntity {
  @PrimaryColumn({ name: 'business_id', type: 'uuid', primaryKeyConstraintName: 'business_change_clocks_pkey' })
  businessId: string;

  @Column({ name: 'stamped_at', type: 'timestamptz' })
  stampedAt: Date;

  @OneToOne(() => BusinessEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'business_id', foreignKeyConstraintName: 'business_change_clocks_business_fkey' })
  business?: BusinessEntity;
}
