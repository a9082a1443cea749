// `npm start`: run the API for trying and developing it, with as little setup as possible.
// Not for production (use `npm run migrate` and `npm run start:api` with real secrets there):
// missing secrets are generated once into .data/, the database is created and migrated, and a
// demo business with a key is created on first start.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/scheduling';
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

const admin = (...args) =>
  JSON.parse(execFileSync(process.execPath, ['dist/apps/admin/src/main.js', ...args], { env, encoding: 'utf8' }));

await ensureDatabase(env.DATABASE_URL);
admin('migrate');

if (!existsSync(DEMO)) {
  let key;
  try {
    key = admin('fixtures', 'load', 'scripts/demo-fixture.json').businesses.demo.keys.demo.key;
  } catch {
    // The demo business survives from an earlier .data/: give it a new key instead.
    key = admin('key', 'create', '--business', 'demo-salon', '--member', 'ana@demo-salon.example', '--name', 'Demo key',
      '--scopes', 'appointments.read,appointments.write,clients.read,clients.write,services.read,payments.read,sales.read').key;
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
api.on('exit', (code) => process.exit(code ?? 0));
