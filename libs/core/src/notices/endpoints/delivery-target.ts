import { isIP } from 'node:net';
import type { ResolvedAddress } from './host-lookup.js';
import { nonPublicKind, nonPublicRange } from './webhook-address.js';
import { checkWebhookUrl, urlHost, type WebhookUrlRules } from './webhook-url.js';

/** Where a notice may be sent: the URL, its host name, and the one checked address to connect to. */
export interface DeliveryTarget {
  ok: true;
  url: URL;
  host: string;
  address: ResolvedAddress;
}

export interface RefusedTarget {
  ok: false;
  reason: string;
  /** The name did not resolve (yet): nothing is known against it, only that nothing can be sent. */
  unresolved?: true;
}

export interface TargetOptions extends WebhookUrlRules {
  /** Resolves the host name within its time limit (WebhookResolver, bound to the business). */
  resolve(hostname: string): Promise<ResolvedAddress[]>;
}

/**
 * Checks an endpoint address and decides which IP address to connect to (docs/design-record.md#d9): https only, then
 * the host name is resolved and EVERY address it has must be public, so that a name with one
 * private address among public ones is refused too. The caller connects to the returned address
 * without a second lookup, so a resolver that answers differently the next time (DNS rebinding)
 * cannot redirect the connection. Runs at registration and before every attempt.
 */
export async function resolveDeliveryTarget(raw: string, options: TargetOptions): Promise<DeliveryTarget | RefusedTarget> {
  const refusal = checkWebhookUrl(raw, options);
  if (refusal) return { ok: false, reason: `the address ${refusal}` };
  const url = new URL(raw);
  const host = urlHost(url);
  const literal = isIP(host);
  let addresses: ResolvedAddress[];
  if (literal === 4 || literal === 6) {
    addresses = [{ address: host, family: literal }];
  } else {
    try {
      addresses = await options.resolve(host);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      return { ok: false, reason: `the host name ${host} does not resolve (${code})`, unresolved: true };
    }
    if (addresses.length === 0) return { ok: false, reason: `the host name ${host} has no address`, unresolved: true };
  }
  if (!options.allowPrivate) {
    for (const { address } of addresses) {
      const range = nonPublicRange(address);
      if (range === null) continue;
      // A literal address was checked with the URL above, named with its range: it is the
      // partner's own input. An address a name resolved to is the operator's resolver's answer:
      // only its kind is said (docs/design-record.md#d28).
      return { ok: false, reason: `${host} resolves to a non-public address (${nonPublicKind(range)})` };
    }
  }
  return { ok: true, url, host, address: addresses[0] };
}

/**
 * An error text of an attempt to the target, as the delivery log keeps it: the address the host
 * name resolved to, which a connection error names ("connect ECONNREFUSED 10.0.0.1:443"), is
 * replaced by the name (docs/design-record.md#d28). A literal address is the partner's own and stays.
 */
export function withoutResolvedAddress(text: string, target: Pick<DeliveryTarget, 'host' | 'address'>): string {
  const { address } = target.address;
  if (isIP(target.host) !== 0 || address === '') return text;
  return text.split(address).join(target.host);
}
