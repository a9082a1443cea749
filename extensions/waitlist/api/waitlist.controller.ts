import { Controller } from '@nestjs/common';
import type { AuthenticatedKey } from '#core/api-keys/authenticated-key.js';
import { CurrentKey, Operation, PathId, ValidBody } from '#extensions-api/routes.js';
import { OPERATIONS } from '../generated/operations.js';
import { WaitlistService } from '../waitlist.service.js';
import { toWaitlistEntry, type WaitlistSchemas } from './waitlist-entry.mapper.js';

@Controller()
export class WaitlistController {
  constructor(private readonly waitlist: WaitlistService) {}

  @Operation(OPERATIONS.joinWaitlist)
  async join(
    @CurrentKey() key: AuthenticatedKey,
    @ValidBody() body: WaitlistSchemas['WaitlistJoinRequest'],
  ): Promise<WaitlistSchemas['WaitlistEntry']> {
    return toWaitlistEntry(await this.waitlist.join(key, body));
  }

  @Operation(OPERATIONS.getWaitlistEntry)
  async get(@CurrentKey() key: AuthenticatedKey, @PathId() id: string): Promise<WaitlistSchemas['WaitlistEntry']> {
    return toWaitlistEntry(await this.waitlist.get(key.businessId, id));
  }
}
