import { Controller } from '@nestjs/common';
import type { AuthenticatedKey } from '#core/api-keys/authenticated-key.js';
import { BusinessesService } from '#core/businesses/businesses.service.js';
import type { Schemas } from '#contract/contract-types.js';
import { Operation } from '#http/operation.decorator.js';
import { CurrentKey } from '#http/operation-params.js';
import { toMe } from '../mappers/me.mapper.js';

@Controller()
export class MeController {
  constructor(private readonly businesses: BusinessesService) {}

  @Operation('getMe')
  async getMe(@CurrentKey() key: AuthenticatedKey): Promise<Schemas['Me']> {
    return toMe(await this.businesses.getById(key.businessId), key);
  }
}
