import type { Membership } from '#core/businesses/businesses.repository.js';
import { planHasIntegrations } from '#core/businesses/plan.js';
import { DomainError } from '#core/errors/domain-error.js';

/** Why a business without integrations has no keys and no webhooks, in the words the pages show. */
export const NO_INTEGRATIONS =
  'The FREE plan has no integrations: API keys and webhooks need the SOLO or TEAM plan. Once the plan is changed, keys can be created here.';

/** The plan rule of the API (PLAN_INTEGRATIONS), before a key or an endpoint is made from a page. */
export function requireIntegrations(membership: Pick<Membership, 'plan'>): void {
  if (!planHasIntegrations(membership.plan)) throw new DomainError('PLAN_INTEGRATIONS', NO_INTEGRATIONS);
}
