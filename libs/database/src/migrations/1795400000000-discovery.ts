import type { MigrationInterface, QueryRunner } from 'typeorm';

/** 1.3.0's discovery: the availability grid of a business, and the order of GET /staff. */
export class Discovery1795400000000 implements MigrationInterface {
  name = 'Discovery1795400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "businesses" ADD "step_min" smallint NOT NULL DEFAULT '15'`);
    await queryRunner.query(`ALTER TABLE "businesses" ADD CONSTRAINT "businesses_step_min_check" CHECK (step_min BETWEEN 5 AND 60)`);
    await queryRunner.query(`DROP INDEX "public"."staff_business_idx"`);
    await queryRunner.query(`CREATE INDEX "staff_business_name_idx" ON "staff" ("business_id", "name", "id") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."staff_business_name_idx"`);
    await queryRunner.query(`CREATE INDEX "staff_business_idx" ON "staff" ("business_id") `);
    await queryRunner.query(`ALTER TABLE "businesses" DROP CONSTRAINT "businesses_step_min_check"`);
    await queryRunner.query(`ALTER TABLE "businesses" DROP COLUMN "step_min"`);
  }
}
