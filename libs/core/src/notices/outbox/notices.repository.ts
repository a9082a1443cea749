import { ServedContract } from '#contract/served-contract.js';
import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import type { NoticeEntity } from '#database/entities/notice.entity.js';
import { inBatches } from '#database/in-batches.js';
import { defineStatement } from '#database/statement.js';
import type { NoticeEmails } from '#database/entities/notice.entity.js';
import type { NoticeBody } from './notice-body.js';
import { noticeRow, type NoticeRow } from './notice-row.js';
import { NOTICE_CHANNEL } from './notice-channel.js';
import { RelayWakeup } from './relay-wakeup.js';

/** A notice the relay has claimed: what it needs to find the subscribed endpoints and to write its e-mails. */
export interface ClaimedNotice {
  id: string;
  businessId: string;
  type: string;
  /** The appointment (or other subject) it reports. */
  subjectId: string;
  emails: NoticeEmails | null;
}

const INSERT_NOTICE = defineStatement<[id: string, businessId: string, type: string, payload: string, emails: string | null]>({
  name: 'insert_notice',
  text: 'INSERT INTO notices (id, business_id, type, payload, emails) VALUES ($1, $2, $3, $4::jsonb, $5::jsonb)',
});

const NOTIFY_WORKER = defineStatement<[channel: string, payload: string]>({
  name: 'notify_worker',
  text: 'SELECT pg_notify($1, $2)',
});

// Rows locked by another relay are skipped rather than waited for, so any number of workers relay
// in parallel and never the same notice twice. Across businesses: the relay serves them all.
export const CLAIM_UNRELAYED = defineStatement<[limit: number], ClaimedNotice>({
  name: 'claim_unrelayed_notices',
  text: `SELECT id, business_id AS "businessId", type, payload->'data'->>'id' AS "subjectId", emails FROM notices
 WHERE relayed_at IS NULL ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
});

const MARK_RELAYED = defineStatement<[ids: readonly string[]]>({
  name: 'mark_notices_relayed',
  text: 'UPDATE notices SET relayed_at = now() WHERE id = ANY($1::uuid[])',
});

const NOTICE_BY_ID = defineStatement<[businessId: string, id: string], NoticeEntity>({
  name: 'notice_by_id',
  text: `SELECT id, business_id AS "businessId", type, payload, created_at AS "createdAt", relayed_at AS "relayedAt"
  FROM notices WHERE business_id = $1 AND id = $2`,
});

export const PURGE_BATCH = defineStatement<[cutoff: Date, batchSize: number]>({
  name: 'purge_notices',
  text: 'DELETE FROM notices WHERE id IN (SELECT id FROM notices WHERE created_at < $1 ORDER BY created_at LIMIT $2)',
});

@Injectable()
export class NoticesRepository {
  constructor(
    private readonly database: Database,
    private readonly wakeup: RelayWakeup,
    private readonly contract: ServedContract,
  ) {}

  /** The outbox row a write statement inserts with its change (noticeRow, with the served notice types). */
  row(businessId: string, body: NoticeBody, emails: NoticeEmails | null = null): NoticeRow {
    return noticeRow(businessId, body, this.contract.noticeTypes, emails);
  }

  /**
   * Records a notice in the outbox; call it inside the transaction of the change it reports.
   * The body must be exactly docs/design-record.md#d9's (checkNoticeBody throws otherwise, failing the write). An
   * appointment change names its e-mails, which the worker writes when it relays the notice. The
   * relay is woken once the transaction commits (RelayWakeup: not by a NOTIFY inside it), or at
   * once when there is no transaction.
   */
  async record(businessId: string, body: NoticeBody, emails: NoticeEmails | null = null): Promise<void> {
    const row = noticeRow(businessId, body, this.contract.noticeTypes, emails);
    await this.database.execute(INSERT_NOTICE, [
      row.id,
      businessId,
      row.type,
      JSON.stringify(row.payload),
      emails && JSON.stringify(emails),
    ]);
    this.wakeRelayAfterCommit();
  }

  /** For a statement that writes notice rows (noticeRow) with its change: wakes the relay once it commits. */
  wakeRelayAfterCommit(): void {
    this.database.afterCommit(() => this.wakeup.request());
  }

  /**
   * NOTIFYs the worker on the outbox channel. Inside a transaction it is delivered at commit, and
   * not at all on rollback, so the worker never looks for rows that do not exist.
   */
  async notifyWorker(payload: string): Promise<void> {
    await this.database.execute(NOTIFY_WORKER, [NOTICE_CHANNEL, payload]);
  }

  /** Locks up to `limit` unrelayed notices, oldest first, for the caller's transaction. */
  claimUnrelayed(limit: number): Promise<ClaimedNotice[]> {
    return this.database.rows(CLAIM_UNRELAYED, [limit]);
  }

  async markRelayed(noticeIds: readonly string[]): Promise<void> {
    if (noticeIds.length === 0) return;
    await this.database.execute(MARK_RELAYED, [noticeIds]);
  }

  findById(businessId: string, noticeId: string): Promise<NoticeEntity | null> {
    return this.database.maybeOne(NOTICE_BY_ID, [businessId, noticeId]);
  }

  /**
   * Deletes notices created before `cutoff`, with their deliveries and attempts (foreign keys
   * cascade), in batches so that no single statement holds locks for long. Returns how many.
   */
  purgeCreatedBefore(cutoff: Date, batchSize = 1000): Promise<number> {
    return inBatches(batchSize, (size) => this.database.execute(PURGE_BATCH, [cutoff, size]));
  }
}
