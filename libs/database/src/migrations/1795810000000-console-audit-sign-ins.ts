import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The console's audit also lists sign-ins, sign-outs, refused sign-in attempts and the changes made
 * with the admin command line (docs/design-record.md#d29). Some of those have no business (a link
 * that matches no pending sign-in, an e-mail that is no owner's or partner's), no known actor (that
 * same link) or no client address (an operator's command): the three columns take NULL for them.
 * The entries without a business are read apart, newest first.
 */
export class ConsoleAuditSignIns1795810000000 implements MigrationInterface {
  name = 'ConsoleAuditSignIns1795810000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "console_audit_entries" ALTER COLUMN "business_id" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "console_audit_entries" ALTER COLUMN "actor_email" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "console_audit_entries" ALTER COLUMN "address" DROP NOT NULL`);
    await queryRunner.query(
      `CREATE INDEX "console_audit_entries_unattached_idx" ON "console_audit_entries" ("created_at") WHERE "business_id" IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "console_audit_entries_unattached_idx"`);
    await queryRunner.query(`DELETE FROM "console_audit_entries" WHERE "business_id" IS NULL`);
    await queryRunner.query(`UPDATE "console_audit_entries" SET "actor_email" = '' WHERE "actor_email" IS NULL`);
    await queryRunner.query(`UPDATE "console_audit_entries" SET "address" = '' WHERE "address" IS NULL`);
    await queryRunner.query(`ALTER TABLE "console_audit_entries" ALTER COLUMN "address" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "console_audit_entries" ALTER COLUMN "actor_email" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "console_audit_entries" ALTER COLUMN "business_id" SET NOT NULL`);
  }
}
