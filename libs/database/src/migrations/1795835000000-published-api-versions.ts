import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Contract 1.5.0 is published (docs/design-record.md#d30): keys and webhook endpoints may be pinned
 * to it. The checks of ApiVersions1795730000000 list the published versions, so they are replaced
 * by checks that list 1.5.0 too (docs/design-record.md#d22). Nothing is pinned to 1.5.0 by this
 * migration; new keys and endpoints are, from now on, unless their maker chose another version.
 */
export class PublishedApiVersions1795835000000 implements MigrationInterface {
  name = 'PublishedApiVersions1795835000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['api_keys', 'webhook_endpoints']) {
      await queryRunner.query(`ALTER TABLE "${table}" DROP CONSTRAINT "${table}_api_version_check"`);
      await queryRunner.query(
        `ALTER TABLE "${table}" ADD CONSTRAINT "${table}_api_version_check" CHECK (api_version IN ('1.2.0', '1.3.0', '1.4.0', '1.5.0'))`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // Rows pinned to 1.5.0 go back to 1.4.0, the version before it, which shows them the most of theirs.
    for (const table of ['api_keys', 'webhook_endpoints']) {
      await queryRunner.query(`ALTER TABLE "${table}" DROP CONSTRAINT "${table}_api_version_check"`);
      await queryRunner.query(`UPDATE "${table}" SET api_version = '1.4.0' WHERE api_version = '1.5.0'`);
      await queryRunner.query(
        `ALTER TABLE "${table}" ADD CONSTRAINT "${table}_api_version_check" CHECK (api_version IN ('1.2.0', '1.3.0', '1.4.0'))`,
      );
    }
  }
}
