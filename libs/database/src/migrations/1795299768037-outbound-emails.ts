import type { MigrationInterface, QueryRunner } from 'typeorm';

export class OutboundEmails1795299768037 implements MigrationInterface {
  name = 'OutboundEmails1795299768037';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "outbound_emails" ("id" uuid NOT NULL, "business_id" uuid NOT NULL, "appointment_id" uuid NOT NULL, "kind" text NOT NULL, "audience" text NOT NULL, "recipient" text NOT NULL, "sender_name" text NOT NULL, "reply_to" text, "subject" text NOT NULL, "body_text" text NOT NULL, "calendar" text NOT NULL, "calendar_method" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "relayed_at" TIMESTAMP WITH TIME ZONE, "sent_at" TIMESTAMP WITH TIME ZONE, "attempts" integer NOT NULL DEFAULT '0', "last_error" text, CONSTRAINT "outbound_emails_calendar_method_check" CHECK (calendar_method IN ('REQUEST', 'CANCEL')), CONSTRAINT "outbound_emails_audience_check" CHECK (audience IN ('CLIENT', 'BUSINESS')), CONSTRAINT "outbound_emails_kind_check" CHECK (kind IN ('APPOINTMENT_BOOKED', 'APPOINTMENT_RESCHEDULED', 'APPOINTMENT_CANCELLED')), CONSTRAINT "PK_d07cd54ab4e5dd921ff509203ae" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "outbound_emails_appointment_idx" ON "outbound_emails"  ("appointment_id") `);
    await queryRunner.query(`CREATE INDEX "outbound_emails_unrelayed_idx" ON "outbound_emails"  ("created_at") WHERE relayed_at IS NULL`);
    await queryRunner.query(
      `ALTER TABLE "outbound_emails" ADD CONSTRAINT "FK_59353d3f59b67ef901a5f46b0ad" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "outbound_emails" ADD CONSTRAINT "FK_c6845cc78067ea90d0890c94c36" FOREIGN KEY ("appointment_id") REFERENCES "appointments"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "outbound_emails" DROP CONSTRAINT "FK_c6845cc78067ea90d0890c94c36"`);
    await queryRunner.query(`ALTER TABLE "outbound_emails" DROP CONSTRAINT "FK_59353d3f59b67ef901a5f46b0ad"`);
    await queryRunner.query(`DROP INDEX "public"."outbound_emails_unrelayed_idx"`);
    await queryRunner.query(`DROP INDEX "public"."outbound_emails_appointment_idx"`);
    await queryRunner.query(`DROP TABLE "outbound_emails"`);
  }
}
