import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Contract 1.4.0 (docs/design-record.md#d23): the partner's `metadata` of appointments and clients,
 * `{}` for the rows that exist and whenever none is given; and an index on rescheduled_from_id, by
 * which an appointment's `rescheduledToId` is read (the appointment that names it as its previous
 * one), one probe per row of a list.
 */
export class Metadata1795741000000 implements MigrationInterface {
  name = 'Metadata1795741000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "appointments" ADD "metadata" jsonb NOT NULL DEFAULT '{}'`);
    await queryRunner.query(`ALTER TABLE "clients" ADD "metadata" jsonb NOT NULL DEFAULT '{}'`);
    await queryRunner.query(
      `CREATE INDEX "appointments_rescheduled_from_idx" ON "appointments" ("rescheduled_from_id") WHERE rescheduled_from_id IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."appointments_rescheduled_from_idx"`);
    await queryRunner.query(`ALTER TABLE "clients" DROP COLUMN "metadata"`);
    await queryRunner.query(`ALTER TABLE "appointments" DROP COLUMN "metadata"`);
  }
}
