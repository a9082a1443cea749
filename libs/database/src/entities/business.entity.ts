import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

export const PLANS = ['FREE', 'SOLO', 'TEAM'] as const;
export type Plan = (typeof PLANS)[number];

@Entity({ name: 'businesses' })
@Check('businesses_plan_check', `plan IN ('FREE', 'SOLO', 'TEAM')`)
@Check('businesses_step_min_check', `step_min BETWEEN 5 AND 60`)
// One sandbox per live business, and a sandbox has no sandbox of its own (docs/design-record.md#d19).
@Index('businesses_live_business_key', ['liveBusinessId'], { unique: true, where: 'live_business_id IS NOT NULL' })
export class BusinessEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'text', unique: true })
  slug: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  timezone: string;

  @Column({ type: 'text' })
  country: string;

  @Column({ type: 'text' })
  currency: string;

  @Column({ type: 'text', nullable: true })
  locale: string | null;

  @Column({ type: 'text' })
  plan: Plan;

  @Column({ name: 'auto_confirm', type: 'boolean', default: true })
  autoConfirm: boolean;

  /** The availability grid, in minutes from the start of each working interval (docs/design-record.md#d15). */
  @Column({ name: 'step_min', type: 'smallint', default: 15 })
  stepMin: number;

  @Column({ name: 'notification_email', type: 'text', nullable: true })
  notificationEmail: string | null;

  /**
   * Set on a sandbox (test mode, docs/design-record.md#d19): the live business it copies. Null on a
   * live business. Test keys belong to the sandbox row, so every query scoped by the key's business
   * id sees sandbox data only.
   */
  @Column({ name: 'live_business_id', type: 'uuid', nullable: true })
  liveBusinessId: string | null;

  @ManyToOne(() => BusinessEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'live_business_id' })
  liveBusiness?: BusinessEntity;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
