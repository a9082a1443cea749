import { Injectable } from '@nestjs/common';
import { notFound } from '../errors/domain-error.js';
import { CursorCodec, type CursorScope } from '../pagination/cursor-codec.js';
import { paginate, type Page, type PageParams } from '../pagination/page.js';
import type { StaffMemberView } from './staff-member-view.js';
import { StaffReadsRepository } from './staff-reads.repository.js';

export interface StaffListQuery extends PageParams {
  serviceId?: string;
  active?: boolean;
}

/**
 * GET /staff and GET /staff/{id} (docs/design-record.md#d14). The list is ordered by name, which no
 * cursor could carry within its 200 characters, so its keyset position is the last member's id
 * alone (the time part stays 0) and the statement reads that member's name.
 */
@Injectable()
export class StaffReadsService {
  constructor(
    private readonly staff: StaffReadsRepository,
    private readonly cursors: CursorCodec,
  ) {}

  list(businessId: string, query: StaffListQuery): Promise<Page<StaffMemberView>> {
    const filters = { active: query.active ?? null, serviceId: query.serviceId ?? null };
    const scope: CursorScope = {
      list: 'staff',
      businessId,
      filters: { active: filters.active === null ? null : String(filters.active), serviceId: filters.serviceId },
    };
    return paginate(this.cursors, scope, query, async ({ after, take }) =>
      (await this.staff.page(businessId, after?.id ?? null, filters, take)).map((record) => ({
        record,
        position: { micros: 0n, id: record.id },
      })),
    );
  }

  async get(businessId: string, id: string): Promise<StaffMemberView> {
    const member = await this.staff.findById(businessId, id);
    if (!member) throw notFound('The staff member');
    return member;
  }
}
