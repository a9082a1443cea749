import { Injectable } from '@nestjs/common';
import { notFound } from '../errors/domain-error.js';
import { CursorCodec } from '../pagination/cursor-codec.js';
import type { Page } from '../pagination/page.js';
import { paginateInUpdateOrder, type UpdateOrderQuery } from '../pagination/update-order.js';
import type { PaymentRecord } from './payment-record.js';
import { PaymentReadsRepository } from './payment-reads.repository.js';

@Injectable()
export class PaymentReadsService {
  constructor(
    private readonly payments: PaymentReadsRepository,
    private readonly cursors: CursorCodec,
  ) {}

  /** One page of payments in order of update. */
  list(businessId: string, query: UpdateOrderQuery): Promise<Page<PaymentRecord>> {
    return paginateInUpdateOrder(this.cursors, 'payments', businessId, query, (since, request) =>
      this.payments.listPage(businessId, since, request),
    );
  }

  async get(businessId: string, paymentId: string): Promise<PaymentRecord> {
    const payment = await this.payments.findById(businessId, paymentId);
    if (!payment) throw notFound('The payment');
    return payment;
  }
}
