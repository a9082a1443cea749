import { Controller } from '@nestjs/common';
import type { AuthenticatedKey } from '#core/api-keys/authenticated-key.js';
import { StaffReadsService } from '#core/staff/staff-reads.service.js';
import type { Schemas } from '#contract/contract-types.js';
import { Operation } from '#http/operation.decorator.js';
import { CurrentKey, PathId, ValidQuery, type ListQuery } from '#http/operation-params.js';
import { toList } from '../mappers/page.mapper.js';
import { toStaffMember } from '../mappers/staff.mapper.js';

/** The staff members who serve appointments (docs/design-record.md#d14). */
@Controller()
export class StaffController {
  constructor(private readonly staff: StaffReadsService) {}

  @Operation('listStaff')
  async listStaff(@CurrentKey() key: AuthenticatedKey, @ValidQuery() query: ListQuery<'listStaff'>): Promise<Schemas['StaffList']> {
    return toList(await this.staff.list(key.businessId, query), toStaffMember);
  }

  @Operation('getStaffMember')
  async getStaffMember(@CurrentKey() key: AuthenticatedKey, @PathId() id: string): Promise<Schemas['StaffMember']> {
    return toStaffMember(await this.staff.get(key.businessId, id));
  }
}
