import { readFile } from 'node:fs/promises';
import { dnsLookup } from '#core/notices/endpoints/host-lookup.js';
import { FakeDnsServer } from '../../utils/fake-dns-server.js';

/**
 * The webhook resolver (docs/design-record.md#d24) asks DNS servers on the event loop, not through
 * getaddrinfo on libuv's four pool threads: lookups that never get an answer leave the pool free
 * for everything else, and each stops at its signal.
 */
let dns: FakeDnsServer;

beforeAll(async () => {
  dns = await FakeDnsServer.start({ 'ok.test': '192.0.2.10' }, (name) => name.endsWith('.silent.test'));
});
afterAll(async () => {
  dns.release();
  await dns.close();
});

describe('dnsLookup', () => {
  it("resolves through the servers it is given, and names one that does not exist as the resolver's error", async () => {
    const lookup = dnsLookup([dns.address]);
    await expect(lookup('ok.test', new AbortController().signal)).resolves.toEqual([{ address: '192.0.2.10', family: 4 }]);
    await expect(lookup('missing.test', new AbortController().signal)).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(lookup('localhost', new AbortController().signal)).resolves.toContainEqual({ address: '127.0.0.1', family: 4 });
  });

  it('stops unanswered lookups at their signal, and eight of them leave the thread pool free meanwhile', async () => {
    const lookup = dnsLookup([dns.address]);
    const controller = new AbortController();
    const hanging = Array.from({ length: 8 }, (_, i) => lookup(`n${i}.silent.test`, controller.signal));
    // The pool's four threads would all be taken by getaddrinfo; a file read needs one.
    await expect(readFile(new URL(import.meta.url))).resolves.toBeInstanceOf(Buffer);
    controller.abort(Object.assign(new Error('time is up'), { name: 'TimeoutError' }));
    const outcomes = await Promise.allSettled(hanging);
    for (const outcome of outcomes) expect(outcome).toMatchObject({ status: 'rejected', reason: { code: 'ETIMEOUT' } });
  });
});
