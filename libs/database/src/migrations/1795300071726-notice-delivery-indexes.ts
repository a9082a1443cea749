import type { MigrationInterface, QueryRunner } from 'typeorm';

export class NoticeDeliveryIndexes1795300071726 implements MigrationInterface {
  name = 'NoticeDeliveryIndexes1795300071726';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "notices_created_idx" ON "notices"  ("created_at") `);
    await queryRunner.query(`CREATE INDEX "notice_deliveries_business_created_idx" ON "notice_deliveries"  ("business_id", "created_at") `);
    await queryRunner.query(
      `CREATE INDEX "notice_deliveries_pending_due_idx" ON "notice_deliveries"  ("next_attempt_at", "id") WHERE status = 'PENDING'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."notice_deliveries_pending_due_idx"`);
    await queryRunner.query(`DROP INDEX "public"."notice_deliveries_business_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."notices_created_idx"`);
  }
}
