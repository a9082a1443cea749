import { Resolver } from 'node:dns/promises';
import { isLocalName } from './webhook-url.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Resolves a host name to every address it has; stops (rejects) when the signal aborts, leaving
 * nothing of the query behind.
 */
export type HostLookup = (hostname: string, signal: AbortSignal) => Promise<ResolvedAddress[]>;

/** The error of a lookup that aborted: its code names it as any resolver error is named. */
function abortedLookup(hostname: string, signal: AbortSignal): Error {
  const timedOut = signal.reason instanceof Error && signal.reason.name === 'TimeoutError';
  return Object.assign(new Error(`the lookup of ${hostname} ${timedOut ? 'timed out' : 'was cancelled'}`), {
    code: timedOut ? 'ETIMEOUT' : 'ECANCELLED',
  });
}

/**
 * Asks DNS servers (`servers`, WEBHOOK_DNS_SERVERS; else the machine's, /etc/resolv.conf) for the name's A and AAAA records,
 * through c-ares rather than getaddrinfo (docs/design-record.md#d24): getaddrinfo runs on libuv's
 * four pool threads and cannot be stopped, so a tenant whose name server never answers would hold
 * them past any time-out and stall every other lookup and file operation of the process. A c-ares
 * query runs on the event loop and is cancelled when the signal aborts. /etc/hosts is not read:
 * a notice goes to a public name, and `localhost` is answered here as RFC 6761 says.
 */
export function dnsLookup(servers: readonly string[] = []): HostLookup {
  return (hostname, signal) => resolveByDns(hostname, signal, servers);
}

async function resolveByDns(hostname: string, signal: AbortSignal, servers: readonly string[]): Promise<ResolvedAddress[]> {
  if (isLocalName(hostname)) {
    return [
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ];
  }
  if (signal.aborted) throw abortedLookup(hostname, signal);
  // One resolver per lookup: cancel() stops every query of a resolver, and only this lookup's
  // must stop. One try: the signal, not c-ares's retries, decides how long it may take.
  const resolver = new Resolver({ tries: 1 });
  if (servers.length > 0) resolver.setServers([...servers]);
  const cancel = () => resolver.cancel();
  signal.addEventListener('abort', cancel, { once: true });
  try {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    if (signal.aborted) throw abortedLookup(hostname, signal);
    const addresses: ResolvedAddress[] = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
    ];
    if (addresses.length > 0) return addresses;
    // Neither family answered: the IPv4 query's error says why (ENOTFOUND, ENODATA, ESERVFAIL...).
    throw v4.status === 'rejected' ? v4.reason : new Error(`${hostname} has no address`);
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}
