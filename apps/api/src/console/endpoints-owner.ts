import { Injectable } from '@nestjs/common';
import { DomainError } from '#core/errors/domain-error.js';
import { SandboxService } from '#core/sandbox/sandbox.service.js';
import { membershipOf, type ConsoleState } from './console-request.js';
import { businessPath } from './pages/layout.js';

/** Whose endpoints, deliveries and events a page shows: the live business's or its sandbox's, and where its pages are. */
export interface EndpointsOwner {
  businessId: string;
  /** The business its notices name: the live one's slug, for the sandbox too. */
  slug: string;
  /** The live business: test pings are counted for it and its sandbox together. */
  tenantId: string;
  /** The console path of the side: `/console/b/<slug>` or `/console/b/<slug>/test-mode`. */
  base: string;
  sandbox: boolean;
}

/** The sandbox's pages repeat the live ones under …/test-mode/ (docs/design-record.md#d19). */
export const SANDBOX_SEGMENT = '/test-mode';

@Injectable()
export class EndpointsOwners {
  constructor(private readonly sandboxes: SandboxService) {}

  async of(state: ConsoleState): Promise<EndpointsOwner> {
    const membership = membershipOf(state);
    const live = businessPath(membership);
    if (!state.path.startsWith(`${live}${SANDBOX_SEGMENT}/`)) {
      return { businessId: membership.businessId, slug: membership.slug, tenantId: membership.businessId, base: live, sandbox: false };
    }
    const sandbox = await this.sandboxes.findSandbox(membership.businessId);
    if (!sandbox) throw new DomainError('NOT_FOUND', 'This business has no sandbox yet: create it under Test mode first.');
    // Notices of the sandbox name the live business, with "mode": "test", as a test key's ping does.
    return {
      businessId: sandbox.id,
      slug: membership.slug,
      tenantId: membership.businessId,
      base: `${live}${SANDBOX_SEGMENT}`,
      sandbox: true,
    };
  }
}
