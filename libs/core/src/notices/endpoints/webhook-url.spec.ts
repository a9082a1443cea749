import { checkWebhookUrl } from './webhook-url.js';

describe('checkWebhookUrl', () => {
  it('accepts public https addresses', () => {
    expect(checkWebhookUrl('https://hooks.example/in', { allowPrivate: false })).toBeNull();
    expect(checkWebhookUrl('https://93.184.216.34:8443/hook?x=1', { allowPrivate: false })).toBeNull();
    expect(checkWebhookUrl('https://[2606:2800:220:1::]/hook', { allowPrivate: false })).toBeNull();
  });

  it('refuses http, other schemes and relative or malformed addresses', () => {
    expect(checkWebhookUrl('http://hooks.example/in', { allowPrivate: false })).toBe('must be an https URL');
    expect(checkWebhookUrl('ftp://hooks.example/in', { allowPrivate: false })).toBe('must be an https URL');
    expect(checkWebhookUrl('/in', { allowPrivate: false })).toBe('must be an absolute URL');
    expect(checkWebhookUrl('https://', { allowPrivate: false })).toBe('must be an absolute URL');
  });

  it('refuses credentials and fragments', () => {
    expect(checkWebhookUrl('https://user:pw@hooks.example/in', { allowPrivate: false })).toBe('must not carry a user name or password');
    expect(checkWebhookUrl('https://hooks.example/in#x', { allowPrivate: false })).toBe('must not have a fragment');
  });

  it('refuses loopback, private and link-local hosts written as addresses', () => {
    for (const host of [
      'localhost',
      'api.localhost',
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '[::1]',
      '[fe80::1]',
      '[fd00::1]',
      '[::ffff:127.0.0.1]',
    ]) {
      expect(checkWebhookUrl(`https://${host}/hook`, { allowPrivate: false })).toMatch(/^must not point/);
    }
  });

  it('refuses decimal, octal, hex and short IPv4 forms, trailing dots, multicast and more IPv6 forms', () => {
    for (const host of [
      '2130706433',
      '0177.0.0.1',
      '0x7f.0.0.1',
      '0x7f000001',
      '127.1',
      '017700000001',
      'localhost.',
      'LOCALHOST',
      '224.0.0.1',
      '255.255.255.255',
      '0',
      '[::]',
      '[::127.0.0.1]',
      '[0:0:0:0:0:ffff:7f00:1]',
      '[64:ff9b::7f00:1]',
      '[ff02::1]',
    ]) {
      expect(checkWebhookUrl(`https://${host}:8443/hook`, { allowPrivate: false })).toMatch(/^must not point/);
    }
  });

  it('lets WEBHOOKS_ALLOW_PRIVATE accept http and local addresses', () => {
    expect(checkWebhookUrl('http://127.0.0.1:4000/hook', { allowPrivate: true })).toBeNull();
    expect(checkWebhookUrl('https://localhost/hook', { allowPrivate: true })).toBeNull();
    expect(checkWebhookUrl('ftp://127.0.0.1/hook', { allowPrivate: true })).toBe('must be an http or https URL');
  });

  it('accepts only the configured ports unless private addresses are allowed', () => {
    expect(checkWebhookUrl('https://hooks.example/in', { allowPrivate: false })).toBeNull();
    expect(checkWebhookUrl('https://hooks.example:443/in', { allowPrivate: false })).toBeNull();
    expect(checkWebhookUrl('https://hooks.example:8443/in', { allowPrivate: false })).toBeNull();
    expect(checkWebhookUrl('https://hooks.example:22/in', { allowPrivate: false })).toBe('must use port 443 or 8443');
    expect(checkWebhookUrl('https://hooks.example:9443/in', { allowPrivate: false, ports: [9443] })).toBeNull();
    expect(checkWebhookUrl('https://hooks.example/in', { allowPrivate: false, ports: [9443] })).toBe('must use port 9443');
    expect(checkWebhookUrl('http://127.0.0.1:6379/in', { allowPrivate: true })).toBeNull();
  });
});
