import { BlockList, isIP } from 'node:net';

/** Loopback, private, link-local and other non-public ranges a notice must never be sent to (D9). */
function blockList(family: 'ipv4' | 'ipv6', subnets: readonly (readonly [string, number])[]): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of subnets) list.addSubnet(network, prefix, family);
  return list;
}

// Two lists, because a BlockList also matches IPv4 addresses against IPv4-mapped IPv6 rules.
const NON_PUBLIC_V4 = blockList('ipv4', [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
]);
const NON_PUBLIC_V6 = blockList('ipv6', [
  ['::', 128],
  ['::1', 128],
  // IPv4-mapped addresses: another way to write any IPv4 address, private ones included.
  ['::ffff:0:0', 96],
  ['fc00::', 7],
  ['fe80::', 10],
]);

function isNonPublicAddress(host: string): boolean {
  const address = host.startsWith('[') ? host.slice(1, -1) : host;
  switch (isIP(address)) {
    case 4:
      return NON_PUBLIC_V4.check(address, 'ipv4');
    case 6:
      return NON_PUBLIC_V6.check(address, 'ipv6');
    default:
      return false;
  }
}

/**
 * Checks an endpoint address when it is registered; returns why it is refused, or null.
 * Only what the address itself shows is checked here: a host name that resolves to a private
 * range is caught when a notice is sent, which must be checked then anyway (DNS rebinding).
 * allowPrivate (WEBHOOKS_ALLOW_PRIVATE) lifts the https and range rules for local use and tests.
 */
export function checkWebhookUrl(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    return allowPrivate ? 'must be an http or https URL' : 'must be an https URL';
  }
  // Credentials in the address would be sent to, and logged by, every proxy on the way.
  if (url.username !== '' || url.password !== '') return 'must not carry a user name or password';
  if (url.hash !== '') return 'must not have a fragment';
  if (raw.length > 2048) return 'must be at most 2048 characters';
  if (!allowPrivate && (url.hostname === 'localhost' || url.hostname.endsWith('.localhost'))) {
    return 'must not point to this machine';
  }
  if (!allowPrivate && isNonPublicAddress(url.hostname)) {
    return 'must not point to a loopback, private or link-local address';
  }
  return null;
}
