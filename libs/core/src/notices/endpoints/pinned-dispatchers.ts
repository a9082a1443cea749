import type { LookupFunction } from 'node:net';
import { Agent } from 'undici';
import type { ResolvedAddress } from './host-lookup.js';

/** Checked addresses whose connections are kept; the least recently used beyond this are closed. */
const MAX_KEPT_ADDRESSES = 256;

/** Makes every connection go to the address already checked, whatever the name resolves to now. */
function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}

/**
 * Keep-alive connection pools, one per checked IP address, whose connections can only go to that
 * address. The sender still resolves and checks the address before every attempt; only the
 * connection to an address that has just passed the check is reused, so a name re-pointed
 * elsewhere (DNS rebinding) gets another pool after the check refuses or accepts the new address.
 * Opening and closing a connection per attempt cost more CPU than the attempt itself.
 */
export class PinnedDispatchers {
  private readonly agents = new Map<string, Agent>();

  constructor(private readonly connectTimeoutMs: number) {}

  for(address: ResolvedAddress): Agent {
    const key = `${address.family}/${address.address}`;
    const kept = this.agents.get(key);
    if (kept) {
      // Map order is insertion order: re-inserting marks it as the most recently used.
      this.agents.delete(key);
      this.agents.set(key, kept);
      return kept;
    }
    const agent = new Agent({ connect: { timeout: this.connectTimeoutMs, lookup: pinnedLookup(address) } });
    this.agents.set(key, agent);
    if (this.agents.size > MAX_KEPT_ADDRESSES) {
      const [oldestKey, oldest] = this.agents.entries().next().value!;
      this.agents.delete(oldestKey);
      // Requests under way on it finish first.
      void oldest.close().catch(() => undefined);
    }
    return agent;
  }

  async close(): Promise<void> {
    const agents = [...this.agents.values()];
    this.agents.clear();
    await Promise.all(agents.map((agent) => agent.close().catch(() => undefined)));
  }
}
