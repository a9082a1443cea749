import type { MigrationInterface, QueryRunner } from 'typeorm';

export class OutboundEmailCalendarEvent1795309809351 implements MigrationInterface {
  name = 'OutboundEmailCalendarEvent1795309809351';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "outbound_emails" ADD "calendar_event" jsonb`);
    await queryRunner.query(`ALTER TABLE "outbound_emails" ALTER COLUMN "calendar" DROP NOT NULL`);
    await queryRunner.query(
      `ALTER TABLE "outbound_emails" ADD CONSTRAINT "outbound_emails_calendar_check" CHECK (calendar IS NOT NULL OR calendar_event IS NOT NULL)`,
    );
  }

  // Refuses (NOT NULL) while rows queued since hold only calendar_event: send or delete them first.
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "outbound_emails" DROP CONSTRAINT "outbound_emails_calendar_check"`);
    await queryRunner.query(`ALTER TABLE "outbound_emails" ALTER COLUMN "calendar" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "outbound_emails" DROP COLUMN "calendar_event"`);
  }
}
