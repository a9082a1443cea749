import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BusinessEntity } from './business.entity.js';

export const MEMBER_ROLES = ['OWNER', 'PARTNER', 'STAFF'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

@Entity({ name: 'members' })
@Check('members_role_check', `role IN ('OWNER', 'PARTNER', 'STAFF')`)
@Index('members_business_email_key', ['businessId', 'email'], { unique: true })
export class MemberEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'business_id', type: 'uuid' })
  businessId: string;

  @Column({ type: 'text' })
  name: string;

  /** Stored lower-cased, so the unique index is case-insensitive. */
  @Column({ type: 'text' })
  email: string;

  @Column({ type: 'text' })
  role: MemberRole;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @ManyToOne(() => BusinessEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'business_id' })
  business?: BusinessEntity;
}
