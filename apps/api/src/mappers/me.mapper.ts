import type { AuthenticatedKey } from '#core/api-keys/authenticated-key.js';
import { isScope, SCOPE_DESCRIPTIONS } from '#core/scopes/scope.js';
import type { Schemas } from '#contract/contract-types.js';
import type { BusinessEntity } from '#database/entities/business.entity.js';
import { isoTime } from './iso-time.js';

/** A test key's business is its sandbox, presented under the live slug so a partner's code runs unchanged (docs/design-record.md#d19). */
export function toMe(business: BusinessEntity, key: AuthenticatedKey): Schemas['Me'] {
  return {
    business: {
      slug: key.businessSlug,
      name: business.name,
      timezone: business.timezone,
      country: business.country,
      currency: business.currency,
      locale: business.locale,
    },
    key: {
      name: key.keyName,
      prefix: key.prefix,
      createdAt: isoTime(key.keyCreatedAt),
      scopes: key.scopes.filter(isScope).map((scope) => ({ scope, description: SCOPE_DESCRIPTIONS[scope] })),
      mode: key.mode,
      apiVersion: key.apiVersion,
    },
    authentication: authenticationOf(key),
  };
}

/** A partner app's OAuth grant names its app; anything else is a key (docs/design-record.md#d30). */
function authenticationOf(key: AuthenticatedKey): Schemas['Authentication'] {
  return key.app ? { kind: 'app', app: { clientId: key.app.clientId, name: key.app.name } } : { kind: 'key' };
}
