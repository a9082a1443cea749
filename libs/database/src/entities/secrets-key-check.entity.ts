import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The check value of one key id of SECRETS_KEY (docs/design-record.md#d25), recorded the first
 * time a process seals under that id. Every process compares it at start with the key it is given
 * under that id, and refuses to start on a different one.
 */
@Entity({ name: 'secrets_key_checks' })
export class SecretsKeyCheckEntity {
  @PrimaryColumn({ name: 'key_id', type: 'text' })
  keyId: string;

  /** `v1:` + an HMAC of the id under a key derived from the key (libs/core/src/secrets/key-check-value.ts). */
  @Column({ name: 'check_value', type: 'text' })
  checkValue: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}
