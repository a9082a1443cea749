import { PollingLoop } from './polling-loop.js';

/** Resolves once `condition` holds, checking after each turn of the event loop (no fixed sleep). */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('Timed out');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('PollingLoop', () => {
  it('steps again at once while a step says there is more, then waits for its period or a wake-up', async () => {
    const answers = [true, true, false, false];
    let steps = 0;
    const loop = new PollingLoop({
      what: 'Test',
      everyMs: 60_000,
      step: () => Promise.resolve(answers[steps++] ?? false),
      logger: { error: () => undefined },
    });
    loop.start();
    await until(() => steps === 3);
    loop.wake();
    await until(() => steps === 4);
    await loop.stop();
    expect(steps).toBe(4);
  });

  it('logs a step that fails and goes on', async () => {
    const errors: string[] = [];
    let steps = 0;
    const loop = new PollingLoop({
      what: 'Test relay',
      everyMs: 60_000,
      step: () => (steps++ === 0 ? Promise.reject(new Error('database away')) : Promise.resolve(false)),
      logger: { error: (message) => errors.push(message) },
    });
    loop.start();
    await until(() => errors.length === 1);
    loop.wake();
    await until(() => steps === 2);
    await loop.stop();
    expect(errors).toEqual(['Test relay failed: database away']);
  });

  it('on stop, lets the step under way finish and starts no other', async () => {
    let finishStep: () => void = () => undefined;
    let steps = 0;
    const loop = new PollingLoop({
      what: 'Test',
      everyMs: 60_000,
      step: () => {
        steps += 1;
        return new Promise<boolean>((resolve) => (finishStep = () => resolve(true)));
      },
      logger: { error: () => undefined },
    });
    loop.start();
    await until(() => steps === 1);
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    finishStep();
    await stopping;
    expect(steps).toBe(1);
  });
});
