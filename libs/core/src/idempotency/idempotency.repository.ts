import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import type { IdempotencyRecordEntity } from '#database/entities/idempotency-record.entity.js';
import { defineStatement } from '#database/statement.js';

/** What a replay needs of a stored record. */
export type LiveRecord = Pick<IdempotencyRecordEntity, 'fingerprint' | 'responseStatus' | 'responseBody' | 'responseContentType'>;

/**
 * The stored response of a key ($1 the API key's id, $2 the Idempotency-Key) if it is still
 * within its retention. An expired record that the purge job has not reached yet is deleted by the
 * same statement, freeing the key. Planned on every call: idempotency_records starts empty.
 */
export const TAKE_LIVE = defineStatement<[apiKeyId: string, idempotencyKey: string], LiveRecord>({
  name: 'take_live_idempotency_record',
  text: `WITH expired AS (
  DELETE FROM idempotency_records WHERE api_key_id = $1 AND idempotency_key = $2 AND expires_at <= now()
)
SELECT fingerprint, response_status AS "responseStatus", response_body AS "responseBody",
       response_content_type AS "responseContentType"
  FROM idempotency_records WHERE api_key_id = $1 AND idempotency_key = $2 AND expires_at > now()`,
  planEachCall: true,
});

const TRY_LOCK = defineStatement<[lockName: string], { locked: boolean }>({
  name: 'try_idempotency_lock',
  text: 'SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked',
});

const SET_SAVEPOINT = defineStatement<[]>({ name: 'savepoint_idempotent_write', text: 'SAVEPOINT idempotent_write' });
const ROLLBACK_TO_SAVEPOINT = defineStatement<[]>({ name: 'undo_idempotent_write', text: 'ROLLBACK TO SAVEPOINT idempotent_write' });

/** lock_timeout for the rest of the transaction (text such as '10000ms', or '0' for none). */
const SET_LOCK_TIMEOUT = defineStatement<[timeout: string]>({
  name: 'set_lock_timeout',
  text: "SELECT set_config('lock_timeout', $1, true)",
});

const WAIT_FOR_LOCK = defineStatement<[lockName: string]>({
  name: 'wait_idempotency_lock',
  text: 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))',
});

type RecordParams = [
  id: string,
  apiKeyId: string,
  idempotencyKey: string,
  fingerprint: string,
  responseStatus: number,
  responseBody: string,
  responseContentType: string,
  createdAt: Date,
  expiresAt: Date,
];

const INSERT_RECORD = defineStatement<RecordParams>({
  name: 'insert_idempotency_record',
  text: `INSERT INTO idempotency_records (id, api_key_id, idempotency_key, fingerprint, response_status, response_body,
                                 response_content_type, created_at, expires_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
});

export const PURGE_EXPIRED = defineStatement<[now: Date]>({
  name: 'purge_idempotency_records',
  text: 'DELETE FROM idempotency_records WHERE expires_at < $1',
});

/**
 * Claims a key for a write that runs outside a transaction (docs/design-record.md#d24): a new
 * claim, or one that lapsed, is taken; a live one is left as it is and its fingerprint returned,
 * so the caller can tell a duplicate in flight from a different request under the same key.
 */
export const CLAIM = defineStatement<
  [apiKeyId: string, idempotencyKey: string, fingerprint: string, expiresAt: Date],
  { taken: boolean; fingerprint: string }
>({
  name: 'claim_idempotency_key',
  text: `WITH taken AS (
  INSERT INTO idempotency_claims (api_key_id, idempotency_key, fingerprint, expires_at) VALUES ($1, $2, $3, $4)
  ON CONFLICT (api_key_id, idempotency_key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, expires_at = EXCLUDED.expires_at
   WHERE idempotency_claims.expires_at <= now()
  RETURNING fingerprint
)
SELECT true AS taken, fingerprint FROM taken
UNION ALL
SELECT false AS taken, fingerprint FROM idempotency_claims
 WHERE api_key_id = $1 AND idempotency_key = $2 AND NOT EXISTS (SELECT 1 FROM taken)`,
});

const RELEASE_CLAIM = defineStatement<[apiKeyId: string, idempotencyKey: string]>({
  name: 'release_idempotency_claim',
  text: 'DELETE FROM idempotency_claims WHERE api_key_id = $1 AND idempotency_key = $2',
});

export const PURGE_LAPSED_CLAIMS = defineStatement<[now: Date]>({
  name: 'purge_idempotency_claims',
  text: 'DELETE FROM idempotency_claims WHERE expires_at < $1',
});

@Injectable()
export class IdempotencyRepository {
  constructor(private readonly database: Database) {}

  /**
   * Tries the key's transaction advisory lock, reads its live record and sets the savepoint a
   * refused write is undone to, in one round trip. The record is the key's truth only when the
   * lock was taken (`locked`); else a duplicate in flight holds it, and the caller waits for it
   * (waitThenRead).
   */
  async tryLockThenRead(lockName: string, apiKeyId: string, idempotencyKey: string): Promise<{ locked: boolean; live: LiveRecord | null }> {
    const [[{ locked }], live] = await this.database.sendTogether(
      { statement: TRY_LOCK, params: [lockName] },
      { statement: TAKE_LIVE, params: [apiKeyId, idempotencyKey] },
      { statement: SET_SAVEPOINT, params: [] },
    );
    return { locked, live: live[0] ?? null };
  }

  /**
   * Waits at most `waitMs` for the key's lock (lock_timeout around the wait only; past it the
   * statement fails with lock_not_available), then reads the live record and sets the savepoint
   * again, after the lock: a rollback to a savepoint set before it would release the lock and let
   * a third duplicate in.
   */
  async waitThenRead(lockName: string, waitMs: number, apiKeyId: string, idempotencyKey: string): Promise<LiveRecord | null> {
    const [, , , live] = await this.database.sendTogether(
      { statement: SET_LOCK_TIMEOUT, params: [`${Math.trunc(waitMs)}ms`] },
      { statement: WAIT_FOR_LOCK, params: [lockName] },
      { statement: SET_LOCK_TIMEOUT, params: ['0'] },
      { statement: TAKE_LIVE, params: [apiKeyId, idempotencyKey] },
      { statement: SET_SAVEPOINT, params: [] },
    );
    return live[0] ?? null;
  }

  /** Undoes what a refused write did since the savepoint tryLockThenRead or waitThenRead set. */
  async undoWrite(): Promise<void> {
    await this.database.execute(ROLLBACK_TO_SAVEPOINT, []);
  }

  /**
   * Claims the key until `expiresAt` for a write that runs outside a transaction; null when the
   * claim is taken, else the fingerprint of the live claim that holds the key.
   */
  async claim(apiKeyId: string, idempotencyKey: string, fingerprint: string, expiresAt: Date): Promise<{ heldBy: string } | null> {
    // No row at all: a claim committed after this statement's snapshot holds it.
    const row = await this.database.maybeOne(CLAIM, [apiKeyId, idempotencyKey, fingerprint, expiresAt]);
    if (row === null) return { heldBy: '' };
    return row.taken ? null : { heldBy: row.fingerprint };
  }

  /** Gives a claimed key back: its write is stored, or it failed without an answer worth keeping. */
  async releaseClaim(apiKeyId: string, idempotencyKey: string): Promise<void> {
    await this.database.execute(RELEASE_CLAIM, [apiKeyId, idempotencyKey]);
  }

  /**
   * Stores the record as the ambient transaction's last statement, in its COMMIT's round trip:
   * the write's own transaction, or a short one after a write that ran outside one.
   */
  async storeLast(record: IdempotencyRecordEntity): Promise<void> {
    await this.database.executeLast(INSERT_RECORD, recordParams(record));
  }

  /** Deletes records whose retention ended before `now`, and claims that lapsed; returns how many records. */
  async purgeExpired(now: Date): Promise<number> {
    await this.database.execute(PURGE_LAPSED_CLAIMS, [now]);
    return this.database.execute(PURGE_EXPIRED, [now]);
  }
}

function recordParams(record: IdempotencyRecordEntity): RecordParams {
  return [
    record.id,
    record.apiKeyId,
    record.idempotencyKey,
    record.fingerprint,
    record.responseStatus,
    record.responseBody,
    record.responseContentType,
    record.createdAt,
    record.expiresAt,
  ];
}
