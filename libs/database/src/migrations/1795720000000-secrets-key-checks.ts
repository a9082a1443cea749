import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A check value per key id of SECRETS_KEY (docs/design-record.md#d25): what tells a process at
 * start that the key it is given under an id is the one that sealed under that id.
 */
export class SecretsKeyChecks1795720000000 implements MigrationInterface {
  name = 'SecretsKeyChecks1795720000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "secrets_key_checks" ("key_id" text NOT NULL, "check_value" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_f4f17ff450c51d402cf3fc40fcd" PRIMARY KEY ("key_id"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "secrets_key_checks"`);
  }
}
