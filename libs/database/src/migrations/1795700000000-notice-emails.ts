import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One outbox for a change's side effects (docs/design-record.md#write-path): an appointment
 * change's notice row also says which e-mails the worker writes for it. Rows written before this
 * migration have none (their e-mails were written beside them, as outbound_emails rows).
 */
export class NoticeEmails1795700000000 implements MigrationInterface {
  name = 'NoticeEmails1795700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "notices" ADD "emails" jsonb`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "notices" DROP COLUMN "emails"`);
  }
}
