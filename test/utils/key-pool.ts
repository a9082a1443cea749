import type { INestApplicationContext } from '@nestjs/common';
import type { Scope } from '#core/scopes/scope.js';
import { createKey, type Tenant } from './tenant-factory.js';

/**
 * Keys of one business, each used for at most `callsPerKey` requests: a long walk through a list
 * stays under the rate limit of 120 requests per minute and key.
 */
export class KeyPool {
  private current: string | undefined;
  private used = 0;

  constructor(
    private readonly app: INestApplicationContext,
    private readonly tenant: Tenant,
    private readonly scopes: Scope[],
    private readonly callsPerKey = 100,
  ) {}

  async key(): Promise<string> {
    if (this.current === undefined || this.used >= this.callsPerKey) {
      this.current = await createKey(this.app, this.tenant, this.scopes);
      this.used = 0;
    }
    this.used += 1;
    return this.current;
  }
}
