import type { INestApplicationContext } from '@nestjs/common';
import { ApiKeysService, type CreatedApiKey } from '#core/api-keys/api-keys.service.js';
import type { Scope } from '#core/scopes/scope.js';
import type { Tenant } from './tenant-factory.js';

/**
 * Keys of one business, each used for at most `callsPerKey` requests: a long walk through a list
 * stays under the rate limit of 120 requests per minute and key. A business holds at most 10
 * active keys per mode (docs/design-record.md#d28), so the pool holds two at most, whatever the
 * length of the walk: when it makes a key, it revokes the one before the key just spent (handed
 * out for the last time `callsPerKey` calls ago, so no request with it is still under way).
 */
export class KeyPool {
  private current: CreatedApiKey | undefined;
  private spent: CreatedApiKey | undefined;
  private used = 0;
  /** Calls take their key in turn, so that two at once never both make one. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly app: INestApplicationContext,
    private readonly tenant: Tenant,
    private readonly scopes: Scope[],
    private readonly callsPerKey = 100,
  ) {}

  key(): Promise<string> {
    const next = this.turn.then(() => this.take());
    this.turn = next.catch(() => undefined);
    return next;
  }

  private async take(): Promise<string> {
    if (this.current === undefined || this.used >= this.callsPerKey) {
      const keys = this.app.get(ApiKeysService);
      if (this.spent) await keys.revoke(this.tenant.slug, { id: this.spent.id });
      this.spent = this.current;
      this.current = await keys.create({
        businessSlug: this.tenant.slug,
        memberEmail: this.tenant.ownerEmail,
        name: 'Pool key',
        scopes: this.scopes,
      });
      this.used = 0;
    }
    this.used += 1;
    return this.current.key;
  }
}
