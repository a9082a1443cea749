import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import type { IdempotencyRecordEntity } from '#database/entities/idempotency-record.entity.js';
import { defineStatement } from '#database/statement.js';
import { SEALED_VALUE_PREFIX } from '../secrets/secrets-cipher.js';

/** A stored answer sealed under SECRETS_KEY, as read to be sealed again. */
export type SealedAnswer = Pick<IdempotencyRecordEntity, 'id' | 'apiKeyId' | 'idempotencyKey' | 'responseBody'>;

// starts_with, not LIKE: a key id may hold `_` (see webhook_secrets_not_sealed_with).
const SEALED_NOT_WITH = defineStatement<[sealedPrefix: string, currentPrefix: string, afterId: string, limit: number], SealedAnswer>({
  name: 'idempotent_answers_not_sealed_with',
  text: `SELECT id, api_key_id AS "apiKeyId", idempotency_key AS "idempotencyKey", response_body AS "responseBody"
  FROM idempotency_records
 WHERE id > $3 AND expires_at > now() AND starts_with(response_body, $1) AND NOT starts_with(response_body, $2)
 ORDER BY id LIMIT $4`,
});

/** Compare-and-set, as for webhook secrets: a record changed or purged meanwhile is left alone. */
const RESEAL = defineStatement<[id: string, oldBody: string, body: string]>({
  name: 'reseal_idempotent_answer',
  text: `UPDATE idempotency_records SET response_body = $3 WHERE id = $1 AND response_body = $2`,
});

/** Stored idempotent answers that are sealed (docs/design-record.md#d25), for `admin secrets re-encrypt`. */
@Injectable()
export class SealedAnswersRepository {
  constructor(private readonly database: Database) {}

  /** Up to `limit` sealed answers still replayable whose key is not the one of `currentPrefix`, in id order after `afterId`. */
  sealedNotWith(currentPrefix: string, afterId: string, limit: number): Promise<SealedAnswer[]> {
    return this.database.rows(SEALED_NOT_WITH, [SEALED_VALUE_PREFIX, currentPrefix, afterId, limit]);
  }

  /** Writes the answer sealed again, if it is still what was read. */
  async reseal(answer: SealedAnswer, body: string): Promise<boolean> {
    return (await this.database.execute(RESEAL, [answer.id, answer.responseBody, body])) > 0;
  }
}
