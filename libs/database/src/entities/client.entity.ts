import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BusinessEntity } from './business.entity.js';

@Entity({ name: 'clients' })
// Expression index on lower(email): created by the migration; synchronize: false keeps
// the schema diff from dropping what it cannot express.
@Index('clients_business_email_key', { synchronize: false })
@Index('clients_business_updated_idx', ['businessId', 'updatedAt', 'id'])
@Index('clients_business_phone_key', ['businessId', 'phone'], {
  unique: true,
  where: 'phone IS NOT NULL',
})
export class ClientEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'business_id', type: 'uuid' })
  businessId: string;

  @Column({ type: 'text' })
  name: string;

  /** E.164. */
  @Column({ type: 'text', nullable: true })
  phone: string | null;

  /** As given; uniqueness is on lower(email), an expression index declared in the migration. */
  @Column({ type: 'text', nullable: true })
  email: string | null;

  @Column({ name: 'birth_date', type: 'date', nullable: true })
  birthDate: string | null;

  /** Stored, never returned by the API. */
  @Column({ name: 'guardian_name', type: 'text', nullable: true })
  guardianName: string | null;

  /** Stored, never returned by the API. */
  @Column({ name: 'guardian_email', type: 'text', nullable: true })
  guardianEmail: string | null;

  /** Stored, never returned by the API. */
  @Column({ type: 'boolean', default: false })
  consent: boolean;

  @Column({ name: 'consent_at', type: 'timestamptz', nullable: true })
  consentAt: Date | null;

  /** Dashboard-only notes: never returned by the API. */
  @Column({ type: 'text', nullable: true })
  notes: string | null;

  /** The partner's own data, set at creation only (docs/design-record.md#d23); `{}` when none. */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata: Record<string, string>;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;

  @ManyToOne(() => BusinessEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'business_id' })
  business?: BusinessEntity;
}
