import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { IdempotencyRecordEntity } from '#database/entities/idempotency-record.entity.js';

/** What a replay needs of a stored record. */
export type LiveRecord = Pick<IdempotencyRecordEntity, 'fingerprint' | 'responseStatus' | 'responseBody' | 'responseContentType'>;

@Injectable()
export class IdempotencyRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The stored response of this key if it is still within its retention. An expired record that
   * the purge job has not reached yet is deleted by the same statement, freeing the key.
   */
  async takeLive(apiKeyId: string, idempotencyKey: string, manager: EntityManager): Promise<LiveRecord | null> {
    const rows: LiveRecord[] = await manager.query(
      `WITH expired AS (
         DELETE FROM idempotency_records WHERE api_key_id = $1 AND idempotency_key = $2 AND expires_at <= now()
       )
       SELECT fingerprint, response_status AS "responseStatus", response_body AS "responseBody",
              response_content_type AS "responseContentType"
         FROM idempotency_records WHERE api_key_id = $1 AND idempotency_key = $2 AND expires_at > now()`,
      [apiKeyId, idempotencyKey],
    );
    return rows[0] ?? null;
  }

  /** Plain SQL: every idempotent write runs it, and TypeORM's insert builder costs more CPU than the statement. */
  async insert(record: IdempotencyRecordEntity, manager: EntityManager): Promise<void> {
    await manager.query(
      `INSERT INTO idempotency_records (id, api_key_id, idempotency_key, fingerprint, response_status, response_body,
                                        response_content_type, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        record.id,
        record.apiKeyId,
        record.idempotencyKey,
        record.fingerprint,
        record.responseStatus,
        record.responseBody,
        record.responseContentType,
        record.createdAt,
        record.expiresAt,
      ],
    );
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
