import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { StaffEntity } from './staff.entity.js';

/** A period in which a staff member takes no bookings (holiday, break, training). */
@Entity({ name: 'staff_time_blocks' })
@Check('staff_time_blocks_interval_check', `starts_at < ends_at`)
@Index('staff_time_blocks_staff_idx', ['staffId', 'startsAt'])
export class StaffTimeBlockEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'business_id', type: 'uuid' })
  businessId: string;

  @Column({ name: 'staff_id', type: 'uuid' })
  staffId: string;

  @Column({ name: 'starts_at', type: 'timestamptz' })
  startsAt: Date;

  @Column({ name: 'ends_at', type: 'timestamptz' })
  endsAt: Date;

  @ManyToOne(() => StaffEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'staff_id' })
  staff?: StaffEntity;
}
