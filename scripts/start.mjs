// `npm start`: run the API for trying and developing it, with as little setup as possible.
// Not for production (use `npm run migrate` and `npm run start:api` with real secrets there):
// missing secrets are generated once into .data/; without DATABASE_URL an embedded PostgreSQL
// (PGlite, data in .data/pglite) is served on a local socket so the service keeps its plain pg
// driver; the database is migrated, and a demo business with a key is created on first start.
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import pg from 'pg';

const DATA = '.data';
const SECRETS = `${DATA}/dev-secrets.json`;
const DEMO = `${DATA}/demo-key.json`;
mkdirSync(DATA, { recursive: true, mode: 0o700 });

function devSecrets() {
  if (existsSync(SECRETS)) return JSON.parse(readFileSync(SECRETS, 'utf8'));
  const secrets = {
    API_KEY_PEPPER: randomBytes(32).toString('base64url'),
    CURSOR_SECRET: randomBytes(32).toString('base64url'),
  };
  writeFileSync(SECRETS, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

const env = { ...process.env };
for (const [name, value] of Object.entries(devSecrets())) env[name] ??= value;

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

/** PGlite behind a PostgreSQL wire-protocol socket; it serialises transactions across connections. */
async function startEmbeddedPostgres() {
  const db = await PGlite.create({ dataDir: `${DATA}/pglite`, extensions: { btree_gist } });
  const port = await freePort();
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections: 32 });
  await server.start();
  console.log(`Embedded PostgreSQL (PGlite) on 127.0.0.1:${port}, data in ${DATA}/pglite`);
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, stop: async () => { await server.stop(); await db.close(); } };
}

const embedded = env.DATABASE_URL ? undefined : await startEmbeddedPostgres();
if (embedded) env.DATABASE_URL = embedded.url;
env.WEBHOOKS_ALLOW_PRIVATE ??= 'true';

async function ensureDatabase(url) {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const server = new URL(url);
  server.pathname = '/postgres';
  const client = new pg.Client({ connectionString: server.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

// Asynchronous: the embedded database is served from this process and must keep answering.
const run = promisify(execFile);
const admin = async (...args) =>
  JSON.parse((await run(process.execPath, ['dist/apps/admin/src/main.js', ...args], { env, encoding: 'utf8' })).stdout);

if (!embedded) await ensureDatabase(env.DATABASE_URL);
await admin('migrate');

if (!existsSync(DEMO)) {
  let key;
  try {
    key = (await admin('fixtures', 'load', 'scripts/demo-fixture.json')).businesses.demo.keys.demo.key;
  } catch {
    // The demo business survives from an earlier .data/: give it a new key instead.
    key = (await admin('key', 'create', '--business', 'demo-salon', '--member', 'ana@demo-salon.example', '--name', 'Demo key',
      '--scopes', 'appointments.read,appointments.write,clients.read,clients.write,services.read,payments.read,sales.read')).key;
  }
  writeFileSync(DEMO, JSON.stringify({ key }, null, 2), { mode: 0o600 });
}
const { key } = JSON.parse(readFileSync(DEMO, 'utf8'));
const port = env.PORT ?? '3000';
console.log(`
Development mode (not for production). Demo business "demo-salon", demo key:

  ${key}

Try:
  curl -H "Authorization: Bearer ${key}" http://localhost:${port}/v1/api/me
  curl -H "Authorization: Bearer ${key}" http://localhost:${port}/v1/api/services
`);

const api = spawn(process.execPath, ['dist/apps/api/src/main.js'], { env, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => api.kill(signal));
api.on('exit', async (code) => {
  await embedded?.stop();
  process.exit(code ?? 0);
});
