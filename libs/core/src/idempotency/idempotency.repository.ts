import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

@Injectable()
export class IdempotencyRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Deletes records whose retention ended before `now`; returns how many. */
  async purgeExpired(now: Date): Promise<number> {
    const result: [unknown[], number] = await this.dataSource.query(
      'DELETE FROM idempotency_records WHERE expires_at < $1',
      [now],
    );
    return result[1];
  }
}
