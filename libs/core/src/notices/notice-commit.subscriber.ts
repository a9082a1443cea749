import { Injectable } from '@nestjs/common';
import { DataSource, type EntitySubscriberInterface, type QueryRunner, type TransactionCommitEvent, type TransactionRollbackEvent } from 'typeorm';
import { RelayWakeup } from './relay-wakeup.js';

const NOTICES_RECORDED = Symbol('notices recorded');

/** Marks the transaction running on `runner` as one that recorded notices: the relay is woken once it commits. */
export function markNoticesRecorded(runner: QueryRunner): void {
  (runner.data as Record<symbol, boolean>)[NOTICES_RECORDED] = true;
}

/**
 * Wakes the relay when a transaction that recorded notices commits (its outermost commit, not a
 * savepoint's release), and forgets the mark when it rolls back.
 */
@Injectable()
export class NoticeCommitSubscriber implements EntitySubscriberInterface {
  constructor(
    dataSource: DataSource,
    private readonly wakeup: RelayWakeup,
  ) {
    dataSource.subscribers.push(this);
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    if (event.queryRunner.isTransactionActive || !takeMark(event.queryRunner)) return;
    this.wakeup.request();
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    if (!event.queryRunner.isTransactionActive) takeMark(event.queryRunner);
  }
}

function takeMark(runner: QueryRunner): boolean {
  const data = runner.data as Record<symbol, boolean>;
  const marked = data[NOTICES_RECORDED] === true;
  delete data[NOTICES_RECORDED];
  return marked;
}
