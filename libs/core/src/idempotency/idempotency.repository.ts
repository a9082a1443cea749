import { Injectable } from '@nestjs/common';
import pg from 'pg';
import { DataSource, QueryFailedError, type EntityManager } from 'typeorm';
import type { IdempotencyRecordEntity } from '#database/entities/idempotency-record.entity.js';
import { preparedQuery } from '#database/prepared-query.js';

/** What a replay needs of a stored record. */
export type LiveRecord = Pick<IdempotencyRecordEntity, 'fingerprint' | 'responseStatus' | 'responseBody' | 'responseContentType'>;

/** How an idempotent write opened: whether it holds its key's lock, and the key's live record if any. */
export interface OpenedWrite {
  locked: boolean;
  record: LiveRecord | null;
}

/** Where a refused write is undone to, while its refusal is still stored. */
const SAVEPOINT = 'idempotent_write';

/**
 * The stored response of a key if it is still within its retention. An expired record that the
 * purge job has not reached yet is deleted by the same statement, freeing the key.
 */
const takeLiveSql = (apiKeyId: string, idempotencyKey: string) => `
WITH expired AS (
  DELETE FROM idempotency_records WHERE api_key_id = ${apiKeyId} AND idempotency_key = ${idempotencyKey} AND expires_at <= now()
)
SELECT fingerprint, response_status AS "responseStatus", response_body AS "responseBody",
       response_content_type AS "responseContentType"
  FROM idempotency_records WHERE api_key_id = ${apiKeyId} AND idempotency_key = ${idempotencyKey} AND expires_at > now()`;

const lockKeySql = (lockName: string) => `hashtextextended(${lockName}, 0)`;

const INSERT_RECORD = {
  name: 'insert_idempotency_record',
  text: `INSERT INTO idempotency_records (id, api_key_id, idempotency_key, fingerprint, response_status, response_body,
                                        response_content_type, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
};

@Injectable()
export class IdempotencyRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Opens an idempotent write in its transaction, in one round trip: tries the key's transaction
   * advisory lock, then (a statement of its own, so with a snapshot taken once the lock is held)
   * reads the key's live record, then sets the savepoint the write can be undone to. Every
   * idempotent write starts this way, and three round trips cost more than the statements. The
   * simple query protocol that sends several statements at once takes no parameters, so the
   * values go as quoted literals (the key matches the contract's pattern, and is quoted anyway).
   */
  async open(apiKeyId: string, idempotencyKey: string, lockName: string, manager: EntityManager): Promise<OpenedWrite> {
    const [key, name] = [pg.escapeLiteral(idempotencyKey), pg.escapeLiteral(lockName)];
    const sql = `SELECT pg_try_advisory_xact_lock(${lockKeySql(name)}) AS locked;
${takeLiveSql(pg.escapeLiteral(apiKeyId), key)};
SAVEPOINT ${SAVEPOINT}`;
    const connection = (await manager.queryRunner!.connect()) as pg.PoolClient;
    let results: pg.QueryResult[];
    try {
      results = (await connection.query(sql)) as unknown as pg.QueryResult[];
    } catch (error) {
      throw new QueryFailedError(sql, [], error as Error);
    }
    const [{ locked }] = results[0].rows as { locked: boolean }[];
    return { locked, record: (results[1].rows[0] as LiveRecord | undefined) ?? null };
  }

  /**
   * The slow way in, for a write whose key's lock was taken by a duplicate still in flight: waits
   * at most `waitMs` for the lock (lock_timeout around the wait only), then reads the record
   * again. The savepoint moves after the lock: a lock taken after it would be released by a
   * rollback to it, letting a third duplicate in.
   */
  async waitAndTake(apiKeyId: string, idempotencyKey: string, lockName: string, waitMs: number, manager: EntityManager): Promise<LiveRecord | null> {
    await manager.query(`RELEASE SAVEPOINT ${SAVEPOINT}`);
    await manager.query(`SET LOCAL lock_timeout = '${Math.trunc(waitMs)}ms'`);
    await manager.query(`SELECT pg_advisory_xact_lock(${lockKeySql('$1')})`, [lockName]);
    await manager.query('SET LOCAL lock_timeout = 0');
    const rows: LiveRecord[] = await manager.query(takeLiveSql('$1', '$2'), [apiKeyId, idempotencyKey]);
    await manager.query(`SAVEPOINT ${SAVEPOINT}`);
    return rows[0] ?? null;
  }

  /** Undoes what a refused write did since the write was opened. */
  async undoWrite(manager: EntityManager): Promise<void> {
    await manager.query(`ROLLBACK TO SAVEPOINT ${SAVEPOINT}`);
  }

  /** Plain SQL: every idempotent write runs it, and TypeORM's insert builder costs more CPU than the statement. */
  async insert(record: IdempotencyRecordEntity, manager: EntityManager): Promise<void> {
    await preparedQuery(manager, INSERT_RECORD, [
        record.id,
        record.apiKeyId,
        record.idempotencyKey,
        record.fingerprint,
        record.responseStatus,
        record.responseBody,
        record.responseContentType,
        record.createdAt,
        record.expiresAt,
    ]);
  }

  /** Deletes records whose retention ended before `now`; returns how many. */
  async purgeExpired(now: Date): Promise<number> {
    const result: [unknown[], number] = await this.dataSource.query(
      'DELETE FROM idempotency_records WHERE expires_at < $1',
      [now],
    );
    return result[1];
  }
}
