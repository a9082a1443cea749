import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

export const PLANS = ['FREE', 'SOLO', 'TEAM'] as const;
export type Plan = (typeof PLANS)[number];

@Entity({ name: 'businesses' })
@Check('businesses_plan_check', `plan IN ('FREE', 'SOLO', 'TEAM')`)
@Check('businesses_step_min_check', `step_min BETWEEN 5 AND 60`)
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

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
