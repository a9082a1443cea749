import { jest } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import { SCOPES } from '#core/scopes/scope.js';
import { Child, buildApps, childEnv, freePort } from '../utils/child-process.js';
import { ContractResponseValidator } from '../utils/contract-response-validator.js';
import { createKey, createTenant, type Tenant } from '../utils/tenant-factory.js';
import { startTestContext, testSql } from '../utils/test-context.js';

/**
 * Issue 8.5: two API PROCESSES (the compiled app, as production runs it) sharing one Redis and one
 * database. 1,000 requests of one key, spread over both, admit at most 120 in any 60 s; and a key
 * revoked with the admin command line is refused by both within one second.
 */
jest.setTimeout(120_000);

const validator = new ContractResponseValidator();
let admin: INestApplicationContext;
let tenant: Tenant;
let apis: { child: Child; base: string }[] = [];

const processEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => childEnv('robust-two', { LOG_LEVEL: 'error', ...extra });

async function startApi(): Promise<{ child: Child; base: string }> {
  const port = await freePort();
  const child = Child.spawn(process.execPath, ['dist/apps/api/src/main.js'], processEnv({ PORT: String(port) }));
  const base = `http://127.0.0.1:${port}/v1/api`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.process.exitCode !== null) throw new Error(`The API exited:\n${child.output}`);
    try {
      if ((await fetch(`${base}/openapi.json`)).status === 200) return { child, base };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`The API did not answer within 30 s:\n${child.output}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

interface Answer {
  status: number;
  at: number;
  process: number;
  headers: Record<string, string>;
}

/** GET /me on one process, checked against the contract like every E2eApi answer. */
async function getMe(processIndex: number, key: string): Promise<Answer> {
  const res = await fetch(`${apis[processIndex].base}/me`, { headers: { Authorization: `Bearer ${key}` } });
  const text = await res.text();
  const headers = Object.fromEntries(res.headers.entries());
  const problems = validator.check({ method: 'GET', path: '/me', status: res.status, headers, text });
  if (problems.length > 0) throw new Error(`GET /me on process ${processIndex} breaks the contract:\n  ${problems.join('\n  ')}`);
  return { status: res.status, at: Date.now(), process: processIndex, headers };
}

beforeAll(async () => {
  await buildApps();
  ({ app: admin } = await startTestContext({ app: 'admin' }));
  tenant = await createTenant();
  apis = await Promise.all([startApi(), startApi()]);
});

afterAll(async () => {
  await Promise.all(apis.map((a) => a.child.kill()));
  await admin?.close();
});

describe('two API processes, one Redis', () => {
  it('1,000 requests of one key admit at most 120 in any 60 s', async () => {
    const key = await createKey(admin, tenant, SCOPES);
    const answers: Answer[] = [];
    let next = 0;
    const started = Date.now();
    // 20 at a time, alternating between the processes.
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < 1000) {
          const index = next++;
          answers.push(await getMe(index % 2, key));
        }
      }),
    );
    const elapsed = Date.now() - started;
    const admitted = answers
      .filter((a) => a.status === 200)
      .map((a) => a.at)
      .sort((a, b) => a - b);
    let busiest = 0;
    for (let i = 0; i < admitted.length; i += 1) {
      let j = i;
      while (j < admitted.length && admitted[j] < admitted[i] + 60_000) j += 1;
      busiest = Math.max(busiest, j - i);
    }
    expect(answers).toHaveLength(1000);
    expect(busiest).toBeLessThanOrEqual(120);
    // Within one window the shared limit admits exactly its 120, however they were spread.
    if (elapsed < 60_000) expect(admitted).toHaveLength(120);
    expect(answers.filter((a) => a.status !== 200).every((a) => a.status === 429 && Number(a.headers['retry-after']) >= 1)).toBe(true);
    // Both processes admitted and refused: the count is shared, not per process.
    for (const p of [0, 1]) {
      expect(answers.some((a) => a.process === p && a.status === 200)).toBe(true);
      expect(answers.some((a) => a.process === p && a.status === 429)).toBe(true);
    }
  });

  it('a key revoked with the admin command line is refused by both processes within 1 s', async () => {
    const key = await createKey(admin, tenant, ['services.read']);
    const prefix = key.slice(0, 12);
    for (const p of [0, 1]) expect((await getMe(p, key)).status).toBe(200);

    const db = testSql(admin);
    let revokedAt: number | undefined;
    const refusedAt: (number | undefined)[] = [undefined, undefined];
    let cliDone = false;
    // Both processes keep using the key (so it sits in their caches) while the command runs.
    const polling = Promise.all(
      [0, 1].map(async (p) => {
        while (refusedAt[p] === undefined) {
          const answer = await getMe(p, key);
          if (answer.status === 401) refusedAt[p] = answer.at;
          else expect([200, 429]).toContain(answer.status);
          await new Promise((done) => setTimeout(done, 100));
          if (cliDone && revokedAt !== undefined && Date.now() - revokedAt > 5_000) break;
        }
      }),
    );
    const watching = (async () => {
      while (revokedAt === undefined && !cliDone) {
        const [row] = await db.query<{ revoked: boolean }[]>('SELECT revoked_at IS NOT NULL AS revoked FROM api_keys WHERE prefix = $1', [
          prefix,
        ]);
        if (row?.revoked) revokedAt = Date.now();
        await new Promise((done) => setTimeout(done, 10));
      }
    })();
    const cli = Child.spawn(
      process.execPath,
      ['dist/apps/admin/src/main.js', 'key', 'revoke', '--business', tenant.slug, '--prefix', prefix],
      processEnv(),
    );
    const code = await cli.exited;
    const exitedAt = Date.now();
    cliDone = true;
    await watching;
    expect({ code, output: code === 0 ? '' : cli.output }).toEqual({ code: 0, output: '' });
    revokedAt ??= exitedAt;
    await polling;
    for (const p of [0, 1]) {
      expect(refusedAt[p]).toBeDefined();
      expect(refusedAt[p]! - revokedAt).toBeLessThanOrEqual(1000);
    }
  });
});
