import { RoundRobinTenantSlots } from './round-robin-tenant-slots.js';

const never = new AbortController().signal;

/** Takes a slot for `tenant` and records `label` in `order` once it is granted. */
function queued(slots: RoundRobinTenantSlots, tenant: string, label: string, order: string[], signal = never): Promise<void> {
  return slots.take(tenant, signal).then(() => void order.push(label));
}

/** Lets the grants' promise callbacks run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('RoundRobinTenantSlots', () => {
  it('never gives a tenant more than its share, while another tenant still gets the rest of the whole', () => {
    const slots = new RoundRobinTenantSlots({ perTenant: 2, total: 4 });
    expect([slots.tryTake('a'), slots.tryTake('a'), slots.tryTake('a')]).toEqual([true, true, false]);
    expect([slots.tryTake('b'), slots.tryTake('b')]).toEqual([true, true]);
    // The whole is taken: a third tenant waits too.
    expect(slots.tryTake('c')).toBe(false);
    expect({ a: slots.heldBy('a'), b: slots.heldBy('b'), all: slots.heldInAll() }).toEqual({ a: 2, b: 2, all: 4 });
  });

  it("queues a tenant's requests beyond its share in their order, and grants one as soon as one of its own is given back", async () => {
    const slots = new RoundRobinTenantSlots({ perTenant: 1, total: 4 });
    expect(slots.tryTake('a')).toBe(true);
    const order: string[] = [];
    const waits = [queued(slots, 'a', 'a2', order), queued(slots, 'a', 'a3', order)];
    // Another tenant is not held up by the first one's queue.
    expect(slots.tryTake('b')).toBe(true);
    await settle();
    expect({ order, waiting: slots.waitingOf('a') }).toEqual({ order: [], waiting: 2 });

    slots.release('a');
    await settle();
    expect(order).toEqual(['a2']);
    // A newcomer of the tenant does not overtake its own earlier waiter.
    expect(slots.tryTake('a')).toBe(false);
    slots.release('a');
    await Promise.all(waits);
    expect({ order, held: slots.heldBy('a'), waiting: slots.waitingOf('a') }).toEqual({ order: ['a2', 'a3'], held: 1, waiting: 0 });
  });

  it('hands freed slots to the waiting tenants in turn, however many requests the first one queued', async () => {
    const slots = new RoundRobinTenantSlots({ perTenant: 2, total: 2 });
    slots.tryTake('x');
    slots.tryTake('x');
    const order: string[] = [];
    // a queues four before b and c queue one each, then a queues two more.
    const waits = [
      ...['a1', 'a2', 'a3', 'a4'].map((label) => queued(slots, 'a', label, order)),
      queued(slots, 'b', 'b1', order),
      queued(slots, 'c', 'c1', order),
      queued(slots, 'b', 'b2', order),
      ...['a5', 'a6'].map((label) => queued(slots, 'a', label, order)),
    ];
    // Each slot given back and taken again one at a time: who gets each in turn.
    const served = async () => {
      const before = order.length;
      const taker = (['x', 'a', 'b', 'c'] as const).find((tenant) => slots.heldBy(tenant) > 0)!;
      slots.release(taker);
      await settle();
      return order.slice(before);
    };
    const turns: string[][] = [];
    for (let i = 0; i < 9; i++) turns.push(await served());
    await Promise.all(waits);
    // One grant per slot given back, b and c each one turn away from theirs.
    expect(turns).toEqual([['a1'], ['b1'], ['c1'], ['a2'], ['b2'], ['a3'], ['a4'], ['a5'], ['a6']]);
    expect(slots.waitingInAll()).toBe(0);
  });

  it('passes over a tenant at its share and keeps its turn for when it is under it again', async () => {
    const slots = new RoundRobinTenantSlots({ perTenant: 1, total: 2 });
    slots.tryTake('a');
    slots.tryTake('b');
    const order: string[] = [];
    const a2 = queued(slots, 'a', 'a2', order);
    const c1 = queued(slots, 'c', 'c1', order);
    // b gives back: a is first in turn but holds its share, so c gets the slot.
    slots.release('b');
    await c1;
    expect(order).toEqual(['c1']);
    slots.release('a');
    await a2;
    expect(order).toEqual(['c1', 'a2']);
    expect({ a: slots.heldBy('a'), c: slots.heldBy('c'), all: slots.heldInAll() }).toEqual({ a: 1, c: 1, all: 2 });
  });

  it('gives up a wait when its signal aborts: the slot is not taken, its place is not granted later, the others keep theirs', async () => {
    const slots = new RoundRobinTenantSlots({ perTenant: 1, total: 1 });
    slots.tryTake('a');
    const gaveUp = new AbortController();
    const order: string[] = [];
    const abandoned = slots.take('b', gaveUp.signal);
    const kept = queued(slots, 'c', 'c1', order);
    gaveUp.abort(new Error('no slot in time'));
    await expect(abandoned).rejects.toThrow('no slot in time');
    expect(slots.waitingOf('b')).toBe(0);
    slots.release('a');
    await kept;
    expect({ order, b: slots.heldBy('b'), c: slots.heldBy('c') }).toEqual({ order: ['c1'], b: 0, c: 1 });
    // An already aborted signal is refused at once, even with a slot free.
    slots.release('c');
    await expect(slots.take('b', AbortSignal.abort(new Error('too late')))).rejects.toThrow('too late');
    expect(slots.heldInAll()).toBe(0);
  });

  it('refuses a slot given back that was not taken, and limits that cannot hold a slot', () => {
    const slots = new RoundRobinTenantSlots({ perTenant: 1, total: 2 });
    expect(() => slots.release('a')).toThrow(/not taken/);
    expect(() => new RoundRobinTenantSlots({ perTenant: 0, total: 2 })).toThrow(RangeError);
    expect(() => new RoundRobinTenantSlots({ perTenant: 2, total: 1 })).toThrow(RangeError);
  });
});
