import type { INestApplicationContext } from '@nestjs/common';
import { ApiKeysService } from '#core/api-keys/api-keys.service.js';
import type { Plan } from '#database/entities/business.entity.js';
import type { Scope } from '#core/scopes/scope.js';
import { randomUUID } from 'node:crypto';
import { SCOPES } from '#core/scopes/scope.js';
import { seed, type SeedBusiness, type SeededBusiness } from './seed.js';

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

/** A business with an owner, a live key and a test key on its sandbox, both of every scope: a tenant of D24 (both modes counted as one). */
export async function createTenantWithSandbox(
  business: Omit<SeedBusiness, 'members' | 'keys'> = {},
): Promise<SeededBusiness & { live: string; test: string }> {
  const tag = randomUUID().slice(0, 8);
  const seeded = await seed({
    ...business,
    members: [{ ref: 'owner', name: 'Owner', email: `owner.${tag}@salon.example`, role: 'OWNER' }],
    keys: [
      { ref: 'live', member: 'owner', name: 'Live', scopes: SCOPES },
      { ref: 'test', member: 'owner', name: 'Test', scopes: SCOPES, mode: 'test' },
    ],
  });
  return { ...seeded, live: seeded.keys.live.key, test: seeded.keys.test.key };
}
