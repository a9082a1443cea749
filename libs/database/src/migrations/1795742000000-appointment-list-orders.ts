import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Contract 1.4.0 (docs/design-record.md#d23): GET /appointments in order of update (`updatedSince`)
 * and by client (`clientId`). Each order and the client filter page on an index whose last columns
 * are the order's (time, id), so a page deep in the list is a bounded range scan (docs/design-record.md#d5;
 * test/integration/reads/page-query-plans.int-spec.ts).
 */
export class AppointmentListOrders1795742000000 implements MigrationInterface {
  name = 'AppointmentListOrders1795742000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "appointments_business_updated_idx" ON "appointments" ("business_id", "updated_at", "id") `);
    await queryRunner.query(
      `CREATE INDEX "appointments_business_client_start_idx" ON "appointments" ("business_id", "client_id", "starts_at", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "appointments_business_client_updated_idx" ON "appointments" ("business_id", "client_id", "updated_at", "id") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."appointments_business_client_updated_idx"`);
    await queryRunner.query(`DROP INDEX "public"."appointments_business_client_start_idx"`);
    await queryRunner.query(`DROP INDEX "public"."appointments_business_updated_idx"`);
  }
}
