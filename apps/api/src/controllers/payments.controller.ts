import { Controller, Get } from '@nestjs/common';
import type { AuthenticatedKey } from '#core/api-keys/authenticated-key.js';
import { PaymentReadsService } from '#core/payments/payment-reads.service.js';
import type { Schemas } from '#contract/contract-types.js';
import { RequireScope } from '../auth/route-access.decorators.js';
import { CurrentKey, IdParam } from '../http/contract-params.js';
import { PageQuery, type ListQuery } from '../http/page-query.js';
import { toList } from '../mappers/page.mapper.js';
import { toPayment } from '../mappers/payment.mapper.js';

@Controller('payments')
export class PaymentsController {
  constructor(private readonly payments: PaymentReadsService) {}

  /** listPayments */
  @Get()
  @RequireScope('payments.read')
  async listPayments(
    @CurrentKey() key: AuthenticatedKey,
    @PageQuery('listPayments') query: ListQuery<'listPayments'>,
  ): Promise<Schemas['PaymentList']> {
    return toList(await this.payments.list(key.businessId, query), toPayment);
  }

  /** getPayment */
  @Get(':id')
  @RequireScope('payments.read')
  async getPayment(@CurrentKey() key: AuthenticatedKey, @IdParam() id: string): Promise<Schemas['Payment']> {
    return toPayment(await this.payments.get(key.businessId, id));
  }
}
