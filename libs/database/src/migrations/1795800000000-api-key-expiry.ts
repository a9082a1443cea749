import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a key stops working, for a rolled key (docs/design-record.md#d29): the old key of a roll
 * keeps answering until then, as Stripe's does. Null: the key does not expire.
 */
export class ApiKeyExpiry1795800000000 implements MigrationInterface {
  name = 'ApiKeyExpiry1795800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_keys" ADD "expires_at" TIMESTAMP WITH TIME ZONE`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "expires_at"`);
  }
}
