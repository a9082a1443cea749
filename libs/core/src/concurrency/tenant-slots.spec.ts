import { TenantSlots } from './tenant-slots.js';

describe('TenantSlots', () => {
  it('refuses a tenant beyond its share while others still get theirs, and frees a slot once', () => {
    const slots = new TenantSlots({ perTenant: 2, total: 3 });
    const a1 = slots.tryTake('a')!;
    const a2 = slots.tryTake('a')!;
    expect(slots.tryTake('a')).toBeNull();
    const b1 = slots.tryTake('b');
    expect(b1).not.toBeNull();
    // The process's total is reached: nobody else gets one.
    expect(slots.tryTake('c')).toBeNull();
    a1.release();
    a1.release();
    expect(slots.heldBy('a')).toBe(1);
    expect(slots.tryTake('c')).not.toBeNull();
    a2.release();
    expect(slots.heldBy('a')).toBe(0);
  });

  it("queues a tenant's waiters behind its own slots without holding up another tenant", async () => {
    const slots = new TenantSlots({ perTenant: 1 });
    const never = new AbortController().signal;
    const a1 = await slots.take('a', never);
    const order: string[] = [];
    const a2 = slots.take('a', never).then((slot) => {
      order.push('a2');
      return slot;
    });
    const b1 = await slots.take('b', never);
    order.push('b1');
    expect(order).toEqual(['b1']);
    a1.release();
    (await a2).release();
    b1.release();
    expect(order).toEqual(['b1', 'a2']);
  });

  it('gives up a wait when its signal aborts, and the abandoned place is not granted later', async () => {
    const slots = new TenantSlots({ perTenant: 1 });
    const held = slots.tryTake('a')!;
    const controller = new AbortController();
    const waiting = slots.take('a', controller.signal);
    controller.abort(new Error('gave up'));
    await expect(waiting).rejects.toThrow('gave up');
    held.release();
    expect(slots.heldBy('a')).toBe(0);
    expect(slots.tryTake('a')).not.toBeNull();
  });
});
