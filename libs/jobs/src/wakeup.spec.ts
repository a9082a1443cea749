import { Wakeup } from './wakeup.js';

describe('Wakeup', () => {
  it('waits the time given when nothing fires', async () => {
    const started = Date.now();
    await new Wakeup().wait(50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('ends the wait when fired', async () => {
    const wakeup = new Wakeup();
    const started = Date.now();
    setTimeout(() => wakeup.fire(), 10);
    await wakeup.wait(5_000);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('keeps a fire that came while nobody waited, once', async () => {
    const wakeup = new Wakeup();
    wakeup.fire();
    wakeup.fire();
    const started = Date.now();
    await wakeup.wait(5_000);
    expect(Date.now() - started).toBeLessThan(100);
    const second = Date.now();
    await wakeup.wait(50);
    expect(Date.now() - second).toBeGreaterThanOrEqual(45);
  });
});
