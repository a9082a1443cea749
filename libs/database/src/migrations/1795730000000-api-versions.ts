import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Version pinning (docs/design-record.md#d22): every API key and every webhook endpoint has the
 * API version it is answered and notified in. Those that exist when it is deployed are pinned to
 * 1.3.0, the version they were made under; the default is dropped at once, so that every insert
 * after this says which version it means. The checks list the versions published at this point:
 * publishing another takes a migration that replaces them.
 */
export class ApiVersions1795730000000 implements MigrationInterface {
  name = 'ApiVersions1795730000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_keys" ADD "api_version" text NOT NULL DEFAULT '1.3.0'`);
    await queryRunner.query(`ALTER TABLE "api_keys" ALTER COLUMN "api_version" DROP DEFAULT`);
    await queryRunner.query(
      `ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_api_version_check" CHECK (api_version IN ('1.2.0', '1.3.0', '1.4.0'))`,
    );
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" ADD "api_version" text NOT NULL DEFAULT '1.3.0'`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" ALTER COLUMN "api_version" DROP DEFAULT`);
    await queryRunner.query(
      `ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_api_version_check" CHECK (api_version IN ('1.2.0', '1.3.0', '1.4.0'))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" DROP CONSTRAINT "webhook_endpoints_api_version_check"`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" DROP COLUMN "api_version"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_api_version_check"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "api_version"`);
  }
}
