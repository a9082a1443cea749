import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BusinessEntity } from './business.entity.js';

@Entity({ name: 'staff' })
// Serves GET /staff's (name, id) order within a business, and every lookup by business.
@Index('staff_business_name_idx', ['businessId', 'name', 'id'])
export class StaffEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'business_id', type: 'uuid' })
  businessId: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;

  @ManyToOne(() => BusinessEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'business_id' })
  business?: BusinessEntity;
}
