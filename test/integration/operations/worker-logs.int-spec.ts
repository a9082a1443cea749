import { jest } from '@jest/globals';
import { Child, buildApps, childEnv } from '../../utils/child-process.js';
import { TEST_DATABASE_NAME } from '../../utils/test-database.js';

/**
 * docs/running.md: the worker logs as the API does, one JSON line per event on stdout (pino), from
 * its first line (Nest's own start lines included) to its last (SIGTERM). Before, it wrote Nest's
 * coloured text, in production as well. The compiled worker is run as a deployment runs it, its
 * stdout kept apart from stderr.
 */
jest.setTimeout(120_000);

interface WorkerRun {
  code: number | null;
  lines: string[];
}

async function runWorker(extra: Record<string, string | undefined>): Promise<WorkerRun> {
  const env = childEnv('worker-logs', { QUEUE_PREFIX: `worker-logs-${TEST_DATABASE_NAME}`, ...extra });
  const worker = Child.spawn(process.execPath, ['dist/apps/worker/src/main.js'], env);
  let stdout = '';
  worker.process.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  try {
    await worker.waitForOutput(/Worker started/, 60_000);
  } finally {
    worker.process.kill('SIGTERM');
  }
  const code = await worker.exited;
  return { code, lines: stdout.split('\n').filter((line) => line !== '') };
}

/** Each line as JSON, with the fields every pino line has; a line that is not JSON fails the test, named. */
function parsed(lines: string[]): Record<string, unknown>[] {
  return lines.map((line) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new Error(`Not a JSON line: ${line}`);
    }
    expect(value).toMatchObject({ level: expect.any(Number), time: expect.any(Number), pid: expect.any(Number), msg: expect.any(String) });
    return value as Record<string, unknown>;
  });
}

beforeAll(() => buildApps());

describe('the worker', () => {
  it('logs JSON lines only with NODE_ENV=production, its start among them', async () => {
    const run = await runWorker({ NODE_ENV: 'production', WEBHOOKS_ALLOW_PRIVATE: undefined, LOG_LEVEL: undefined });
    expect(run.code).toBe(0);
    const lines = parsed(run.lines);
    expect(lines).toContainEqual(expect.objectContaining({ level: 30, context: 'Worker', msg: 'Worker started' }));
  });

  it("logs Nest's own start lines as JSON too, at debug", async () => {
    const run = await runWorker({ LOG_LEVEL: 'debug' });
    expect(run.code).toBe(0);
    const lines = parsed(run.lines);
    expect(lines).toContainEqual(expect.objectContaining({ level: 20, context: 'InstanceLoader' }));
    expect(lines).toContainEqual(expect.objectContaining({ level: 30, context: 'Worker', msg: 'Worker started' }));
  });
});
