import type { HostLookup, ResolvedAddress } from '#core/notices/endpoints/host-lookup.js';

/** Names the address tests invent, answered without DNS: how a hostile name would resolve. */
const FAKE_DNS: Record<string, ResolvedAddress[]> = {
  'rebind.test': [{ address: '127.0.0.1', family: 4 }],
  'metadata.google.internal': [{ address: '169.254.169.254', family: 4 }],
  'mixed.test': [
    { address: '93.184.216.34', family: 4 },
    { address: '10.0.0.1', family: 4 },
  ],
  'v6-loopback.test': [{ address: '::1', family: 6 }],
  'mapped.test': [{ address: '::ffff:127.0.0.1', family: 6 }],
};

/** A resolver that knows only FAKE_DNS (anything else does not resolve), noting every name it is asked in `lookups`. */
export function recordingLookup(lookups: string[] = []): HostLookup {
  return (hostname) => {
    lookups.push(hostname);
    const found = FAKE_DNS[hostname];
    return found
      ? Promise.resolve(found)
      : Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
  };
}

/**
 * Addresses a notice must never go to with WEBHOOKS_ALLOW_PRIVATE off (docs/design-record.md#d9): loopback in every
 * spelling, private, link-local and other non-public ranges, names that resolve to them (FAKE_DNS)
 * and plain http. Those with a port point at `port` on this machine (a canary that counts connections).
 */
export function hostileUrls(port: number): string[] {
  return [
    `https://127.0.0.1:${port}/hook`,
    `https://127.0.0.2:${port}/hook`,
    `https://localhost:${port}/hook`,
    `https://LOCALHOST.:${port}/hook`,
    `https://api.localhost:${port}/hook`,
    `https://2130706433:${port}/hook`,
    `https://0177.0.0.1:${port}/hook`,
    `https://0x7f.0.0.1:${port}/hook`,
    `https://0x7f000001:${port}/hook`,
    `https://127.1:${port}/hook`,
    `https://0:${port}/hook`,
    `https://0.0.0.0:${port}/hook`,
    `https://[::1]:${port}/hook`,
    `https://[::]:${port}/hook`,
    `https://[::ffff:127.0.0.1]:${port}/hook`,
    `https://[0:0:0:0:0:ffff:7f00:1]:${port}/hook`,
    `https://[::127.0.0.1]:${port}/hook`,
    `https://[64:ff9b::7f00:1]:${port}/hook`,
    `https://rebind.test:${port}/hook`,
    `https://v6-loopback.test:${port}/hook`,
    `https://mapped.test:${port}/hook`,
    `https://mixed.test:${port}/hook`,
    'https://10.0.0.1/hook',
    'https://10.255.255.254/hook',
    'https://172.16.5.4/hook',
    'https://172.31.0.1/hook',
    'https://192.168.1.1/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://metadata.google.internal/computeMetadata/v1/',
    'https://100.64.0.1/hook',
    'https://224.0.0.1/hook',
    'https://255.255.255.255/hook',
    'https://[fd00:ec2::254]/hook',
    'https://[fc00::1]/hook',
    'https://[fe80::1]/hook',
    'https://[ff02::1]/hook',
    `http://rebind.test:${port}/hook`,
    'http://93.184.216.34/hook',
  ];
}
