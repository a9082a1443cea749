import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The owner's console (docs/design-record.md#d26). Better Auth's four tables, named `console_*`
 * with snake_case columns (its schema as mapped in libs/core/src/console-auth/console-auth.ts):
 * an e-mail identity (console_users), its sessions, the accounts Better Auth keeps beside a user
 * (none for e-mail links, but it reads the table), and the one-time sign-in links
 * (console_verifications, the token stored hashed). Better Auth makes its ids itself, as text.
 * Then the audit of every change made in the console.
 */
export class Console1795750000000 implements MigrationInterface {
  name = 'Console1795750000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "console_users" ("id" text NOT NULL, "name" text NOT NULL, "email" text NOT NULL, "email_verified" boolean NOT NULL DEFAULT false, "image" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "console_users_pkey" PRIMARY KEY ("id"), CONSTRAINT "console_users_email_key" UNIQUE ("email"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "console_sessions" ("id" text NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "token" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "ip_address" text, "user_agent" text, "user_id" text NOT NULL REFERENCES "console_users" ("id") ON DELETE CASCADE, CONSTRAINT "console_sessions_pkey" PRIMARY KEY ("id"), CONSTRAINT "console_sessions_token_key" UNIQUE ("token"))`,
    );
    await queryRunner.query(`CREATE INDEX "console_sessions_user_idx" ON "console_sessions" ("user_id")`);
    await queryRunner.query(
      `CREATE TABLE "console_accounts" ("id" text NOT NULL, "account_id" text NOT NULL, "provider_id" text NOT NULL, "user_id" text NOT NULL REFERENCES "console_users" ("id") ON DELETE CASCADE, "access_token" text, "refresh_token" text, "id_token" text, "access_token_expires_at" TIMESTAMP WITH TIME ZONE, "refresh_token_expires_at" TIMESTAMP WITH TIME ZONE, "scope" text, "password" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "console_accounts_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "console_accounts_user_idx" ON "console_accounts" ("user_id")`);
    await queryRunner.query(
      `CREATE TABLE "console_verifications" ("id" text NOT NULL, "identifier" text NOT NULL, "value" text NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "console_verifications_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "console_verifications_identifier_idx" ON "console_verifications" ("identifier")`);
    await queryRunner.query(
      `CREATE TABLE "console_audit_entries" ("id" uuid NOT NULL, "business_id" uuid NOT NULL, "actor_email" text NOT NULL, "action" text NOT NULL, "subject" text NOT NULL, "address" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_console_audit_entries" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "console_audit_entries_business_idx" ON "console_audit_entries" ("business_id", "created_at") `);
    await queryRunner.query(
      `ALTER TABLE "console_audit_entries" ADD CONSTRAINT "FK_719c1883fa1ebca4a0e26e383c1" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "console_audit_entries"`);
    await queryRunner.query(`DROP TABLE "console_verifications"`);
    await queryRunner.query(`DROP TABLE "console_accounts"`);
    await queryRunner.query(`DROP TABLE "console_sessions"`);
    await queryRunner.query(`DROP TABLE "console_users"`);
  }
}
