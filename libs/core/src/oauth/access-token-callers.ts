import type { ApiKeyLookup } from '../api-keys/api-keys.repository.js';
import type { OAuthResource } from './oauth-resources.js';

/**
 * Who an OAuth access token speaks for (docs/design-record.md#d30): the grant's credential, shaped
 * as a key's lookup (scopes, business, mode, pinned version, and the app), or null when the token is
 * unknown, expired, revoked, or bound to the other resource.
 */
export abstract class AccessTokenCallers {
  abstract callerOf(token: string, resource: OAuthResource): Promise<ApiKeyLookup | null>;
}
