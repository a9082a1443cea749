import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { NoticeEntity } from '#database/entities/notice.entity.js';
import { preparedQuery } from '#database/prepared-query.js';
import { managerFor } from '#database/transaction-context.js';
import { checkNoticeBody, type NoticeBody } from './notice-body.js';
import { markNoticesRecorded } from './notice-commit.subscriber.js';
import { NOTICE_CHANNEL } from './notice-channel.js';
import { RelayWakeup } from './relay-wakeup.js';

/** A notice the relay has claimed: what it needs to find the subscribed endpoints. */
export interface ClaimedNotice {
  id: string;
  businessId: string;
  type: string;
}

const INSERT_NOTICE = {
  name: 'insert_notice',
  text: 'INSERT INTO notices (id, business_id, type, payload) VALUES ($1, $2, $3, $4::jsonb)',
};

@Injectable()
export class NoticesRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly wakeup: RelayWakeup,
  ) {}

  /**
   * Records a notice in the outbox; call it inside the transaction of the change it reports.
   * The body must be exactly D9's (checkNoticeBody throws otherwise, failing the write). The relay
   * is woken once the transaction commits (RelayWakeup: not by a NOTIFY inside it), or at once
   * when there is no transaction.
   */
  async record(businessId: string, body: NoticeBody, manager?: EntityManager): Promise<void> {
    const payload = checkNoticeBody(body);
    const writer = managerFor(this.dataSource, manager);
    await preparedQuery(writer, INSERT_NOTICE, [
      payload.id,
      businessId,
      payload.type,
      JSON.stringify(payload),
    ]);
    if (writer.queryRunner?.isTransactionActive) markNoticesRecorded(writer.queryRunner);
    else this.wakeup.request();
  }

  /**
   * NOTIFYs the worker on the outbox channel. Inside a transaction it is delivered at commit, and
   * not at all on rollback, so the worker never looks for rows that do not exist.
   */
  async notifyWorker(payload: string, manager?: EntityManager): Promise<void> {
    await managerFor(this.dataSource, manager).query('SELECT pg_notify($1, $2)', [NOTICE_CHANNEL, payload]);
  }

  /**
   * Locks up to `limit` unrelayed notices, oldest first, for the caller's transaction. Rows locked
   * by another relay are skipped rather than waited for, so any number of workers relay in parallel
   * and never the same notice twice. Across businesses: the relay serves them all.
   */
  claimUnrelayed(limit: number, manager: EntityManager): Promise<ClaimedNotice[]> {
    return manager.query(
      `SELECT id, business_id AS "businessId", type FROM notices
        WHERE relayed_at IS NULL ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [limit],
    );
  }

  async markRelayed(noticeIds: readonly string[], manager: EntityManager): Promise<void> {
    if (noticeIds.length === 0) return;
    await manager.query('UPDATE notices SET relayed_at = now() WHERE id = ANY($1::uuid[])', [noticeIds]);
  }

  findById(businessId: string, noticeId: string, manager?: EntityManager): Promise<NoticeEntity | null> {
    return managerFor(this.dataSource, manager).getRepository(NoticeEntity).findOneBy({ businessId, id: noticeId });
  }

  /**
   * Deletes notices created before `cutoff`, with their deliveries and attempts (foreign keys
   * cascade), in batches so that no single statement holds locks for long. Returns how many.
   */
  async purgeCreatedBefore(cutoff: Date, batchSize = 1000): Promise<number> {
    let purged = 0;
    for (;;) {
      const [, deleted]: [unknown, number] = await this.dataSource.query(
        `DELETE FROM notices WHERE id IN (SELECT id FROM notices WHERE created_at < $1 ORDER BY created_at LIMIT $2)`,
        [cutoff, batchSize],
      );
      purged += deleted;
      if (deleted < batchSize) return purged;
    }
  }
}
