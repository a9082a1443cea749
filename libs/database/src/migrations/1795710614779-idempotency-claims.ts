import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Claims of idempotent writes that call the network (docs/design-record.md#d24): such a write runs
 * outside a transaction, so its key is claimed by a row instead of a transaction's lock.
 */
export class IdempotencyClaims1795710614779 implements MigrationInterface {
  name = 'IdempotencyClaims1795710614779';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "idempotency_claims" ("api_key_id" uuid NOT NULL, "idempotency_key" text NOT NULL, "fingerprint" text NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_668a16ef7f3d51517f11a871a35" PRIMARY KEY ("api_key_id", "idempotency_key"))`,
    );
    await queryRunner.query(`CREATE INDEX "idempotency_claims_expires_idx" ON "idempotency_claims"  ("expires_at") `);
    await queryRunner.query(
      `ALTER TABLE "idempotency_claims" ADD CONSTRAINT "FK_e3a8565a300c65fc1efbf42be0c" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "idempotency_claims" DROP CONSTRAINT "FK_e3a8565a300c65fc1efbf42be0c"`);
    await queryRunner.query(`DROP INDEX "public"."idempotency_claims_expires_idx"`);
    await queryRunner.query(`DROP TABLE "idempotency_claims"`);
  }
}
