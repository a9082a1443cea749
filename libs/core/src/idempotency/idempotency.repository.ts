import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { IdempotencyRecordEntity } from '#database/entities/idempotency-record.entity.js';

@Injectable()
export class IdempotencyRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The record of this key still within its retention, if any. */
  findLive(apiKeyId: string, idempotencyKey: string, manager: EntityManager): Promise<IdempotencyRecordEntity | null> {
    return manager
      .getRepository(IdempotencyRecordEntity)
      .createQueryBuilder('r')
      .where('r.api_key_id = :apiKeyId AND r.idempotency_key = :idempotencyKey AND r.expires_at > now()', {
        apiKeyId,
        idempotencyKey,
      })
      .getOne();
  }

  /** Frees a key whose retention ended but which the purge job has not reached yet. */
  async deleteExpired(apiKeyId: string, idempotencyKey: string, manager: EntityManager): Promise<void> {
    await manager.query(
      'DELETE FROM idempotency_records WHERE api_key_id = $1 AND idempotency_key = $2 AND expires_at <= now()',
      [apiKeyId, idempotencyKey],
    );
  }

  async insert(record: IdempotencyRecordEntity, manager: EntityManager): Promise<void> {
    await manager.getRepository(IdempotencyRecordEntity).insert(record);
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
