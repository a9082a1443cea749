import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What each delivery attempt sent and what came back, for the console's deliveries page
 * (docs/design-record.md#d29): the address and headers as sent, the version the body was shaped
 * for and its SHA-256 (the body itself is rebuilt from the notice and checked against the hash; it
 * is stored only when it cannot be rebuilt, a test ping's), the first 1 KB of the answer, and the
 * failure's code, from which its readable text is made. Written by the statement that records the
 * attempt: no statement is added per attempt. Attempts recorded before have none of it (null).
 */
export class DeliveryAttemptExchanges1795790000000 implements MigrationInterface {
  name = 'DeliveryAttemptExchanges1795790000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "delivery_attempts"
      ADD "request_url" text,
      ADD "request_headers" jsonb,
      ADD "api_version" text,
      ADD "request_body_sha256" bytea,
      ADD "request_body" text,
      ADD "response_excerpt" text,
      ADD "failure" text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "delivery_attempts"
      DROP COLUMN "request_url",
      DROP COLUMN "request_headers",
      DROP COLUMN "api_version",
      DROP COLUMN "request_body_sha256",
      DROP COLUMN "request_body",
      DROP COLUMN "response_excerpt",
      DROP COLUMN "failure"`);
  }
}
