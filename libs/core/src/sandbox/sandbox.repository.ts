import { Injectable } from '@nestjs/common';
import type { ApiVersion } from '#contract/versions/api-versions.js';
import { Database } from '#database/database.js';
import type { ApiKeyOrigin } from '#database/entities/api-key.entity.js';
import type { BusinessEntity, Plan } from '#database/entities/business.entity.js';
import { defineStatement } from '#database/statement.js';

/** The sandbox row's own slug: the live slug and a character no live slug has, so it can never take one. */
export const SANDBOX_SLUG_SUFFIX = '.test';

const SANDBOX_COLUMNS = `id, slug, name, timezone, country, currency, locale, plan, auto_confirm AS "autoConfirm", step_min AS "stepMin",
       notification_email AS "notificationEmail", live_business_id AS "liveBusinessId", created_at AS "createdAt", updated_at AS "updatedAt"`;

const SANDBOX_OF = defineStatement<[liveBusinessId: string], BusinessEntity>({
  name: 'sandbox_of_business',
  text: `SELECT ${SANDBOX_COLUMNS} FROM businesses WHERE live_business_id = $1`,
});

// Create and reset of one business's sandbox wait for each other on the live row.
const LOCK_LIVE = defineStatement<[liveBusinessId: string], { plan: Plan }>({
  name: 'lock_live_business',
  text: 'SELECT plan FROM businesses WHERE id = $1 AND live_business_id IS NULL FOR UPDATE',
});

// The sandbox takes the live business's settings as they are now (docs/design-record.md#d19).
const INSERT_SANDBOX = defineStatement<[liveBusinessId: string, sandboxId: string, slugSuffix: string, at: Date]>({
  name: 'insert_sandbox_business',
  text: `INSERT INTO businesses (id, slug, name, timezone, country, currency, locale, plan, auto_confirm, notification_email, step_min,
                        live_business_id, created_at, updated_at)
SELECT $2, slug || $3, name, timezone, country, currency, locale, plan, auto_confirm, notification_email, step_min, id, $4, $4
  FROM businesses WHERE id = $1 AND live_business_id IS NULL`,
});

// Everything of the sandbox goes with its row (every business_id foreign key cascades), extensions' tables included.
const DELETE_SANDBOX = defineStatement<[sandboxId: string]>({
  name: 'delete_sandbox_business',
  text: 'DELETE FROM businesses WHERE id = $1 AND live_business_id IS NOT NULL',
});

export interface SandboxKeyRow {
  id: string;
  member_id: string;
  name: string;
  prefix: string;
  key_hash: string;
  scopes: string[];
  created_at: Date;
  revoked_at: Date | null;
  /** A reset keeps each key's version (docs/design-record.md#d22). */
  api_version: ApiVersion;
  /** And where it was made: a reset does not give the console back its hourly keys (docs/design-record.md#d28). */
  origin: ApiKeyOrigin;
  last_used_at: Date | null;
}

const KEYS_OF = defineStatement<[businessId: string], SandboxKeyRow>({
  name: 'sandbox_keys',
  text: 'SELECT id, member_id, name, prefix, key_hash, scopes, created_at, revoked_at, api_version, origin, last_used_at FROM api_keys WHERE business_id = $1',
});

const RESTORE_KEYS = defineStatement<[businessId: string, keys: string]>({
  name: 'restore_sandbox_keys',
  text: `INSERT INTO api_keys (id, business_id, member_id, name, prefix, key_hash, scopes, created_at, revoked_at, api_version, origin, last_used_at)
SELECT k.id, $1, k.member_id, k.name, k.prefix, k.key_hash, k.scopes, k.created_at, k.revoked_at, k.api_version, k.origin, k.last_used_at
  FROM jsonb_to_recordset($2::jsonb) AS k(id uuid, member_id uuid, name text, prefix text, key_hash text, scopes text[],
       created_at timestamptz, revoked_at timestamptz, api_version text, origin text, last_used_at timestamptz)`,
});

export interface CatalogueStaffRow {
  id: string;
  name: string;
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

const CATALOGUE_STAFF = defineStatement<[businessId: string], CatalogueStaffRow>({
  name: 'catalogue_staff',
  text: 'SELECT id, name, active, created_at, updated_at FROM staff WHERE business_id = $1 ORDER BY id',
});

const CATALOGUE_HOURS = defineStatement<[businessId: string], { staff_id: string; weekday: number; start_time: string; end_time: string }>({
  name: 'catalogue_working_hours',
  text: 'SELECT staff_id, weekday, start_time::text AS start_time, end_time::text AS end_time FROM staff_working_hours WHERE business_id = $1 ORDER BY id',
});

const CATALOGUE_BLOCKS = defineStatement<[businessId: string], { staff_id: string; starts_at: Date; ends_at: Date }>({
  name: 'catalogue_time_blocks',
  text: 'SELECT staff_id, starts_at, ends_at FROM staff_time_blocks WHERE business_id = $1 ORDER BY id',
});

const CATALOGUE_STAFF_SERVICES = defineStatement<[businessId: string], { staff_id: string; service_id: string }>({
  name: 'catalogue_staff_services',
  text: 'SELECT staff_id, service_id FROM staff_services WHERE business_id = $1 ORDER BY staff_id, service_id',
});

/** One e-mail the sandbox kept instead of sending (docs/design-record.md#d19). */
export interface KeptEmailRow {
  id: string;
  kind: string;
  audience: string;
  recipient: string;
  subject: string;
  appointmentId: string | null;
  createdAt: Date;
  keptAt: Date | null;
}

const KEPT_EMAILS = defineStatement<[sandboxId: string], KeptEmailRow>({
  name: 'sandbox_kept_emails',
  text: `SELECT id, kind, audience, recipient, subject, appointment_id AS "appointmentId", created_at AS "createdAt", sent_at AS "keptAt"
  FROM outbound_emails WHERE business_id = $1 ORDER BY created_at, id`,
});

/** The sandbox row of a live business, and what a copy of its catalogue reads (docs/design-record.md#d19). */
@Injectable()
export class SandboxRepository {
  constructor(private readonly database: Database) {}

  findSandboxOf(liveBusinessId: string): Promise<BusinessEntity | null> {
    return this.database.maybeOne(SANDBOX_OF, [liveBusinessId]);
  }

  /** Locks the live business's row until the transaction ends; its plan as it is under the lock. */
  async lockLive(liveBusinessId: string): Promise<Plan> {
    return (await this.database.one(LOCK_LIVE, [liveBusinessId])).plan;
  }

  async insertSandbox(liveBusinessId: string, sandboxId: string, at: Date): Promise<void> {
    await this.database.execute(INSERT_SANDBOX, [liveBusinessId, sandboxId, SANDBOX_SLUG_SUFFIX, at]);
  }

  async deleteSandbox(sandboxId: string): Promise<void> {
    await this.database.execute(DELETE_SANDBOX, [sandboxId]);
  }

  keysOf(businessId: string): Promise<SandboxKeyRow[]> {
    return this.database.rows(KEYS_OF, [businessId]);
  }

  async restoreKeys(businessId: string, keys: SandboxKeyRow[]): Promise<void> {
    if (keys.length > 0) await this.database.execute(RESTORE_KEYS, [businessId, JSON.stringify(keys)]);
  }

  staffOf(businessId: string): Promise<CatalogueStaffRow[]> {
    return this.database.rows(CATALOGUE_STAFF, [businessId]);
  }

  workingHoursOf(businessId: string) {
    return this.database.rows(CATALOGUE_HOURS, [businessId]);
  }

  timeBlocksOf(businessId: string) {
    return this.database.rows(CATALOGUE_BLOCKS, [businessId]);
  }

  staffServicesOf(businessId: string) {
    return this.database.rows(CATALOGUE_STAFF_SERVICES, [businessId]);
  }

  keptEmails(sandboxId: string): Promise<KeptEmailRow[]> {
    return this.database.rows(KEPT_EMAILS, [sandboxId]);
  }
}
