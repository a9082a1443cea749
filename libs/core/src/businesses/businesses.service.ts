import { Injectable } from '@nestjs/common';
import { BusinessEntity, PLANS, type Plan } from '#database/entities/business.entity.js';
import { MEMBER_ROLES, MemberEntity, type MemberRole } from '#database/entities/member.entity.js';
import { newId } from '#database/new-id.js';
import { violatedConstraint } from '#database/violated-constraint.js';
import { isEmailAddress } from '../contacts/email-address.js';
import { DomainError, notFound, validationFailed } from '../errors/domain-error.js';
import { checkBusinessProfile } from './business-profile.js';
import { BusinessesRepository } from './businesses.repository.js';

export interface NewBusiness {
  slug: string;
  name: string;
  timezone: string;
  country: string;
  currency: string;
  plan: string;
  locale?: string | null;
  autoConfirm?: boolean;
  notificationEmail?: string | null;
  /** The availability grid in minutes, 5 to 60 (default 15). */
  stepMin?: number;
}

/** The availability grid's bounds and default (docs/design-record.md#d15). */
export const STEP_MIN = { min: 5, max: 60, default: 15 } as const;

const stepErrors = (stepMin: number | undefined) =>
  stepMin === undefined || (Number.isInteger(stepMin) && stepMin >= STEP_MIN.min && stepMin <= STEP_MIN.max)
    ? []
    : [{ path: '/stepMin', message: `must be a whole number of minutes from ${STEP_MIN.min} to ${STEP_MIN.max}` }];

export interface NewMember {
  name: string;
  email: string;
  role: string;
}

function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value);
}

@Injectable()
export class BusinessesService {
  constructor(private readonly businesses: BusinessesRepository) {}

  async create(input: NewBusiness): Promise<BusinessEntity> {
    const errors = checkBusinessProfile(input);
    if (!isPlan(input.plan)) errors.push({ path: '/plan', message: `must be one of ${PLANS.join(', ')}` });
    if (input.notificationEmail != null && !isEmailAddress(input.notificationEmail)) {
      errors.push({ path: '/notificationEmail', message: 'must be an e-mail address' });
    }
    errors.push(...stepErrors(input.stepMin));
    if (errors.length > 0) throw validationFailed(errors);
    if (await this.businesses.findBySlug(input.slug)) {
      throw validationFailed([{ path: '/slug', message: `a business with slug ${input.slug} already exists` }]);
    }
    const now = new Date();
    const business = Object.assign(new BusinessEntity(), {
      id: newId(),
      slug: input.slug,
      name: input.name,
      timezone: input.timezone,
      country: input.country,
      currency: input.currency,
      locale: input.locale ?? null,
      plan: input.plan as Plan,
      autoConfirm: input.autoConfirm ?? true,
      notificationEmail: input.notificationEmail ?? null,
      stepMin: input.stepMin ?? STEP_MIN.default,
      liveBusinessId: null,
      createdAt: now,
      updatedAt: now,
    });
    await this.businesses.insert(business);
    return business;
  }

  async addMember(businessId: string, input: NewMember): Promise<MemberEntity> {
    const errors = [];
    if (!(MEMBER_ROLES as readonly string[]).includes(input.role)) {
      errors.push({ path: '/role', message: `must be one of ${MEMBER_ROLES.join(', ')}` });
    }
    if (!isEmailAddress(input.email)) errors.push({ path: '/email', message: 'must be an e-mail address' });
    if (input.name.trim().length === 0 || input.name.length > 120) {
      errors.push({ path: '/name', message: 'must be 1 to 120 characters' });
    }
    if (errors.length > 0) throw validationFailed(errors);
    const member = Object.assign(new MemberEntity(), {
      id: newId(),
      businessId,
      name: input.name,
      email: input.email.toLowerCase(),
      role: input.role as MemberRole,
      createdAt: new Date(),
    });
    try {
      await this.businesses.insertMember(member);
    } catch (error) {
      if (violatedConstraint(error) === 'members_business_email_key') {
        throw validationFailed([{ path: '/email', message: `a member with the e-mail ${member.email} already exists` }]);
      }
      throw error;
    }
    return member;
  }

  /** The business's members, oldest first: who may use its console is whoever is OWNER or PARTNER. */
  async members(slug: string): Promise<{ business: BusinessEntity; members: MemberEntity[] }> {
    const business = await this.getBySlug(slug);
    return { business, members: await this.businesses.membersOf(business.id) };
  }

  async getBySlug(slug: string): Promise<BusinessEntity> {
    const business = await this.businesses.findBySlug(slug);
    if (!business) throw new DomainError('NOT_FOUND', `No business has the slug ${slug}.`);
    return business;
  }

  async getById(businessId: string): Promise<BusinessEntity> {
    const business = await this.businesses.findById(businessId);
    if (!business) throw notFound('The business');
    return business;
  }

  /** The business settings partners see the effect of: today the availability grid. */
  async changeSettings(slug: string, settings: { stepMin: number }): Promise<BusinessEntity> {
    const errors = stepErrors(settings.stepMin);
    if (errors.length > 0) throw validationFailed(errors);
    const business = await this.getBySlug(slug);
    await this.businesses.updateStep(business.id, settings.stepMin);
    return { ...business, stepMin: settings.stepMin };
  }

  async changePlan(slug: string, plan: string): Promise<BusinessEntity> {
    if (!isPlan(plan)) throw validationFailed([{ path: '/plan', message: `must be one of ${PLANS.join(', ')}` }]);
    const business = await this.getBySlug(slug);
    // API instances cache key lookups for at most AUTH_CACHE_TTL_MS (≤ 1 s), so no broadcast is needed.
    await this.businesses.updatePlan(business.id, plan);
    return { ...business, plan };
  }
}
