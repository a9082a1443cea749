import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import { defineStatement } from '#database/statement.js';
import { SEALED_VALUE_PREFIX, sealedPrefixOf } from './secrets-cipher.js';

/**
 * Every key id a webhook secret in use is sealed under (`v1:<key id>:…`): the current secrets, and
 * the previous ones still signed with. A full read of a small table (at most 16 endpoints per
 * business), once per process start; it also finds the ids of values sealed before check values
 * were kept.
 */
const ENDPOINT_KEY_IDS = defineStatement<[sealedPrefix: string], { keyId: string }>({
  name: 'sealed_webhook_secret_key_ids',
  text: `SELECT DISTINCT split_part(sealed, ':', 2) AS "keyId"
  FROM webhook_endpoints
       CROSS JOIN LATERAL (VALUES (secret), (CASE WHEN previous_secret_expires_at > now() THEN previous_secret END)) AS stored(sealed)
 WHERE starts_with(sealed, $1)
 ORDER BY 1`,
});

/** Whether a stored idempotent answer still in its retention is sealed under a key (its prefix $1). */
const ANSWER_SEALED_UNDER = defineStatement<[keyPrefix: string], { found: boolean }>({
  name: 'idempotent_answer_sealed_under',
  text: `SELECT EXISTS (SELECT 1 FROM idempotency_records WHERE expires_at > now() AND starts_with(response_body, $1)) AS found`,
});

/**
 * Where values sealed under SECRETS_KEY are stored (docs/design-record.md#d25): webhook secrets
 * (webhook_endpoints.secret and previous_secret) and stored idempotent answers that hold one
 * (idempotency_records.response_body). The start check asks which key ids they need.
 */
@Injectable()
export class SealedValuesRepository {
  constructor(private readonly database: Database) {}

  /** The key ids the stored webhook secrets are sealed under. */
  async webhookSecretKeyIds(): Promise<string[]> {
    return (await this.database.rows(ENDPOINT_KEY_IDS, [SEALED_VALUE_PREFIX])).map((row) => row.keyId);
  }

  /** Whether a stored idempotent answer, still replayable, is sealed under the key id. */
  async answerSealedUnder(keyId: string): Promise<boolean> {
    return (await this.database.one(ANSWER_SEALED_UNDER, [sealedPrefixOf(keyId)])).found;
  }
}
