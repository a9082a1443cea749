import { AsyncLocalStorage } from 'node:async_hooks';
import type { JobProcessor, NextStep, QueuedJob } from '../../job-queue.js';
import { InMemoryJobQueue } from './in-memory-job-queue.js';

/** Resolves once `condition` holds, checking after each turn of the event loop (no fixed sleep). */
async function until(condition: () => boolean | Promise<boolean>, what = 'the condition'): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function isEmpty(queue: InMemoryJobQueue<string>): Promise<boolean> {
  return Object.values(await queue.counts()).every((count) => count === 0);
}

/** A processor whose runs end when the test says so, with the step the test gives. */
function gatedProcessor() {
  const runs: QueuedJob<string>[] = [];
  const gates: ((step: NextStep) => void)[] = [];
  const processor: JobProcessor<string> = (job) => {
    runs.push(job);
    return new Promise<NextStep>((finish) => gates.push(finish));
  };
  const finishNext = (step: NextStep = { kind: 'done' }) => gates.shift()?.(step);
  return { runs, gates, processor, finishNext };
}

function recordingLogger() {
  const lines: string[] = [];
  return { lines, warn: (message: string) => lines.push(`warn: ${message}`), error: (message: string) => lines.push(`error: ${message}`) };
}

const job = (id: string, data = id, delayMs?: number) => ({ id, name: 'test-job', data, delayMs });

describe('InMemoryJobQueue', () => {
  it('runs a job once per id: adding an id that waits or runs is a no-op, a finished one is free again', async () => {
    const { runs, processor, finishNext } = gatedProcessor();
    const queue = new InMemoryJobQueue<string>('test', recordingLogger());
    queue.process(processor, { concurrency: 1 });
    await queue.add([job('a', 'first'), job('b', 'second')]);
    await queue.add([job('a', 'again'), job('b', 'again')]);
    expect(await queue.counts()).toEqual({ waiting: 1, active: 1, delayed: 0 });
    finishNext();
    await until(() => runs.length === 2);
    finishNext();
    await until(async () => runs.length === 2 && (await isEmpty(queue)));
    expect(runs.map((run) => [run.id, run.data, run.name])).toEqual([
      ['a', 'first', 'test-job'],
      ['b', 'second', 'test-job'],
    ]);
    await queue.add([job('a', 'later')]);
    await until(() => runs.length === 3);
    expect(runs[2].data).toBe('later');
    finishNext();
    await queue.close();
  });

  it('runs at most `concurrency` jobs at once, and none before a processor is set', async () => {
    const { runs, gates, processor, finishNext } = gatedProcessor();
    const queue = new InMemoryJobQueue<string>('test', recordingLogger());
    await queue.add(['a', 'b', 'c', 'd'].map((id) => job(id)));
    expect(await queue.counts()).toEqual({ waiting: 4, active: 0, delayed: 0 });
    queue.process(processor, { concurrency: 2 });
    await until(() => runs.length === 2);
    expect(await queue.counts()).toEqual({ waiting: 2, active: 2, delayed: 0 });
    finishNext();
    await until(() => runs.length === 3);
    expect(gates).toHaveLength(2);
    while (runs.length < 4 || gates.length > 0) {
      finishNext();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await queue.close();
    expect(runs.map((run) => run.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('runs a job again at the time a `later` step names, counting its attempts and logging the warning', async () => {
    const logger = recordingLogger();
    const runs: { attemptsMade: number; at: number }[] = [];
    const queue = new InMemoryJobQueue<string>('test', logger);
    queue.process(
      (run) => {
        runs.push({ attemptsMade: run.attemptsMade, at: Date.now() });
        return Promise.resolve<NextStep>(
          run.attemptsMade < 2 ? { kind: 'later', at: new Date(Date.now() + 40), warning: `retry ${run.attemptsMade}` } : { kind: 'done' },
        );
      },
      { concurrency: 1 },
    );
    await queue.add([job('a')]);
    await until(() => runs.length === 1);
    await until(() => logger.lines.length === 1);
    expect(await queue.counts()).toEqual({ waiting: 0, active: 0, delayed: 1 });
    await queue.add([job('a')]);
    await until(async () => runs.length === 3 && (await isEmpty(queue)), 'three runs');
    expect(runs.map((run) => run.attemptsMade)).toEqual([0, 1, 2]);
    expect(runs[1].at - runs[0].at).toBeGreaterThanOrEqual(35);
    expect(logger.lines).toEqual(['warn: retry 0', 'warn: retry 1']);
    await queue.close();
  });

  it('holds a job added with a delay until it is due', async () => {
    const runs: number[] = [];
    const queue = new InMemoryJobQueue<string>('test', recordingLogger());
    queue.process(
      () => {
        runs.push(Date.now());
        return Promise.resolve<NextStep>({ kind: 'done' });
      },
      { concurrency: 1 },
    );
    const added = Date.now();
    await queue.add([job('a', 'x', 40)]);
    expect(await queue.counts()).toEqual({ waiting: 0, active: 0, delayed: 1 });
    await until(() => runs.length === 1);
    expect(runs[0] - added).toBeGreaterThanOrEqual(35);
    await queue.close();
  });

  it('logs the reason of a `failed` step, and a processor that throws, and ends those jobs', async () => {
    const logger = recordingLogger();
    const queue = new InMemoryJobQueue<string>('mail', logger);
    queue.process(
      (run) => (run.id === 'a' ? Promise.resolve<NextStep>({ kind: 'failed', reason: 'gave up on a' }) : Promise.reject(new Error('boom'))),
      {
        concurrency: 1,
      },
    );
    await queue.add([job('a'), job('b')]);
    await until(() => logger.lines.length === 2);
    expect(logger.lines).toEqual(['error: gave up on a', 'error: mail job b failed: boom']);
    expect(await queue.counts()).toEqual({ waiting: 0, active: 0, delayed: 0 });
    await queue.close();
  });

  it('on close, lets the running job finish, drops the waiting and delayed ones, and takes no more', async () => {
    const { runs, processor, finishNext } = gatedProcessor();
    const queue = new InMemoryJobQueue<string>('test', recordingLogger());
    queue.process(processor, { concurrency: 1 });
    await queue.add([job('delayed', 'x', 60_000), job('running'), job('waiting')]);
    await until(() => runs.length === 1);
    let closed = false;
    const closing = queue.close().then(() => (closed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    finishNext({ kind: 'later', at: new Date() });
    await closing;
    await queue.add([job('new')]);
    expect(runs.map((run) => run.id)).toEqual(['running']);
    expect(await queue.counts()).toEqual({ waiting: 0, active: 0, delayed: 0 });
  });

  it('runs jobs outside the async context of whoever added them (an ambient transaction stays with its caller)', async () => {
    const ambient = new AsyncLocalStorage<string>();
    const seen: (string | undefined)[] = [];
    const queue = new InMemoryJobQueue<string>('test', recordingLogger());
    queue.process(
      (run) => {
        seen.push(ambient.getStore());
        return Promise.resolve<NextStep>(run.attemptsMade === 0 ? { kind: 'later', at: new Date(Date.now() + 5) } : { kind: 'done' });
      },
      { concurrency: 1 },
    );
    await ambient.run('the caller’s transaction', () => queue.add([job('a'), job('b', 'b', 5)]));
    await until(() => seen.length === 3);
    expect(seen).toEqual([undefined, undefined, undefined]);
    await queue.close();
  });

  it('repeats a job by name at once and every period, one at a time, until closed', async () => {
    const { runs, processor, finishNext } = gatedProcessor();
    const queue = new InMemoryJobQueue<string>('maintenance', recordingLogger());
    queue.process(processor, { concurrency: 2 });
    await queue.repeat('purge', 20);
    await until(() => runs.length === 1);
    expect(runs[0]).toMatchObject({ id: 'purge', name: 'purge', attemptsMade: 0 });
    // Its period passes while it runs: the same id is not added twice.
    const started = Date.now();
    await until(() => Date.now() - started >= 60);
    expect(runs).toHaveLength(1);
    finishNext();
    await until(() => runs.length === 2);
    finishNext();
    await queue.close();
    const after = runs.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(runs).toHaveLength(after);
  });
});
