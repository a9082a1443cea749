import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { ApiKeysService } from '#core/api-keys/api-keys.service.js';
import { BusinessesService } from '#core/businesses/businesses.service.js';
import { SCOPES, type Scope } from '#core/scopes/scope.js';

export interface Tenant {
  businessId: string;
  slug: string;
  ownerEmail: string;
  key: string;
  prefix: string;
}

/**
 * A fresh business with an owner and a real key, made by the same services as
 * `admin business create` and `admin key create`.
 */
export async function createTenant(
  app: INestApplicationContext,
  options: { plan?: 'FREE' | 'SOLO' | 'TEAM'; scopes?: Scope[]; currency?: string } = {},
): Promise<Tenant> {
  const slug = `t-${randomUUID().slice(0, 12)}`;
  const businesses = app.get(BusinessesService);
  const business = await businesses.create({
    slug,
    name: 'Salon Test',
    timezone: 'Europe/Lisbon',
    country: 'PT',
    currency: options.currency ?? 'EUR',
    locale: 'pt-PT',
    plan: options.plan ?? 'TEAM',
  });
  const ownerEmail = `owner@${slug}.example`;
  await businesses.addMember(business.id, { name: 'Owner', email: ownerEmail, role: 'OWNER' });
  const created = await app.get(ApiKeysService).create({
    businessSlug: slug,
    memberEmail: ownerEmail,
    name: 'Test key',
    scopes: options.scopes ?? SCOPES,
  });
  return { businessId: business.id, slug, ownerEmail, key: created.key, prefix: created.prefix };
}

export async function createKey(app: INestApplicationContext, tenant: Tenant, scopes: Scope[]): Promise<string> {
  const created = await app.get(ApiKeysService).create({
    businessSlug: tenant.slug,
    memberEmail: tenant.ownerEmail,
    name: 'Another key',
    scopes,
  });
  return created.key;
}
