import { Injectable } from '@nestjs/common';
import { notFound } from '../errors/domain-error.js';
import { CursorCodec } from '../pagination/cursor-codec.js';
import type { Page } from '../pagination/page.js';
import { paginateInUpdateOrder, type UpdateOrderQuery } from '../pagination/update-order.js';
import type { SaleRecord } from './sale-record.js';
import { SaleReadsRepository } from './sale-reads.repository.js';

@Injectable()
export class SaleReadsService {
  constructor(
    private readonly sales: SaleReadsRepository,
    private readonly cursors: CursorCodec,
  ) {}

  /** One page of sales, with their items, in order of update. */
  list(businessId: string, query: UpdateOrderQuery): Promise<Page<SaleRecord>> {
    return paginateInUpdateOrder(this.cursors, 'sales', businessId, query, (since, request) =>
      this.sales.listPage(businessId, since, request),
    );
  }

  async get(businessId: string, saleId: string): Promise<SaleRecord> {
    const sale = await this.sales.findById(businessId, saleId);
    if (!sale) throw notFound('The sale');
    return sale;
  }
}
