import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The waitlist's table. It has no TypeORM entity: the repository writes SQL, so
 * `npm run migration:check` (entities against migrations) does not see it.
 */
export class WaitlistEntries1795320000000 implements MigrationInterface {
  name = 'WaitlistEntries1795320000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "waitlist_entries" (
      "id" uuid PRIMARY KEY,
      "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
      "client_id" uuid NOT NULL REFERENCES "clients"("id") ON DELETE CASCADE,
      "service_id" uuid NOT NULL REFERENCES "services"("id") ON DELETE CASCADE,
      "from_date" date NOT NULL,
      "to_date" date NOT NULL,
      "note" text,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "waitlist_entries_dates_check" CHECK ("to_date" >= "from_date")
    )`);
    // A client waits once per service; the index also serves the admin's list by business.
    await queryRunner.query(
      `CREATE UNIQUE INDEX "waitlist_entries_client_service_key" ON "waitlist_entries" ("business_id", "service_id", "client_id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "waitlist_entries"`);
  }
}
