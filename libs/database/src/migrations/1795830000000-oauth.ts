import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The OAuth 2.1 server (docs/design-record.md#d30). Better Auth's OAuth provider tables, named
 * `oauth_*` with snake_case columns (its schema as mapped in libs/core/src/oauth/oauth-server-options.ts);
 * Better Auth makes their ids itself, as text, and stores lists as jsonb. Tokens and codes are kept
 * as their SHA-256 only. Then a grant is a credential of api_keys (origin `oauth`, the app's
 * client id beside it), so the key's checks, budgets, rate limit and idempotency hold for it.
 */
export class Oauth1795830000000 implements MigrationInterface {
  name = 'Oauth1795830000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "oauth_clients" ("id" text NOT NULL PRIMARY KEY, "client_id" text NOT NULL UNIQUE, "client_secret" text, "client_discovery_id" text, "disabled" boolean, "skip_consent" boolean, "enable_end_session" boolean, "subject_type" text, "scopes" jsonb, "client_credentials_scopes" jsonb, "user_id" text REFERENCES "console_users" ("id") ON DELETE CASCADE, "created_at" timestamptz, "updated_at" timestamptz, "name" text, "uri" text, "icon" text, "contacts" jsonb, "tos" text, "policy" text, "software_id" text, "software_version" text, "software_statement" text, "redirect_uris" jsonb NOT NULL, "post_logout_redirect_uris" jsonb, "backchannel_logout_uri" text, "backchannel_logout_session_required" boolean, "token_endpoint_auth_method" text, "application_type" text, "jwks" text, "jwks_uri" text, "grant_types" jsonb, "response_types" jsonb, "require_pkce" boolean, "dpop_bound_access_tokens" boolean, "reference_id" text, "metadata" jsonb)`,
    );
    await queryRunner.query(`CREATE INDEX "oauth_clients_user_id_idx" ON "oauth_clients" ("user_id")`);
    await queryRunner.query(
      `CREATE TABLE "oauth_resources" ("id" text NOT NULL PRIMARY KEY, "identifier" text NOT NULL UNIQUE, "name" text NOT NULL, "access_token_ttl" integer, "refresh_token_ttl" integer, "signing_algorithm" text, "signing_key_id" text, "allowed_scopes" jsonb, "custom_claims" jsonb, "dpop_bound_access_tokens_required" boolean, "disabled" boolean, "created_at" timestamptz, "updated_at" timestamptz, "policy_version" integer, "metadata" jsonb)`,
    );
    await queryRunner.query(
      `CREATE TABLE "oauth_client_resources" ("id" text NOT NULL PRIMARY KEY, "client_id" text NOT NULL REFERENCES "oauth_clients" ("client_id") ON DELETE CASCADE, "resource_id" text NOT NULL REFERENCES "oauth_resources" ("identifier") ON DELETE CASCADE, "metadata" jsonb, "created_at" timestamptz)`,
    );
    await queryRunner.query(`CREATE INDEX "oauth_client_resources_resource_id_idx" ON "oauth_client_resources" ("resource_id")`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "oauth_client_resources_client_id_resource_id_uidx" ON "oauth_client_resources" ("client_id", "resource_id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "oauth_refresh_tokens" ("id" text NOT NULL PRIMARY KEY, "token" text NOT NULL UNIQUE, "client_id" text NOT NULL REFERENCES "oauth_clients" ("client_id") ON DELETE CASCADE, "session_id" text REFERENCES "console_sessions" ("id") ON DELETE SET NULL, "user_id" text NOT NULL REFERENCES "console_users" ("id") ON DELETE CASCADE, "reference_id" text, "authorization_code_id" text, "resources" jsonb, "requested_user_info_claims" jsonb, "expires_at" timestamptz NOT NULL, "created_at" timestamptz NOT NULL, "revoked" timestamptz, "rotated_at" timestamptz, "rotation_replay_response" text, "rotation_replay_expires_at" timestamptz, "auth_time" timestamptz, "confirmation" jsonb, "scopes" jsonb NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE TABLE "oauth_access_tokens" ("id" text NOT NULL PRIMARY KEY, "token" text NOT NULL UNIQUE, "client_id" text NOT NULL REFERENCES "oauth_clients" ("client_id") ON DELETE CASCADE, "session_id" text REFERENCES "console_sessions" ("id") ON DELETE SET NULL, "user_id" text REFERENCES "console_users" ("id") ON DELETE CASCADE, "reference_id" text, "authorization_code_id" text, "resources" jsonb, "requested_user_info_claims" jsonb, "refresh_id" text REFERENCES "oauth_refresh_tokens" ("id") ON DELETE CASCADE, "expires_at" timestamptz NOT NULL, "created_at" timestamptz NOT NULL, "revoked" timestamptz, "confirmation" jsonb, "scopes" jsonb NOT NULL)`,
    );
    for (const table of ['oauth_refresh_tokens', 'oauth_access_tokens']) {
      for (const column of ['client_id', 'session_id', 'user_id', 'authorization_code_id', 'reference_id']) {
        await queryRunner.query(`CREATE INDEX "${table}_${column}_idx" ON "${table}" ("${column}")`);
      }
    }
    await queryRunner.query(`CREATE INDEX "oauth_access_tokens_refresh_id_idx" ON "oauth_access_tokens" ("refresh_id")`);
    await queryRunner.query(
      `CREATE TABLE "oauth_consents" ("id" text NOT NULL PRIMARY KEY, "client_id" text NOT NULL REFERENCES "oauth_clients" ("client_id") ON DELETE CASCADE, "user_id" text REFERENCES "console_users" ("id") ON DELETE CASCADE, "reference_id" text, "resources" jsonb, "requested_user_info_claims" jsonb, "scopes" jsonb NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL)`,
    );
    await queryRunner.query(`CREATE INDEX "oauth_consents_client_id_idx" ON "oauth_consents" ("client_id")`);
    await queryRunner.query(`CREATE INDEX "oauth_consents_user_id_idx" ON "oauth_consents" ("user_id")`);
    await queryRunner.query(`CREATE TABLE "oauth_client_assertions" ("id" text NOT NULL PRIMARY KEY, "expires_at" timestamptz NOT NULL)`);

    await queryRunner.query(`ALTER TABLE "api_keys" ADD "oauth_client_id" text`);
    await queryRunner.query(`CREATE INDEX "api_keys_oauth_client_idx" ON "api_keys" ("oauth_client_id") WHERE oauth_client_id IS NOT NULL`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_origin_check"`);
    await queryRunner.query(
      `ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_origin_check" CHECK (origin IN ('admin', 'console', 'oauth'))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "api_keys" WHERE origin = 'oauth'`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_origin_check"`);
    await queryRunner.query(`ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_origin_check" CHECK (origin IN ('admin', 'console'))`);
    await queryRunner.query(`DROP INDEX "api_keys_oauth_client_idx"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "oauth_client_id"`);
    for (const table of [
      'oauth_client_assertions',
      'oauth_consents',
      'oauth_access_tokens',
      'oauth_refresh_tokens',
      'oauth_client_resources',
      'oauth_resources',
      'oauth_clients',
    ]) {
      await queryRunner.query(`DROP TABLE "${table}"`);
    }
  }
}
