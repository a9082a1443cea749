import { isIPv4, isIPv6 } from 'node:net';

/**
 * What the failed-authentication limit counts (docs/design-record.md#d24): an IPv4 address as it
 * is, an IPv6 address by its /64 network, and an IPv4 address seen through an IPv6 socket
 * (`::ffff:a.b.c.d`, in either spelling) as that IPv4 address. A host on IPv6 is given a whole /64
 * and picks any address in it at will, so counting full addresses would never limit it. Anything
 * that is not an address (Express knows none) is counted as given.
 *
 * A network is written `2001:db8:0:1::/64`: the first four groups in lower-case hex without leading
 * zeros, whatever the spelling of the address, so every address of one /64 counts in one log.
 */
export function addressNetwork(address: string): string {
  if (isIPv4(address)) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address;
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (a zone id dropped, a dotted IPv4 tail read as two groups); null for anything else. */
function ipv6Groups(address: string): number[] | null {
  const zone = address.indexOf('%');
  let text = (zone === -1 ? address : address.slice(0, zone)).toLowerCase();
  if (!isIPv6(text)) return null;
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.', lastColon)) {
    const [a, b, c, d] = text
      .slice(lastColon + 1)
      .split('.')
      .map(Number);
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const written =
    tail === undefined ? headGroups : [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  return written.map((group) => parseInt(group, 16));
}
