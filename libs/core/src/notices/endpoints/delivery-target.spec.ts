import type { ResolvedAddress } from './host-lookup.js';
import { resolveDeliveryTarget, withoutResolvedAddress, type RefusedTarget } from './delivery-target.js';

const resolvingTo =
  (...addresses: string[]) =>
  (): Promise<ResolvedAddress[]> =>
    Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));

const refusal = async (url: string, ...addresses: string[]) =>
  ((await resolveDeliveryTarget(url, { allowPrivate: false, resolve: resolvingTo(...addresses) })) as RefusedTarget).reason;

describe('resolveDeliveryTarget (docs/design-record.md#d28)', () => {
  it.each([
    ['10.0.0.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['127.0.0.1', 'loopback'],
    ['fd00:ec2::254', 'private'],
    ['::ffff:10.0.0.1', 'reserved'],
  ])('refuses a name that resolves to %s saying only "%s", never the address', async (address, kind) => {
    const reason = await refusal('https://hooks.example/in', '93.184.216.34', address);
    expect(reason).toBe(`hooks.example resolves to a non-public address (${kind})`);
    expect(reason).not.toContain(address);
  });

  it('names a literal address the partner typed, with its range', async () => {
    expect(await refusal('https://169.254.169.254/')).toBe(
      'the address must not point to a non-public address (link-local (cloud metadata))',
    );
  });

  it('takes a name whose every address is public', async () => {
    const target = await resolveDeliveryTarget('https://hooks.example/in', { allowPrivate: false, resolve: resolvingTo('93.184.216.34') });
    expect(target).toMatchObject({ ok: true, host: 'hooks.example', address: { address: '93.184.216.34' } });
  });
});

describe('withoutResolvedAddress', () => {
  it('puts the name in place of the address it resolved to, wherever an error names it', () => {
    const target = { host: 'hooks.example', address: { address: '10.0.0.1', family: 4 as const } };
    expect(withoutResolvedAddress('ECONNREFUSED: connect ECONNREFUSED 10.0.0.1:443 (10.0.0.1)', target)).toBe(
      'ECONNREFUSED: connect ECONNREFUSED hooks.example:443 (hooks.example)',
    );
  });

  it('leaves a literal address as the partner typed it', () => {
    const target = { host: '93.184.216.34', address: { address: '93.184.216.34', family: 4 as const } };
    expect(withoutResolvedAddress('connect ECONNREFUSED 93.184.216.34:443', target)).toBe('connect ECONNREFUSED 93.184.216.34:443');
  });
});
