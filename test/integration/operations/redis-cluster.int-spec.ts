import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { Child, buildApps, childEnv, freePort } from '../../utils/child-process.js';
import { NoticeReceiver, eventually, verifyNotice } from '../../utils/notice-receiver.js';
import { seed, type SeededBusiness } from '../../utils/seed.js';

/**
 * The service on a Redis Cluster (REDIS_CLUSTER=true): a three-master cluster made from this
 * machine's redis-server on local ports, two compiled API processes and the worker against it.
 * The per-key limit stays exact across both APIs (its keys are single-key scripts, each in its
 * own slot), and a notice goes through the queues (keys under the hash tag {QUEUE_PREFIX}).
 */
jest.setTimeout(240_000);

const HOST = '127.0.0.1';
let folder: string;
const nodes: Child[] = [];
const services: Child[] = [];
let seedUrl: string;

/** A port free with its cluster bus port (port + 10000) free too. */
async function clusterPort(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port + 10_000 > 65_535) continue;
    const bus = createServer();
    const free = await new Promise<boolean>((done) => {
      bus.once('error', () => done(false));
      bus.listen(port + 10_000, HOST, () => bus.close(() => done(true)));
    });
    if (free) return port;
  }
}

function redisCli(args: string[]): string {
  const run = spawnSync('redis-cli', args, { encoding: 'utf8', timeout: 60_000 });
  if (run.status !== 0) throw new Error(`redis-cli ${args.join(' ')} failed:\n${run.stdout}${run.stderr}`);
  return run.stdout;
}

async function startCluster(): Promise<void> {
  const ports = [await clusterPort(), await clusterPort(), await clusterPort()];
  for (const port of ports) {
    const dir = join(folder, String(port));
    spawnSync('mkdir', ['-p', dir]);
    const node = Child.spawn(
      'redis-server',
      ['--port', String(port), '--bind', HOST, '--cluster-enabled', 'yes', '--cluster-config-file', join(dir, 'nodes.conf')],
      { PATH: process.env.PATH },
    );
    nodes.push(node);
    node.process.stdout?.resume();
  }
  // A node not listening yet makes redis-cli fail: that is a "not yet", not an error.
  const answers =
    (port: number, reply: string, ...args: string[]) =>
    () =>
      Promise.resolve(
        spawnSync('redis-cli', ['-h', HOST, '-p', String(port), ...args], { encoding: 'utf8' }).stdout?.includes(reply) ?? false,
      );
  for (const port of ports) await eventually(answers(port, 'PONG', 'ping'), 30_000, `redis-server on ${port}`);
  redisCli(['--cluster', 'create', ...ports.map((port) => `${HOST}:${port}`), '--cluster-replicas', '0', '--cluster-yes']);
  for (const port of ports) await eventually(answers(port, 'cluster_state:ok', 'cluster', 'info'), 60_000, `the cluster seen from ${port}`);
  seedUrl = `redis://${HOST}:${ports[0]}`;
}

const clusterEnv = (extra: Record<string, string> = {}) =>
  childEnv('cluster', { REDIS_URL: seedUrl, REDIS_CLUSTER: 'true', LOG_LEVEL: 'error', NOTICE_RELAY_POLL_MS: '100', ...extra });

async function startApi(): Promise<string> {
  const port = await freePort();
  const child = Child.spawn(process.execPath, ['dist/apps/api/src/main.js'], clusterEnv({ PORT: String(port) }));
  services.push(child);
  const base = `http://${HOST}:${port}/v1/api`;
  await eventually(
    async () => {
      if (child.process.exitCode !== null) throw new Error(`The API exited:\n${child.output}`);
      return fetch(`http://${HOST}:${port}/health/ready`).then(
        (res) => res.status === 200,
        () => false,
      );
    },
    60_000,
    'the API on the cluster',
  );
  return base;
}

let apis: string[];
let salon: SeededBusiness;
let receiver: NoticeReceiver;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'redis-cluster-'));
  await buildApps();
  await startCluster();
  receiver = await NoticeReceiver.start();
  salon = await seed({
    keys: [
      { ref: 'limit', member: 'owner', name: 'Limit', scopes: ['services.read'] },
      { ref: 'write', member: 'owner', name: 'Write', scopes: ['clients.write'] },
    ],
    members: [{ ref: 'owner', name: 'Owner', email: `owner-${Date.now()}@cluster.example`, role: 'OWNER' }],
    webhooks: [{ ref: 'hook', url: receiver.url('/cluster'), events: ['client.created'] }],
  });
  apis = [await startApi(), await startApi()];
  services.push(Child.spawn(process.execPath, ['dist/apps/worker/src/main.js'], clusterEnv()));
});

afterAll(async () => {
  await Promise.all([...services, ...nodes].map((child) => child.kill()));
  await receiver?.close();
  await rm(folder, { recursive: true, force: true });
});

describe('on a three-master Redis Cluster', () => {
  it('admits exactly 120 requests of one key in a minute across two API processes', async () => {
    const key = salon.keys.limit.key;
    const answers: { status: number; at: number }[] = [];
    for (let i = 0; i < 126; i++) {
      const res = await fetch(`${apis[i % 2]}/me`, { headers: { Authorization: `Bearer ${key}` } });
      answers.push({ status: res.status, at: Date.now() });
    }
    // The first 120 are admitted whenever they come; after them, a request is refused while the
    // first admitted one is less than a minute old (answers within a second of that edge are left out).
    expect(answers.slice(0, 120).every((answer) => answer.status === 200)).toBe(true);
    const first = answers[0].at;
    for (const answer of answers.slice(120)) {
      const age = answer.at - first;
      if (age < 59_000) expect(answer.status).toBe(429);
      else if (age > 61_000) expect(answer.status).toBe(200);
    }
  });

  it('delivers a notice through the queues on the cluster, signed with the endpoint secret', async () => {
    const res = await fetch(`${apis[1]}/clients`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${salon.keys.write.key}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': `cluster-${Date.now()}`,
      },
      body: JSON.stringify({ name: 'Cluster Client', phone: '+351912345670', consent: true }),
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const notice = await eventually(
      () => Promise.resolve(receiver.received.find((received) => received.body.includes(id))),
      60_000,
      'the client.created notice',
    );
    expect(verifyNotice(salon.webhooks.hook.secret, notice)).toMatchObject({ type: 'client.created', data: { id } });
  });
});
