import { BlockList, isIP } from 'node:net';

interface NamedRange {
  name: string;
  list: BlockList;
}

function ranges(family: 'ipv4' | 'ipv6', entries: readonly (readonly [string, number, string])[]): NamedRange[] {
  return entries.map(([network, prefix, name]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, family);
    return { name, list };
  });
}

// The IANA special-purpose registries: none of these is a public host a notice may go to.
// Separate lists per family, because a BlockList also matches IPv4 rules against IPv4-mapped
// IPv6 addresses, which are refused as a whole below.
const NON_PUBLIC_V4 = ranges('ipv4', [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (CGNAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved (broadcast)'],
]);

// Checked in order, so that the narrow names (loopback) win over the wide ones (IPv4-compatible).
const NON_PUBLIC_V6 = ranges('ipv6', [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  // Other spellings of an IPv4 address, private ones included.
  ['::ffff:0:0', 96, 'IPv4-mapped'],
  ['::ffff:0:0:0', 96, 'IPv4-translated'],
  ['::', 96, 'IPv4-compatible'],
  ['64:ff9b::', 96, 'NAT64'],
  ['64:ff9b:1::', 48, 'NAT64'],
  ['100::', 64, 'discard'],
  ['2001::', 23, 'IETF protocol assignments'],
  ['2001:db8::', 32, 'documentation'],
  ['2002::', 16, '6to4'],
  ['3fff::', 20, 'documentation'],
  ['fc00::', 7, 'unique local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
]);

/** Global unicast: every public IPv6 address lies in 2000::/3, so anything outside it is refused. */
const GLOBAL_UNICAST_V6 = ranges('ipv6', [['2000::', 3, 'global unicast']])[0].list;

/**
 * Why a notice must not be sent to this IP address (the name of its range), or null when it is a
 * public address. Anything that is not an IP address at all is refused too.
 */
export function nonPublicRange(address: string): string | null {
  // A zone index (fe80::1%eth0) only ever names a link-local address.
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (bare.includes('%')) return 'link-local';
  switch (isIP(bare)) {
    case 4:
      return NON_PUBLIC_V4.find((range) => range.list.check(bare, 'ipv4'))?.name ?? null;
    case 6: {
      const named = NON_PUBLIC_V6.find((range) => range.list.check(bare, 'ipv6'))?.name;
      if (named) return named;
      return GLOBAL_UNICAST_V6.check(bare, 'ipv6') ? null : 'not global unicast';
    }
    default:
      return 'not an IP address';
  }
}

/** The few words a refusal of a resolved address may say (docs/design-record.md#d28). */
export type NonPublicKind = 'loopback' | 'private' | 'link-local' | 'reserved';

const KIND_OF_RANGE: Readonly<Record<string, NonPublicKind>> = {
  loopback: 'loopback',
  private: 'private',
  'unique local': 'private',
  'site-local': 'private',
  'shared (CGNAT)': 'private',
  'link-local': 'link-local',
  'link-local (cloud metadata)': 'link-local',
};

/**
 * The kind of a non-public range (a name nonPublicRange gave), in one of a few words. A refusal of
 * an address a host NAME resolved to says only this, never the address nor its exact range
 * (docs/design-record.md#d28): the partner typed the name, not the address, and the operator's
 * resolver answered it, so naming the answer would let a partner map the operator's internal
 * names one registration at a time. Every range without a word of its own is "reserved".
 */
export function nonPublicKind(range: string): NonPublicKind {
  return KIND_OF_RANGE[range] ?? 'reserved';
}
