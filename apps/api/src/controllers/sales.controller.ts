import { Controller, Get } from '@nestjs/common';
import type { AuthenticatedKey } from '#core/api-keys/authenticated-key.js';
import { SaleReadsService } from '#core/sales/sale-reads.service.js';
import type { Schemas } from '#contract/contract-types.js';
import { RequireScope } from '../auth/route-access.decorators.js';
import { CurrentKey, IdParam } from '../http/contract-params.js';
import { PageQuery, type ListQuery } from '../http/page-query.js';
import { toList } from '../mappers/page.mapper.js';
import { toSale } from '../mappers/sale.mapper.js';

@Controller('sales')
export class SalesController {
  constructor(private readonly sales: SaleReadsService) {}

  /** listSales */
  @Get()
  @RequireScope('sales.read')
  async listSales(
    @CurrentKey() key: AuthenticatedKey,
    @PageQuery('listSales') query: ListQuery<'listSales'>,
  ): Promise<Schemas['SaleList']> {
    return toList(await this.sales.list(key.businessId, query), toSale);
  }

  /** getSale */
  @Get(':id')
  @RequireScope('sales.read')
  async getSale(@CurrentKey() key: AuthenticatedKey, @IdParam() id: string): Promise<Schemas['Sale']> {
    return toSale(await this.sales.get(key.businessId, id));
  }
}
