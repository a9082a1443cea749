import type { Plan } from '#database/entities/business.entity.js';
import { planHasIntegrations } from '../businesses/plan.js';
import { DomainError } from '../errors/domain-error.js';

/** Why a business on a plan without integrations has no test mode, in the words the console shows and a refusal says. */
export const NO_SANDBOX_ON_PLAN =
  'The FREE plan has no integrations, so no test mode: creating or resetting the sandbox needs the SOLO or TEAM plan.';

/**
 * PLAN_INTEGRATIONS (402) for a sandbox made or reset for a business whose plan has no
 * integrations (docs/design-record.md#d28): its test keys could not be used, and a copy of a
 * catalogue per business is a cost the plan does not carry.
 */
export function sandboxPlanRefusal(plan: Plan): DomainError | null {
  return planHasIntegrations(plan) ? null : new DomainError('PLAN_INTEGRATIONS', NO_SANDBOX_ON_PLAN);
}
