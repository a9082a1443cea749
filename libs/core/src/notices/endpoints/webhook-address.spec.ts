import { nonPublicKind, nonPublicRange } from './webhook-address.js';

describe('nonPublicRange', () => {
  it('lets public IPv4 and IPv6 addresses through', () => {
    for (const address of [
      '93.184.216.34',
      '8.8.8.8',
      '1.1.1.1',
      '172.32.0.1',
      '100.128.0.1',
      '2606:2800:220:1::',
      '2a00:1450:4001:80b::200e',
    ]) {
      expect(nonPublicRange(address)).toBeNull();
    }
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'shared (CGNAT)'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'reserved (broadcast)'],
    ['198.18.0.1', 'benchmarking'],
    ['192.0.2.10', 'documentation'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::ffff:127.0.0.1', 'IPv4-mapped'],
    ['::ffff:7f00:1', 'IPv4-mapped'],
    ['::ffff:93.184.216.34', 'IPv4-mapped'],
    ['::127.0.0.1', 'IPv4-compatible'],
    ['64:ff9b::7f00:1', 'NAT64'],
    ['2002:7f00:1::', '6to4'],
    ['2001:db8::1', 'documentation'],
    ['fd00::1', 'unique local'],
    ['fd00:ec2::254', 'unique local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['100::1', 'discard'],
    ['4000::1', 'not global unicast'],
  ])('refuses %s (%s)', (address, range) => {
    expect(nonPublicRange(address)).toBe(range);
  });

  it('refuses what is not an IP address', () => {
    expect(nonPublicRange('localhost')).toBe('not an IP address');
    expect(nonPublicRange('2130706433')).toBe('not an IP address');
  });
});

describe('nonPublicKind', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd00:ec2::254', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['0.0.0.0', 'reserved'],
    ['::ffff:10.0.0.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['224.0.0.1', 'reserved'],
  ])('says only the kind of %s: %s', (address, kind) => {
    expect(nonPublicKind(nonPublicRange(address)!)).toBe(kind);
  });
});
