import type { INestApplicationContext } from '@nestjs/common';
import { ApiKeysService } from '#core/api-keys/api-keys.service.js';
import type { Plan } from '#database/entities/business.entity.js';
import type { Scope } from '#core/scopes/scope.js';
import { seed, type SeededBusiness } from './seed.js';

export interface Tenant {
  businessId: string;
  slug: string;
  ownerEmail: string;
  key: string;
  prefix: string;
  /** Its refs, for seedMore (when it was seeded by createTenant). */
  seeded?: SeededBusiness;
}

/** A fresh business with an owner and a real key of `scopes` (default every scope), seeded. */
export async function createTenant(options: { plan?: Plan; scopes?: Scope[]; currency?: string } = {}): Promise<Tenant> {
  const business = await seed({ plan: options.plan, scopes: options.scopes, currency: options.currency });
  const { key, prefix } = business.keys.owner;
  return { businessId: business.id, slug: business.slug, ownerEmail: business.ownerEmail!, key, prefix, seeded: business };
}

/** Another key of the tenant's owner, made as `admin key create` makes it. */
export async function createKey(app: INestApplicationContext, tenant: Tenant, scopes: Scope[]): Promise<string> {
  const created = await app.get(ApiKeysService).create({
    businessSlug: tenant.slug,
    memberEmail: tenant.ownerEmail,
    name: 'Another key',
    scopes,
  });
  return created.key;
}
