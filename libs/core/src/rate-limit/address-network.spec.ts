import { addressNetwork } from './address-network.js';

describe('addressNetwork (what the failed-authentication limit counts)', () => {
  it('counts an IPv4 address as itself', () => {
    expect(addressNetwork('203.0.113.7')).toBe('203.0.113.7');
    expect(addressNetwork('203.0.113.8')).toBe('203.0.113.8');
  });

  it('counts every address of one IPv6 /64 as the same network, whatever its spelling', () => {
    const network = '2001:db8:1:2::/64';
    for (const address of [
      '2001:db8:1:2::1',
      '2001:db8:1:2::2',
      '2001:0DB8:0001:0002:ffff:ffff:ffff:ffff',
      '2001:db8:1:2:a:b:c:d',
      '2001:db8:1:2::1.2.3.4',
      '2001:db8:1:2::9%eth0',
    ]) {
      expect(addressNetwork(address)).toBe(network);
    }
    expect(addressNetwork('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(addressNetwork('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressNetwork('::1')).toBe('0:0:0:0::/64');
    expect(addressNetwork('::')).toBe('0:0:0:0::/64');
    expect(addressNetwork('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('counts an IPv4-mapped IPv6 address as the IPv4 address, in either spelling', () => {
    expect(addressNetwork('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressNetwork('::ffff:cb00:7107')).toBe('203.0.113.7');
    expect(addressNetwork('0:0:0:0:0:FFFF:CB00:7107')).toBe('203.0.113.7');
    // Not mapped: a NAT64 or IPv4-compatible address is an IPv6 address like any other.
    expect(addressNetwork('64:ff9b::203.0.113.7')).toBe('64:ff9b:0:0::/64');
  });

  it('counts what is not an address as given', () => {
    expect(addressNetwork('unknown')).toBe('unknown');
    expect(addressNetwork('')).toBe('');
  });
});
