import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Test mode (docs/design-record.md#d19): a sandbox is a business row linked to its live business,
 * at most one per live business, deleted with it.
 */
export class TestMode1795628984329 implements MigrationInterface {
  name = 'TestMode1795628984329';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "businesses" ADD "live_business_id" uuid`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "businesses_live_business_key" ON "businesses"  ("live_business_id") WHERE live_business_id IS NOT NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE "businesses" ADD CONSTRAINT "FK_3f1dce8443ca1ae76101b3e911a" FOREIGN KEY ("live_business_id") REFERENCES "businesses"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "businesses" DROP CONSTRAINT "FK_3f1dce8443ca1ae76101b3e911a"`);
    await queryRunner.query(`DROP INDEX "public"."businesses_live_business_key"`);
    await queryRunner.query(`ALTER TABLE "businesses" DROP COLUMN "live_business_id"`);
  }
}
