import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createApiApp } from '#api/configure-app.js';
import type { FixtureFile } from '#core/fixtures/fixture-file.js';
import { REPO_ROOT } from '../utils/child-process.js';
import { seed } from '../utils/seed.js';
import { testConfig } from '../utils/test-config.js';
import { testSql, type TestSql } from '../utils/test-context.js';

/**
 * The README's "A partner's first booking" as a newcomer runs it: its shell block, word for word
 * but for the key and the address it says to put in, in bash with curl, against the business
 * `npm start` makes (scripts/demo-fixture.json, under a slug of its own). A block that books a
 * client the demo already has, or needs a command the machine may lack, fails here first.
 */
const run = promisify(execFile);
const PLACEHOLDERS = 'KEY=rk_live_…; API=http://127.0.0.1:3000/v1/api; ';

let app: NestExpressApplication;
let db: TestSql;
let api: string;
let demo: Awaited<ReturnType<typeof seed>>;

beforeAll(async () => {
  app = await createApiApp(testConfig({ IN_PROCESS_JOBS: 'true', REDIS_URL: '' }));
  await app.listen(0, '127.0.0.1');
  api = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}/v1/api`;
  db = testSql(app);
  const file = JSON.parse(await readFile(join(REPO_ROOT, 'scripts', 'demo-fixture.json'), 'utf8')) as FixtureFile;
  demo = await seed({ ...file.businesses[0], slug: `demo-${randomUUID().slice(0, 8)}` });
});
afterAll(() => app?.close());

async function quickStart(): Promise<string> {
  const readme = await readFile(join(REPO_ROOT, 'README.md'), 'utf8');
  const block = /\*\*A partner's first booking\*\*[^\n]*\n\n```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error("README.md has no sh block under **A partner's first booking**");
  if (!block.startsWith(PLACEHOLDERS)) throw new Error(`the README's block no longer starts with ${PLACEHOLDERS}`);
  return block.slice(PLACEHOLDERS.length);
}

async function get<T>(key: string, path: string): Promise<T> {
  const answer = await fetch(`${api}${path}`, { headers: { Authorization: `Bearer ${key}` } });
  expect(answer.status).toBe(200);
  return (await answer.json()) as T;
}

it("books a free slot and registers an endpoint with the README's four steps", async () => {
  const key = demo.keys.demo.key;
  // SERVICE and START, as the text under the block says: an id from step 1, a start from step 2.
  const services = await get<{ data: { id: string }[] }>(key, '/services');
  const service = services.data[0].id;
  const slots = await get<{ data: { startAt: string }[] }>(
    key,
    `/availability?serviceId=${service}&from=2030-01-07T00:00:00Z&to=2030-01-08T00:00:00Z`,
  );
  expect(slots.data.length).toBeGreaterThan(0);

  const { stdout } = await run('bash', ['-c', await quickStart()], {
    env: { PATH: process.env.PATH, KEY: key, API: api, SERVICE: service, START: slots.data[0].startAt },
  });

  // Every refusal is problem+json (docs/error-codes.md): none may be among the four answers.
  expect(stdout.match(/\{"type":"[^"]*\/problems\/[^}]*\}/g) ?? []).toEqual([]);
  const [booked] = await db.query<{ status: string; name: string }[]>(
    `SELECT a.status, c.name FROM appointments a JOIN clients c ON c.id = a.client_id
      WHERE a.business_id = $1 AND a.service_id = $2 AND a.starts_at = $3`,
    [demo.id, service, slots.data[0].startAt],
  );
  expect(booked).toEqual({ status: 'CONFIRMED', name: 'Rita Lopes' });
  const endpoints = await db.query<{ url: string }[]>('SELECT url FROM webhook_endpoints WHERE business_id = $1', [demo.id]);
  expect(endpoints).toEqual([{ url: 'https://hooks.example.com/in' }]);
});
