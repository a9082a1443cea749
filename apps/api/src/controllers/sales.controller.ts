import { Controller } from '@nestjs/common';
import type { AuthenticatedKey } from '#core/api-keys/authenticated-key.js';
import { SaleReadsService } from '#core/sales/sale-reads.service.js';
import { toSale } from '#core/sales/sale.mapper.js';
import type { Schemas } from '#contract/contract-types.js';
import { Operation } from '#http/operation.decorator.js';
import { CurrentKey, PathId, ValidQuery, type ListQuery } from '#http/operation-params.js';
import { toList } from '../mappers/page.mapper.js';

@Controller()
export class SalesController {
  constructor(private readonly sales: SaleReadsService) {}

  @Operation('listSales')
  async listSales(@CurrentKey() key: AuthenticatedKey, @ValidQuery() query: ListQuery<'listSales'>): Promise<Schemas['SaleList']> {
    return toList(await this.sales.list(key.businessId, query), toSale);
  }

  @Operation('getSale')
  async getSale(@CurrentKey() key: AuthenticatedKey, @PathId() id: string): Promise<Schemas['Sale']> {
    return toSale(await this.sales.get(key.businessId, id));
  }
}
