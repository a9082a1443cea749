import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import type { BusinessEntity, Plan } from '#database/entities/business.entity.js';
import type { MemberEntity } from '#database/entities/member.entity.js';
import { defineStatement } from '#database/statement.js';

const BUSINESS_COLUMNS = `id, slug, name, timezone, country, currency, locale, plan, auto_confirm AS "autoConfirm", step_min AS "stepMin",
       notification_email AS "notificationEmail", live_business_id AS "liveBusinessId", created_at AS "createdAt", updated_at AS "updatedAt"`;

const BUSINESS_BY_ID = defineStatement<[id: string], BusinessEntity>({
  name: 'business_by_id',
  text: `SELECT ${BUSINESS_COLUMNS} FROM businesses WHERE id = $1`,
});

// A slug names a live business: a sandbox is reached through its live business (docs/design-record.md#d19).
const BUSINESS_BY_SLUG = defineStatement<[slug: string], BusinessEntity>({
  name: 'business_by_slug',
  text: `SELECT ${BUSINESS_COLUMNS} FROM businesses WHERE slug = $1 AND live_business_id IS NULL`,
});

const INSERT_BUSINESS = defineStatement<
  [
    id: string,
    slug: string,
    name: string,
    timezone: string,
    country: string,
    currency: string,
    locale: string | null,
    plan: Plan,
    autoConfirm: boolean,
    notificationEmail: string | null,
    createdAt: Date,
    updatedAt: Date,
    stepMin: number,
  ]
>({
  name: 'insert_business',
  text: `INSERT INTO businesses (id, slug, name, timezone, country, currency, locale, plan, auto_confirm, notification_email,
                          created_at, updated_at, step_min)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
});

const UPDATE_STEP = defineStatement<[id: string, stepMin: number]>({
  name: 'update_business_step',
  text: 'UPDATE businesses SET step_min = $2, updated_at = now() WHERE id = $1',
});

const UPDATE_PLAN = defineStatement<[id: string, plan: Plan]>({
  name: 'update_business_plan',
  text: 'UPDATE businesses SET plan = $2, updated_at = now() WHERE id = $1',
});

const MEMBER_BY_EMAIL = defineStatement<[businessId: string, email: string], MemberEntity>({
  name: 'member_by_email',
  text: `SELECT id, business_id AS "businessId", name, email, role, created_at AS "createdAt"
  FROM members WHERE business_id = $1 AND email = $2`,
});

/** A member of a business, with the business's slug, name and plan: where one e-mail belongs. */
export interface Membership {
  memberId: string;
  role: MemberEntity['role'];
  businessId: string;
  slug: string;
  businessName: string;
  plan: BusinessEntity['plan'];
  /** Where the console shows the business's times, and its language when the browser names none it has. */
  timezone: string;
  locale: string | null;
}

// Live businesses only: a sandbox has no members of its own (docs/design-record.md#d19).
const MEMBERSHIPS_BY_EMAIL = defineStatement<[email: string], Membership>({
  name: 'memberships_by_email',
  text: `SELECT m.id AS "memberId", m.role, b.id AS "businessId", b.slug, b.name AS "businessName", b.plan,
       b.timezone, b.locale
  FROM members m JOIN businesses b ON b.id = m.business_id
 WHERE m.email = $1 AND b.live_business_id IS NULL
 ORDER BY b.name, b.slug`,
});

const MEMBERS_OF = defineStatement<[businessId: string], MemberEntity>({
  name: 'members_of_business',
  text: `SELECT id, business_id AS "businessId", name, email, role, created_at AS "createdAt"
  FROM members WHERE business_id = $1 ORDER BY created_at, email`,
});

const INSERT_MEMBER = defineStatement<[id: string, businessId: string, name: string, email: string, role: string, createdAt: Date]>({
  name: 'insert_member',
  text: 'INSERT INTO members (id, business_id, name, email, role, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
});

@Injectable()
export class BusinessesRepository {
  constructor(private readonly database: Database) {}

  findById(businessId: string): Promise<BusinessEntity | null> {
    return this.database.maybeOne(BUSINESS_BY_ID, [businessId]);
  }

  findBySlug(slug: string): Promise<BusinessEntity | null> {
    return this.database.maybeOne(BUSINESS_BY_SLUG, [slug]);
  }

  async insert(business: BusinessEntity): Promise<void> {
    await this.database.execute(INSERT_BUSINESS, [
      business.id,
      business.slug,
      business.name,
      business.timezone,
      business.country,
      business.currency,
      business.locale,
      business.plan,
      business.autoConfirm,
      business.notificationEmail,
      business.createdAt,
      business.updatedAt,
      business.stepMin,
    ]);
  }

  async updateStep(businessId: string, stepMin: number): Promise<void> {
    await this.database.execute(UPDATE_STEP, [businessId, stepMin]);
  }

  async updatePlan(businessId: string, plan: Plan): Promise<void> {
    await this.database.execute(UPDATE_PLAN, [businessId, plan]);
  }

  membershipsByEmail(email: string): Promise<Membership[]> {
    return this.database.rows(MEMBERSHIPS_BY_EMAIL, [email]);
  }

  membersOf(businessId: string): Promise<MemberEntity[]> {
    return this.database.rows(MEMBERS_OF, [businessId]);
  }

  findMemberByEmail(businessId: string, email: string): Promise<MemberEntity | null> {
    return this.database.maybeOne(MEMBER_BY_EMAIL, [businessId, email.toLowerCase()]);
  }

  async insertMember(member: MemberEntity): Promise<void> {
    await this.database.execute(INSERT_MEMBER, [member.id, member.businessId, member.name, member.email, member.role, member.createdAt]);
  }
}
