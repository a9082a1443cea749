import { Controller } from '@nestjs/common';
import type { AuthenticatedKey } from '#core/api-keys/authenticated-key.js';
import { FreeTimesService } from '#core/availability/free-times.service.js';
import type { QueryOf, Schemas } from '#contract/contract-types.js';
import { Operation } from '#http/operation.decorator.js';
import { CurrentKey, ValidQuery } from '#http/operation-params.js';
import { isoTime } from '../mappers/iso-time.js';

/** When a service can be booked, and with whom (docs/design-record.md#d15). */
@Controller()
export class AvailabilityController {
  constructor(private readonly freeTimes: FreeTimesService) {}

  @Operation('getAvailability')
  async getAvailability(
    @CurrentKey() key: AuthenticatedKey,
    @ValidQuery() query: QueryOf<'getAvailability'>,
  ): Promise<Schemas['Availability']> {
    const { starts, ...facts } = await this.freeTimes.find(key.businessId, query);
    return { ...facts, data: starts.map((s) => ({ startAt: isoTime(s.startAt), endAt: isoTime(s.endAt), staffIds: s.staffIds })) };
  }
}
