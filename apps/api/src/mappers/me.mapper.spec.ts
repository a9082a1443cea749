import type { AuthenticatedKey } from '#core/api-keys/authenticated-key.js';
import type { BusinessEntity } from '#database/entities/business.entity.js';
import { toMe } from './me.mapper.js';

const business = { name: 'Salon', timezone: 'Europe/Lisbon', country: 'PT', currency: 'EUR', locale: 'pt-PT' } as BusinessEntity;
const key: AuthenticatedKey = {
  keyId: 'k',
  keyName: 'Website',
  prefix: 'rk_live_7Gq2',
  scopes: ['services.read'],
  keyCreatedAt: new Date('2029-12-01T10:00:00Z'),
  businessId: 'b',
  tenantId: 'b',
  businessSlug: 'salon',
  plan: 'SOLO',
  mode: 'live',
  apiVersion: '1.5.0',
  expiresAt: null,
};

describe("GET /me's authentication (docs/design-record.md#d30)", () => {
  it('is a key when the lookup names no app', () => {
    expect(toMe(business, key).authentication).toEqual({ kind: 'key' });
  });

  it("names the app of an OAuth grant, and nothing else of the lookup's", () => {
    const grant = { ...key, app: { clientId: 'app_3Fq9Lw2Zx8', name: 'Booking Widget', extra: 'x' } as AuthenticatedKey['app'] };
    expect(toMe(business, grant).authentication).toEqual({ kind: 'app', app: { clientId: 'app_3Fq9Lw2Zx8', name: 'Booking Widget' } });
  });
});
