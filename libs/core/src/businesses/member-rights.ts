import type { MemberRole } from '#database/entities/member.entity.js';

/**
 * The roles that manage a business's integrations: create and revoke its API keys, register its
 * webhook endpoints, and so sign in to the owner's console (docs/design-record.md#d26). STAFF do
 * neither.
 */
const INTEGRATION_ROLES: readonly MemberRole[] = ['OWNER', 'PARTNER'];

export function managesIntegrations(role: MemberRole): boolean {
  return INTEGRATION_ROLES.includes(role);
}
