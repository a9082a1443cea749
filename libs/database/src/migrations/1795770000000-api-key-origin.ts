import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where a key was made (docs/design-record.md#d28): the console makes at most 20 keys per business
 * an hour, counted from the keys it made. Keys made before are counted as the admin command
 * line's, which no such limit applies to.
 */
export class ApiKeyOrigin1795770000000 implements MigrationInterface {
  name = 'ApiKeyOrigin1795770000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_keys" ADD "origin" text NOT NULL DEFAULT 'admin'`);
    await queryRunner.query(`ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_origin_check" CHECK (origin IN ('admin', 'console'))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_origin_check"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "origin"`);
  }
}
