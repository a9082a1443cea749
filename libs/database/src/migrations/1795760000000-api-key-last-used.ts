import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A key's last use, for the console's key list (docs/design-record.md#d26): written by the key
 * lookup itself, at most once a minute per key, so that the request path gains no statement.
 */
export class ApiKeyLastUsed1795760000000 implements MigrationInterface {
  name = 'ApiKeyLastUsed1795760000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_keys" ADD "last_used_at" TIMESTAMP WITH TIME ZONE`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "last_used_at"`);
  }
}
