import type { Plan } from '#database/entities/business.entity.js';

const PLANS_WITH_INTEGRATIONS: readonly Plan[] = ['SOLO', 'TEAM'];

export function planHasIntegrations(plan: Plan): boolean {
  return PLANS_WITH_INTEGRATIONS.includes(plan);
}
