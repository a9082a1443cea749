import type { Membership } from '#core/businesses/businesses.repository.js';
import { planHasIntegrations } from '#core/businesses/plan.js';
import { DomainError } from '#core/errors/domain-error.js';

/** The plan rule of the API (PLAN_INTEGRATIONS), before a key or an endpoint is made from a page. */
export function requireIntegrations(membership: Pick<Membership, 'plan'>): void {
  if (!planHasIntegrations(membership.plan)) {
    throw new DomainError('PLAN_INTEGRATIONS', 'The FREE plan has no integrations: API keys and webhooks need the SOLO or TEAM plan.');
  }
}
