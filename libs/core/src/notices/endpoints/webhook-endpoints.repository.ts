import { Injectable } from '@nestjs/common';
import type { ApiVersion } from '#contract/versions/api-versions.js';
import { Database } from '#database/database.js';
import type { WebhookEndpointEntity } from '#database/entities/webhook-endpoint.entity.js';
import { defineStatement } from '#database/statement.js';
import { canonicalUuid } from '../../ids/uuid.js';
import { SecretsCipher } from '../../secrets/secrets-cipher.js';

type EnabledEndpoint = Pick<WebhookEndpointEntity, 'id' | 'businessId' | 'events'>;

const ENDPOINT_COLUMNS = `id, business_id AS "businessId", url, events, description, secret, previous_secret AS "previousSecret",
       previous_secret_expires_at AS "previousSecretExpiresAt", enabled, disabled_reason AS "disabledReason",
       failing_since AS "failingSince", created_by_member_id AS "createdByMemberId", api_version AS "apiVersion",
       created_at AS "createdAt", updated_at AS "updatedAt"`;

const INSERT_ENDPOINT = defineStatement<
  [
    id: string,
    businessId: string,
    url: string,
    events: string[],
    description: string | null,
    secret: string,
    previousSecret: string | null,
    previousSecretExpiresAt: Date | null,
    enabled: boolean,
    disabledReason: string | null,
    failingSince: Date | null,
    createdByMemberId: string | null,
    createdAt: Date,
    updatedAt: Date,
    apiVersion: ApiVersion,
  ]
>({
  name: 'insert_webhook_endpoint',
  text: `INSERT INTO webhook_endpoints (id, business_id, url, events, description, secret, previous_secret, previous_secret_expires_at,
                               enabled, disabled_reason, failing_since, created_by_member_id, created_at, updated_at, api_version)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
});

const ENDPOINT_BY_ID = defineStatement<[businessId: string, id: string], WebhookEndpointEntity>({
  name: 'webhook_endpoint_by_id',
  text: `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE business_id = $1 AND id = $2`,
});

const ENDPOINTS_OF_BUSINESS = defineStatement<[businessId: string], WebhookEndpointEntity>({
  name: 'webhook_endpoints_of_business',
  text: `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE business_id = $1 ORDER BY created_at, id`,
});

const ENABLED_OF_BUSINESSES = defineStatement<[businessIds: readonly string[]], EnabledEndpoint>({
  name: 'enabled_webhook_endpoints',
  text: `SELECT id, business_id AS "businessId", events FROM webhook_endpoints
 WHERE business_id = ANY($1::uuid[]) AND enabled`,
});

const ROTATE_SECRET = defineStatement<[businessId: string, id: string, previousExpiresAt: Date, secret: string], WebhookEndpointEntity>({
  name: 'rotate_webhook_secret',
  text: `UPDATE webhook_endpoints
   SET previous_secret = secret, previous_secret_expires_at = $3, secret = $4, updated_at = now()
 WHERE business_id = $1 AND id = $2
RETURNING ${ENDPOINT_COLUMNS}`,
});

const ENABLE = defineStatement<[businessId: string, id: string]>({
  name: 'enable_webhook_endpoint',
  text: `UPDATE webhook_endpoints SET enabled = true, disabled_reason = NULL, failing_since = NULL, updated_at = now()
 WHERE business_id = $1 AND id = $2`,
});

const MARK_FAILING = defineStatement<[businessId: string, id: string, at: Date], { failing_since: Date }>({
  name: 'mark_webhook_endpoint_failing',
  text: `UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, $3), updated_at = now()
 WHERE business_id = $1 AND id = $2
RETURNING failing_since`,
});

const DISABLE = defineStatement<[businessId: string, id: string, reason: string]>({
  name: 'disable_webhook_endpoint',
  text: `UPDATE webhook_endpoints SET enabled = false, disabled_reason = $3, updated_at = now()
 WHERE business_id = $1 AND id = $2`,
});

// Two registrations of one business at the same moment must not both see 15 and make 17: the
// count and the insert that follows run after this lock, in the same transaction.
const LOCK_BUSINESS_ENDPOINTS = defineStatement<[businessId: string]>({
  name: 'lock_business_webhook_endpoints',
  text: `SELECT pg_advisory_xact_lock(hashtextextended('webhook_endpoints:' || $1::text, 0))`,
});

const COUNT_OF_BUSINESS = defineStatement<[businessId: string], { count: number }>({
  name: 'count_webhook_endpoints',
  text: `SELECT count(*)::int AS count FROM webhook_endpoints WHERE business_id = $1`,
});

const UPDATE_ENDPOINT = defineStatement<
  [businessId: string, id: string, url: string, events: string[], description: string | null, enabled: boolean],
  WebhookEndpointEntity
>({
  name: 'update_webhook_endpoint',
  // Enabling clears what disabled it; disabling by hand leaves no reason (the business chose it).
  text: `UPDATE webhook_endpoints
   SET url = $3, events = $4, description = $5, enabled = $6,
       disabled_reason = CASE WHEN $6 THEN NULL ELSE disabled_reason END,
       failing_since = CASE WHEN $6 AND NOT enabled THEN NULL ELSE failing_since END,
       updated_at = now()
 WHERE business_id = $1 AND id = $2
RETURNING ${ENDPOINT_COLUMNS}`,
});

const DELETE_ENDPOINT = defineStatement<[businessId: string, id: string]>({
  name: 'delete_webhook_endpoint',
  text: `DELETE FROM webhook_endpoints WHERE business_id = $1 AND id = $2`,
});

const ACTIVE_SUBSCRIBED = defineStatement<[businessId: string, type: string], { id: string }>({
  name: 'active_webhook_endpoints_of_type',
  text: `SELECT id FROM webhook_endpoints WHERE business_id = $1 AND enabled AND $2 = ANY(events) ORDER BY created_at, id`,
});

/** An endpoint's secrets as stored. */
export interface StoredSecrets {
  id: string;
  secret: string;
  previousSecret: string | null;
}

// starts_with, not LIKE: a key id may hold `_`, which LIKE reads as any character, so `v1:k_1:`
// matched values sealed under k-1 and they were never resealed.
const NOT_SEALED_WITH = defineStatement<[currentPrefix: string, afterId: string, limit: number], StoredSecrets>({
  name: 'webhook_secrets_not_sealed_with',
  text: `SELECT id, secret, previous_secret AS "previousSecret" FROM webhook_endpoints
 WHERE id > $2 AND (NOT starts_with(secret, $1) OR NOT starts_with(previous_secret, $1))
 ORDER BY id LIMIT $3`,
});

/** Compare-and-set: a rotation between the read and this write wins, and the row is left to the next run. */
const RESEAL = defineStatement<[id: string, oldSecret: string, oldPrevious: string | null, secret: string, previous: string | null]>({
  name: 'reseal_webhook_secrets',
  text: `UPDATE webhook_endpoints SET secret = $4, previous_secret = $5
 WHERE id = $1 AND secret = $2 AND previous_secret IS NOT DISTINCT FROM $3`,
});

@Injectable()
export class WebhookEndpointsRepository {
  constructor(
    private readonly database: Database,
    private readonly cipher: SecretsCipher,
  ) {}

  async insert(endpoint: WebhookEndpointEntity): Promise<void> {
    await this.database.execute(INSERT_ENDPOINT, [
      endpoint.id,
      endpoint.businessId,
      endpoint.url,
      endpoint.events,
      endpoint.description,
      this.cipher.seal(endpoint.secret, endpoint.id),
      endpoint.previousSecret === null ? null : this.cipher.seal(endpoint.previousSecret, endpoint.id),
      endpoint.previousSecretExpiresAt,
      endpoint.enabled,
      endpoint.disabledReason,
      endpoint.failingSince,
      endpoint.createdByMemberId,
      endpoint.createdAt,
      endpoint.updatedAt,
      endpoint.apiVersion,
    ]);
  }

  async findById(businessId: string, endpointId: string): Promise<WebhookEndpointEntity | null> {
    return this.opened(await this.database.maybeOne(ENDPOINT_BY_ID, [businessId, endpointId]));
  }

  async listByBusiness(businessId: string): Promise<WebhookEndpointEntity[]> {
    return (await this.database.rows(ENDPOINTS_OF_BUSINESS, [businessId])).map((row) => this.opened(row));
  }

  /**
   * How many endpoints the business has, counted after taking the business's registration lock:
   * call inside a transaction, and insert in the same one.
   */
  async countLocked(businessId: string): Promise<number> {
    await this.database.execute(LOCK_BUSINESS_ENDPOINTS, [businessId]);
    return (await this.database.one(COUNT_OF_BUSINESS, [businessId])).count;
  }

  /** Writes the endpoint's changeable fields; null when it is not one of this business's. */
  async update(
    businessId: string,
    endpointId: string,
    fields: Pick<WebhookEndpointEntity, 'url' | 'events' | 'description' | 'enabled'>,
  ): Promise<WebhookEndpointEntity | null> {
    return this.opened(
      await this.database.maybeOne(UPDATE_ENDPOINT, [
        businessId,
        endpointId,
        fields.url,
        fields.events,
        fields.description,
        fields.enabled,
      ]),
    );
  }

  /** Deletes the endpoint with its deliveries and their attempts (cascade). Returns whether it existed. */
  async delete(businessId: string, endpointId: string): Promise<boolean> {
    return (await this.database.execute(DELETE_ENDPOINT, [businessId, endpointId])) > 0;
  }

  /** The ids of the business's active endpoints subscribed to a notice type, oldest first. */
  async activeSubscribedTo(businessId: string, type: string): Promise<string[]> {
    return (await this.database.rows(ACTIVE_SUBSCRIBED, [businessId, type])).map((row) => row.id);
  }

  /**
   * The enabled endpoints of these businesses, for the relay (which serves every business at once
   * and matches each notice's type against `events` itself).
   */
  async findEnabledOfBusinesses(businessIds: readonly string[]): Promise<EnabledEndpoint[]> {
    if (businessIds.length === 0) return [];
    return this.database.rows(ENABLED_OF_BUSINESSES, [businessIds]);
  }

  /**
   * Replaces the secret; the one it replaces is still signed with until `previousExpiresAt`.
   * Returns the endpoint as updated, or null when it is not one of this business's.
   */
  async rotateSecret(
    businessId: string,
    endpointId: string,
    secret: string,
    previousExpiresAt: Date,
  ): Promise<WebhookEndpointEntity | null> {
    // Sealed for the row's id as PostgreSQL writes it, whatever the caller's case: the id is the
    // sealed value's additional data, and the row is opened with its own id.
    const id = canonicalUuid(endpointId);
    return this.opened(await this.database.maybeOne(ROTATE_SECRET, [businessId, id, previousExpiresAt, this.cipher.seal(secret, id)]));
  }

  /** Up to `limit` endpoints whose secrets are not sealed under the current key (plain, or an older key). */
  unsealedWithCurrentKey(afterId: string, limit: number): Promise<StoredSecrets[]> {
    return this.database.rows(NOT_SEALED_WITH, [this.cipher.currentPrefix, afterId, limit]);
  }

  /**
   * Writes an endpoint's secrets sealed again under the current key, if they are still what was
   * read ('changed' otherwise). A secret that does not open is left as it is ('unopenable'): one
   * damaged row must not stop the others being resealed (docs/design-record.md#d24).
   */
  async reseal(row: StoredSecrets): Promise<'resealed' | 'changed' | 'unopenable'> {
    let secret: string;
    let previous: string | null;
    try {
      secret = this.cipher.seal(this.cipher.open(row.secret, row.id), row.id);
      previous = row.previousSecret === null ? null : this.cipher.seal(this.cipher.open(row.previousSecret, row.id), row.id);
    } catch {
      return 'unopenable';
    }
    return (await this.database.execute(RESEAL, [row.id, row.secret, row.previousSecret, secret, previous])) > 0 ? 'resealed' : 'changed';
  }

  /**
   * The row with its secrets opened: the rest of the code sees only plain secrets. A previous
   * secret that does not open is left out, as the worker leaves it out of the signatures: rotating
   * is how a business gets past a secret the service cannot open (docs/design-record.md#d24).
   */
  private opened<T extends WebhookEndpointEntity | null>(row: T): T {
    if (row === null) return row;
    row.secret = this.cipher.open(row.secret, row.id);
    if (row.previousSecret !== null) {
      try {
        row.previousSecret = this.cipher.open(row.previousSecret, row.id);
      } catch {
        row.previousSecret = null;
        row.previousSecretExpiresAt = null;
      }
    }
    return row;
  }

  /** Enables the endpoint again, with a clean failure record. Returns whether it exists. */
  async enable(businessId: string, endpointId: string): Promise<boolean> {
    return (await this.database.execute(ENABLE, [businessId, endpointId])) > 0;
  }

  /**
   * A delivery failed at `at`: starts the endpoint's run of failures unless one is already going.
   * Returns when the run started (null if the endpoint is gone).
   */
  async markFailing(businessId: string, endpointId: string, at: Date): Promise<Date | null> {
    return (await this.database.maybeOne(MARK_FAILING, [businessId, endpointId, at]))?.failing_since ?? null;
  }

  async disable(businessId: string, endpointId: string, reason: string): Promise<void> {
    await this.database.execute(DISABLE, [businessId, endpointId, reason]);
  }
}
