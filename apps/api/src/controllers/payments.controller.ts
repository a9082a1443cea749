import { Controller } from '@nestjs/common';
import type { AuthenticatedKey } from '#core/api-keys/authenticated-key.js';
import { PaymentReadsService } from '#core/payments/payment-reads.service.js';
import type { Schemas } from '#contract/contract-types.js';
import { Operation } from '#http/operation.decorator.js';
import { CurrentKey, PathId, ValidQuery, type ListQuery } from '#http/operation-params.js';
import { toList } from '../mappers/page.mapper.js';
import { toPayment } from '../mappers/payment.mapper.js';

@Controller()
export class PaymentsController {
  constructor(private readonly payments: PaymentReadsService) {}

  @Operation('listPayments')
  async listPayments(@CurrentKey() key: AuthenticatedKey, @ValidQuery() query: ListQuery<'listPayments'>): Promise<Schemas['PaymentList']> {
    return toList(await this.payments.list(key.businessId, query), toPayment);
  }

  @Operation('getPayment')
  async getPayment(@CurrentKey() key: AuthenticatedKey, @PathId() id: string): Promise<Schemas['Payment']> {
    return toPayment(await this.payments.get(key.businessId, id));
  }
}
