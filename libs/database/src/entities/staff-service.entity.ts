import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ServiceEntity } from './service.entity.js';
import { StaffEntity } from './staff.entity.js';

/** A service a staff member performs. A staff member with no rows performs every service. */
@Entity({ name: 'staff_services' })
export class StaffServiceEntity {
  @PrimaryColumn({ name: 'staff_id', type: 'uuid' })
  staffId: string;

  @PrimaryColumn({ name: 'service_id', type: 'uuid' })
  serviceId: string;

  @Column({ name: 'business_id', type: 'uuid' })
  businessId: string;

  @ManyToOne(() => StaffEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'staff_id' })
  staff?: StaffEntity;

  @ManyToOne(() => ServiceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'service_id' })
  service?: ServiceEntity;
}
