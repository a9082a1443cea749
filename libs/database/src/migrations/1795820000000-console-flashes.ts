import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The console's one-time messages (docs/design-record.md#d29): what a POST leaves for the page its
 * 303 leads to (a new key, a form's refusal with what was typed), sealed, read once and deleted.
 */
export class ConsoleFlashes1795820000000 implements MigrationInterface {
  name = 'ConsoleFlashes1795820000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "console_flashes" (
      "id" uuid NOT NULL,
      "session_id" text NOT NULL,
      "path" text NOT NULL,
      "sealed" text NOT NULL,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "console_flashes_pkey" PRIMARY KEY ("id")
    )`);
    await queryRunner.query(`CREATE INDEX "console_flashes_session_idx" ON "console_flashes" ("session_id", "path")`);
    await queryRunner.query(`CREATE INDEX "console_flashes_created_idx" ON "console_flashes" ("created_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "console_flashes"`);
  }
}
