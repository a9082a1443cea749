import { Controller } from '@nestjs/common';
import type { AuthenticatedKey } from '#core/api-keys/authenticated-key.js';
import { BusinessesService } from '#core/businesses/businesses.service.js';
import { ServicesService } from '#core/services/services.service.js';
import type { Schemas } from '#contract/contract-types.js';
import { Operation } from '#http/operation.decorator.js';
import { CurrentKey } from '#http/operation-params.js';
import { toService } from '../mappers/service.mapper.js';

@Controller()
export class ServicesController {
  constructor(
    private readonly services: ServicesService,
    private readonly businesses: BusinessesService,
  ) {}

  @Operation('listServices')
  async listServices(@CurrentKey() key: AuthenticatedKey): Promise<Schemas['ServiceList']> {
    const [business, services] = await Promise.all([this.businesses.getById(key.businessId), this.services.list(key.businessId)]);
    return { data: services.map((s) => toService(s, business.currency)) };
  }
}
