import { NO_SANDBOX_ON_PLAN, sandboxPlanRefusal } from './sandbox-plan.js';

describe('sandboxPlanRefusal (docs/design-record.md#d28)', () => {
  it('refuses a FREE business with PLAN_INTEGRATIONS, saying why', () => {
    expect(sandboxPlanRefusal('FREE')).toMatchObject({ code: 'PLAN_INTEGRATIONS', detail: NO_SANDBOX_ON_PLAN });
  });

  it('lets the plans with integrations have a sandbox', () => {
    expect(sandboxPlanRefusal('SOLO')).toBeNull();
    expect(sandboxPlanRefusal('TEAM')).toBeNull();
  });
});
