import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * 1.3.0's webhook endpoints through the API and the event log (docs/design-record.md#d17, #d18): an
 * endpoint's description, each attempt's endpoint and number (an endpoint's log is read from one
 * index), the event log's (business, created_at, id) order, and the e-mail purge's index.
 */
export class WebhookEndpoints1795493665431 implements MigrationInterface {
  name = 'WebhookEndpoints1795493665431';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."notices_business_created_idx"`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" ADD "description" text`);
    await queryRunner.query(`ALTER TABLE "delivery_attempts" ADD "endpoint_id" uuid`);
    await queryRunner.query(`ALTER TABLE "delivery_attempts" ADD "attempt" integer`);
    // Attempts made before this migration take their delivery's endpoint and their place in its order.
    await queryRunner.query(`UPDATE "delivery_attempts" a
   SET endpoint_id = d.endpoint_id, attempt = n.attempt
  FROM notice_deliveries d,
       (SELECT id, row_number() OVER (PARTITION BY delivery_id ORDER BY attempted_at, id)::int AS attempt FROM delivery_attempts) n
 WHERE d.id = a.delivery_id AND n.id = a.id`);
    await queryRunner.query(`ALTER TABLE "delivery_attempts" ALTER COLUMN "endpoint_id" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "delivery_attempts" ALTER COLUMN "attempt" SET NOT NULL`);
    await queryRunner.query(`CREATE INDEX "notices_business_created_idx" ON "notices" ("business_id", "created_at", "id") `);
    await queryRunner.query(`CREATE INDEX "delivery_attempts_endpoint_idx" ON "delivery_attempts" ("endpoint_id", "attempted_at", "id") `);
    await queryRunner.query(`CREATE INDEX "outbound_emails_created_idx" ON "outbound_emails" ("created_at") `);
    await queryRunner.query(`CREATE INDEX "outbound_emails_unsent_idx" ON "outbound_emails" ("created_at", "id") WHERE sent_at IS NULL`);
    await queryRunner.query(
      `ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_description_check" CHECK (char_length(description) <= 200)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" DROP CONSTRAINT "webhook_endpoints_description_check"`);
    await queryRunner.query(`DROP INDEX "public"."outbound_emails_unsent_idx"`);
    await queryRunner.query(`DROP INDEX "public"."outbound_emails_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."delivery_attempts_endpoint_idx"`);
    await queryRunner.query(`DROP INDEX "public"."notices_business_created_idx"`);
    await queryRunner.query(`ALTER TABLE "delivery_attempts" DROP COLUMN "attempt"`);
    await queryRunner.query(`ALTER TABLE "delivery_attempts" DROP COLUMN "endpoint_id"`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" DROP COLUMN "description"`);
    await queryRunner.query(`CREATE INDEX "notices_business_created_idx" ON "notices" USING btree ("business_id", "created_at") `);
  }
}
