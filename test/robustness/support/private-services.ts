import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '#database/data-source-options.js';
import { Child, freePort } from '../../utils/child-process.js';

const run = promisify(execFile);

/** The newest PostgreSQL server installed the Debian way (/usr/lib/postgresql/<version>/bin). */
function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))) : [];
  if (versions.length === 0) throw new Error(`No PostgreSQL server under ${root} (initdb not found)`);
  return join(root, versions.sort((a, b) => Number(b) - Number(a))[0], 'bin');
}

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not within ${timeoutMs} ms`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

/**
 * A PostgreSQL cluster of the test's own (initdb in a temporary folder, its own port and socket
 * folder), so a test may stop and start it: the shared server is never touched. PostgreSQL refuses
 * to run as root, so as root the cluster belongs to the postgres user and its commands run as it.
 */
export class PrivatePostgres {
  private constructor(
    private readonly bin: string,
    private readonly dir: string,
    readonly port: number,
  ) {}

  static async create(): Promise<PrivatePostgres> {
    const dir = mkdtempSync(join(tmpdir(), 'robust-pg-'));
    const cluster = new PrivatePostgres(postgresBin(), dir, await freePort());
    if (process.getuid?.() === 0) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const { stdout: gid } = await run('id', ['-g', 'postgres']);
      chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
    }
    await cluster.command('initdb', ['-D', cluster.data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-locale', '--no-sync']);
    await cluster.start();
    const admin = new pg.Client({ connectionString: cluster.url('postgres') });
    await admin.connect();
    await admin.query('CREATE DATABASE scheduling');
    await admin.end();
    const dataSource = new DataSource(buildDataSourceOptions({ url: cluster.url(), poolSize: 1 }));
    await dataSource.initialize();
    try {
      await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      await dataSource.destroy();
    }
    return cluster;
  }

  private get data(): string {
    return join(this.dir, 'data');
  }

  url(database = 'scheduling'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  private async command(name: string, args: string[]): Promise<void> {
    const executable = join(this.bin, name);
    const [file, argv] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', executable, ...args]] : [executable, args];
    try {
      await run(file, argv, { cwd: this.dir });
    } catch (error) {
      const { stdout, stderr } = error as { stdout?: string; stderr?: string };
      throw new Error(`${name} ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`, { cause: error });
    }
  }

  async start(): Promise<void> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
    await this.command('pg_ctl', ['-D', this.data, '-o', options, '-l', join(this.dir, 'server.log'), '-w', '-t', '30', 'start']);
  }

  /** `fast`: every session is ended at once (as a crash or a failover would end them). */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    await this.command('pg_ctl', ['-D', this.data, '-m', mode, '-w', '-t', '30', 'stop']);
  }

  async destroy(): Promise<void> {
    await this.stop('immediate').catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A redis-server of the test's own (no persistence), to kill and start again on the same port. */
export class PrivateRedis {
  private child: Child | undefined;

  private constructor(readonly port: number) {}

  static async create(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.child = Child.spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      PATH: process.env.PATH,
    });
    await waitUntil('the private redis-server', () => this.answers());
  }

  async answers(): Promise<boolean> {
    const client = new Redis({ port: this.port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return (await client.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      client.disconnect();
    }
  }

  /** SIGKILL, as when the server dies. */
  async stop(): Promise<void> {
    await this.child?.kill();
    this.child = undefined;
  }

  async exists(key: string): Promise<boolean> {
    const client = new Redis({ port: this.port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return (await client.exists(key)) === 1;
    } finally {
      client.disconnect();
    }
  }
}

export { waitUntil };
