import { randomUUID } from 'node:crypto';
import { BullmqDriver } from '#jobs/drivers/bullmq/bullmq-driver.js';
import { eventually } from '../../utils/notice-receiver.js';
import { testConfig } from '../../utils/test-config.js';

/**
 * The endpoint slots of fair delivery (docs/design-record.md#d17) on real Redis: two drivers, as
 * two workers, share one count per key; a slot comes back on release, or when its lease is over.
 */
const config = testConfig();
const drivers: BullmqDriver[] = [];

function worker(prefix: string): BullmqDriver {
  const driver = new BullmqDriver({ url: config.REDIS_URL }, prefix);
  drivers.push(driver);
  return driver;
}

afterAll(async () => {
  await Promise.all(drivers.map((driver) => driver.close()));
});

describe('Redis endpoint slots', () => {
  it('count across workers, per key, and come back on release', async () => {
    const prefix = `slots-${randomUUID()}`;
    const options = { name: 'notice-endpoint', cap: 2, leaseMs: 60_000 };
    const [one, two] = [worker(prefix).limiter(options), worker(prefix).limiter(options)];
    const first = await one.acquire('endpoint-a');
    const second = await two.acquire('endpoint-a');
    expect([first, second].every((slot) => slot !== null)).toBe(true);
    expect(await one.acquire('endpoint-a')).toBeNull();
    expect(await two.acquire('endpoint-a')).toBeNull();
    expect(await two.acquire('endpoint-b')).not.toBeNull();
    await first!.release();
    expect(await two.acquire('endpoint-a')).not.toBeNull();
    expect(await one.acquire('endpoint-a')).toBeNull();
  });

  it('frees a slot a dead worker never gave back once its lease is over', async () => {
    const prefix = `slots-${randomUUID()}`;
    const slots = worker(prefix).limiter({ name: 'notice-endpoint', cap: 1, leaseMs: 50 });
    expect(await slots.acquire('endpoint-a')).not.toBeNull();
    expect(await eventually(async () => (await slots.acquire('endpoint-a')) !== null, 10_000, 'the lease to end')).toBe(true);
  });
});
