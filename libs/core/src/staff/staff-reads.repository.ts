import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import { defineStatement } from '#database/statement.js';
import { performsServiceSql } from './performs-service.sql.js';
import type { StaffMemberView } from './staff-member-view.js';

interface StaffMemberRow {
  id: string;
  name: string;
  active: boolean;
  service_ids: string[];
}

// The active services a member performs: its list, or every one when it has none.
const PERFORMED_SERVICE_IDS = `COALESCE((
    SELECT json_agg(v.id ORDER BY v.id) FROM services v
     WHERE v.business_id = s.business_id AND v.active AND ${performsServiceSql('s.id', 'v.id')}), '[]') AS service_ids`;

/**
 * One page of staff in (name, id) order. The cursor names the last member of the previous page;
 * the page continues after that member's current (name, id). `$3` and `$4` are the optional
 * filters: a business has tens of members, so one statement with both filters optional costs no
 * more than four specialised ones. The serviceId filter keeps exactly the members whose
 * service_ids would list it.
 */
const STAFF_PAGE = defineStatement<
  [businessId: string, afterId: string | null, active: boolean | null, serviceId: string | null, take: number],
  StaffMemberRow
>({
  name: 'staff_page',
  text: `SELECT s.id, s.name, s.active, ${PERFORMED_SERVICE_IDS}
  FROM staff s
 WHERE s.business_id = $1
   AND ($2::uuid IS NULL OR (s.name, s.id) > (SELECT a.name, a.id FROM staff a WHERE a.business_id = $1 AND a.id = $2::uuid))
   AND ($3::boolean IS NULL OR s.active = $3::boolean)
   AND ($4::uuid IS NULL OR EXISTS (
         SELECT 1 FROM services v
          WHERE v.id = $4::uuid AND v.business_id = $1 AND v.active AND ${performsServiceSql('s.id', 'v.id')}))
 ORDER BY s.name, s.id
 LIMIT $5`,
});

const STAFF_MEMBER = defineStatement<[businessId: string, id: string], StaffMemberRow>({
  name: 'staff_member_view',
  text: `SELECT s.id, s.name, s.active, ${PERFORMED_SERVICE_IDS} FROM staff s WHERE s.business_id = $1 AND s.id = $2`,
});

export interface StaffFilters {
  active: boolean | null;
  serviceId: string | null;
}

const viewOf = (row: StaffMemberRow): StaffMemberView => ({ id: row.id, name: row.name, active: row.active, serviceIds: row.service_ids });

/** The reads of GET /staff and GET /staff/{id} (docs/design-record.md#d14). */
@Injectable()
export class StaffReadsRepository {
  constructor(private readonly database: Database) {}

  async page(businessId: string, afterId: string | null, filters: StaffFilters, take: number): Promise<StaffMemberView[]> {
    const rows = await this.database.rows(STAFF_PAGE, [businessId, afterId, filters.active, filters.serviceId, take]);
    return rows.map(viewOf);
  }

  async findById(businessId: string, id: string): Promise<StaffMemberView | null> {
    const row = await this.database.maybeOne(STAFF_MEMBER, [businessId, id]);
    return row && viewOf(row);
  }
}
