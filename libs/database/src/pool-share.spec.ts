import { isConnectionWaitTimeout, ShareWaitTimeoutError } from './connection-wait.js';
import { PoolShare, sharePerTenant } from './pool-share.js';

describe('PoolShare', () => {
  it('gives a tenant half of the pool, at least one connection', () => {
    expect([1, 2, 3, 4, 5, 10, 20].map(sharePerTenant)).toEqual([1, 1, 1, 2, 2, 5, 10]);
  });

  it("takes a slot without a promise while the tenant is under its share, and refuses a wait past the pool's timeout as no connection in time", async () => {
    const share = new PoolShare(() => ({ max: 4, connectionTimeoutMillis: 30 }));
    expect([share.enter('a'), share.enter('a')]).toEqual([undefined, undefined]);
    const waiting = share.enter('a');
    expect(waiting).toBeInstanceOf(Promise);
    expect(share.waitingOf('a')).toBe(1);
    const refusal = await waiting!.then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(ShareWaitTimeoutError);
    expect(isConnectionWaitTimeout(refusal)).toBe(true);
    expect({ held: share.heldBy('a'), waiting: share.waitingOf('a'), inAll: share.inAll() }).toEqual({
      held: 2,
      waiting: 0,
      inAll: { held: 2, waiting: 0 },
    });
    // Another tenant still has the rest of the pool.
    expect(share.enter('b')).toBeUndefined();
  });

  it("hands a slot given back to the tenant's next request", async () => {
    const share = new PoolShare(() => ({ max: 2, connectionTimeoutMillis: 5000 }));
    expect(share.enter('a')).toBeUndefined();
    const next = share.enter('a')!;
    share.leave('a');
    await next;
    expect({ held: share.heldBy('a'), waiting: share.waitingOf('a') }).toEqual({ held: 1, waiting: 0 });
    share.leave('a');
    expect(share.heldBy('a')).toBe(0);
  });
});
