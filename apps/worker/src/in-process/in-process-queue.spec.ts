import { AsyncLocalStorage } from 'node:async_hooks';
import { InProcessQueue, type InProcessHandler, type InProcessJob } from './in-process-queue.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A handler whose runs finish when the test says so. */
function gatedHandler() {
  const runs: InProcessJob<string>[] = [];
  const gates: (() => void)[] = [];
  const handler: InProcessHandler<string> = async (job) => {
    runs.push(job);
    await new Promise<void>((open) => gates.push(open));
    return null;
  };
  return { runs, gates, handler };
}

const silent = { error: () => undefined };

describe('InProcessQueue', () => {
  it('runs a job once per id: adding an id that waits or runs is a no-op', async () => {
    const { runs, gates, handler } = gatedHandler();
    const queue = new InProcessQueue('test', 1, handler, silent);
    expect(queue.add('a', 'first')).toBe(true);
    expect(queue.add('b', 'second')).toBe(true);
    expect(queue.add('a', 'again')).toBe(false);
    expect(queue.add('b', 'again')).toBe(false);
    expect(queue.counts()).toEqual({ waiting: 1, active: 1, delayed: 0 });
    gates.shift()?.();
    await sleep(5);
    gates.shift()?.();
    await sleep(5);
    expect(runs.map((job) => job.data)).toEqual(['first', 'second']);
    // Done, so the id is free again (as a removed BullMQ job's id is).
    expect(queue.add('a', 'later')).toBe(true);
    gates.shift()?.();
    await queue.close();
  });

  it('runs at most `concurrency` jobs at once', async () => {
    const { runs, gates, handler } = gatedHandler();
    const queue = new InProcessQueue('test', 2, handler, silent);
    for (const id of ['a', 'b', 'c', 'd']) queue.add(id, id);
    await sleep(5);
    expect(runs).toHaveLength(2);
    expect(queue.counts()).toEqual({ waiting: 2, active: 2, delayed: 0 });
    gates.shift()?.();
    await sleep(5);
    expect(runs).toHaveLength(3);
    for (const open of gates.splice(0)) open();
    await sleep(5);
    for (const open of gates.splice(0)) open();
    await queue.close();
    expect(runs.map((job) => job.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('runs a job again at the time its handler names, counting its attempts', async () => {
    const runs: { attemptsMade: number; at: number }[] = [];
    const queue = new InProcessQueue<string>(
      'test',
      1,
      (job) => {
        runs.push({ attemptsMade: job.attemptsMade, at: Date.now() });
        return Promise.resolve(job.attemptsMade < 2 ? new Date(Date.now() + 40) : null);
      },
      silent,
    );
    queue.add('a', 'x');
    await sleep(5);
    expect(queue.counts()).toEqual({ waiting: 0, active: 0, delayed: 1 });
    expect(queue.add('a', 'x')).toBe(false);
    await sleep(150);
    expect(runs.map((run) => run.attemptsMade)).toEqual([0, 1, 2]);
    expect(runs[1].at - runs[0].at).toBeGreaterThanOrEqual(35);
    expect(queue.counts()).toEqual({ waiting: 0, active: 0, delayed: 0 });
    await queue.close();
  });

  it('logs a handler that throws and ends that job', async () => {
    const errors: string[] = [];
    const queue = new InProcessQueue<string>('mail', 1, () => Promise.reject(new Error('boom')), { error: (m) => errors.push(m) });
    queue.add('a', 'x');
    await sleep(5);
    expect(errors).toEqual(['mail job a failed: boom']);
    expect(queue.counts()).toEqual({ waiting: 0, active: 0, delayed: 0 });
    await queue.close();
  });

  it('on close, lets the running job finish, drops the waiting and delayed ones, and takes no more', async () => {
    let finished = false;
    const started: string[] = [];
    const queue = new InProcessQueue<string>(
      'test',
      1,
      async (job) => {
        started.push(job.id);
        if (job.id === 'slow') {
          await sleep(50);
          finished = true;
          return new Date(Date.now() + 10);
        }
        return new Date(Date.now() + 10);
      },
      silent,
    );
    queue.add('delayed', 'x');
    await sleep(2);
    queue.add('slow', 'x');
    queue.add('waiting', 'x');
    await sleep(5);
    await queue.close();
    expect(finished).toBe(true);
    expect(queue.add('new', 'x')).toBe(false);
    await sleep(30);
    expect(started).toEqual(['delayed', 'slow']);
    expect(queue.counts()).toEqual({ waiting: 0, active: 0, delayed: 0 });
  });

  it('runs jobs outside the async context of whoever added them (an ambient transaction stays with its caller)', async () => {
    const ambient = new AsyncLocalStorage<string>();
    const seen: (string | undefined)[] = [];
    const queue = new InProcessQueue<string>(
      'test',
      1,
      (job) => {
        seen.push(ambient.getStore());
        return Promise.resolve(job.attemptsMade === 0 ? new Date(Date.now() + 5) : null);
      },
      silent,
    );
    ambient.run('the caller’s transaction', () => queue.add('a', 'x'));
    await sleep(40);
    expect(seen).toEqual([undefined, undefined]);
    await queue.close();
  });
});
