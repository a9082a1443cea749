import { ConsoleLinkLimits, LINK_REQUESTS_PER_ADDRESS, LINK_REQUESTS_PER_EMAIL } from './console-link-limits.js';

/** The limits of sign-in link requests (docs/design-record.md#d26), counted in memory as without Redis. */
describe('ConsoleLinkLimits', () => {
  const repeat = async (times: number, request: (n: number) => Promise<boolean>) => {
    const answers: boolean[] = [];
    for (let n = 0; n < times; n += 1) answers.push(await request(n));
    return answers;
  };

  it('sends one e-mail at most its limit of links, from whatever addresses, and counts other e-mails apart', async () => {
    const limits = new ConsoleLinkLimits(null);
    const answers = await repeat(LINK_REQUESTS_PER_EMAIL.limit + 1, (n) => limits.admit(`203.0.113.${n}`, 'owner@salon.example'));
    expect(answers).toEqual([...Array<boolean>(LINK_REQUESTS_PER_EMAIL.limit).fill(true), false]);
    await expect(limits.admit('203.0.113.200', 'partner@salon.example')).resolves.toBe(true);
  });

  it('lets one address ask at most its limit, whatever the e-mails, an IPv6 /64 counted as one address', async () => {
    const limits = new ConsoleLinkLimits(null);
    const answers = await repeat(LINK_REQUESTS_PER_ADDRESS.limit + 1, (n) =>
      limits.admit(`2001:db8:1:2::${(n + 1).toString(16)}`, `someone${n}@example.com`),
    );
    expect(answers).toEqual([...Array<boolean>(LINK_REQUESTS_PER_ADDRESS.limit).fill(true), false]);
    await expect(limits.admit('2001:db8:1:3::1', 'another@example.com')).resolves.toBe(true);
  });
});
