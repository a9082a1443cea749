import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { NoticeEntity } from '#database/entities/notice.entity.js';
import { managerFor } from '#database/transaction-context.js';
import type { NoticeBody } from './notice-body.js';

@Injectable()
export class NoticesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Records a notice in the outbox; call it inside the transaction of the change it reports. */
  async record(businessId: string, body: NoticeBody, manager?: EntityManager): Promise<void> {
    await managerFor(this.dataSource, manager)
      .getRepository(NoticeEntity)
      .insert({ id: body.id, businessId, type: body.type, payload: { ...body }, relayedAt: null });
  }
}
