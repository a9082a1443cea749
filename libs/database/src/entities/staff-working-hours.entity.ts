import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { StaffEntity } from './staff.entity.js';

/** One weekly working interval, in the business's local time. */
@Entity({ name: 'staff_working_hours' })
@Check('staff_working_hours_weekday_check', `weekday BETWEEN 1 AND 7`)
@Check('staff_working_hours_interval_check', `start_time < end_time`)
@Index('staff_working_hours_staff_idx', ['staffId', 'weekday'])
export class StaffWorkingHoursEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'business_id', type: 'uuid' })
  businessId: string;

  @Column({ name: 'staff_id', type: 'uuid' })
  staffId: string;

  /** ISO weekday: 1 = Monday … 7 = Sunday. */
  @Column({ type: 'smallint' })
  weekday: number;

  /** Local wall-clock time, HH:MM:SS. */
  @Column({ name: 'start_time', type: 'time' })
  startTime: string;

  @Column({ name: 'end_time', type: 'time' })
  endTime: string;

  @ManyToOne(() => StaffEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'staff_id' })
  staff?: StaffEntity;
}
