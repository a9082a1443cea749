// `npm start`: run the service for trying and developing it, with as little setup as possible.
// Not for production (use `npm run migrate`, `npm run start:api` and `npm run start:worker` with
// real secrets there): missing secrets are generated once into .data/; without DATABASE_URL an
// embedded PostgreSQL (PGlite, data in .data/pglite) is served on a local socket so the service
// keeps its plain pg driver; the database is migrated, and a demo business with a key and a test key
// (rk_test_, on its sandbox: docs/design-record.md#d19) is created on first start. Without REDIS_URL only the API runs, with IN_PROCESS_JOBS=true (it delivers
// notices and e-mails itself); with REDIS_URL the API and the worker run, as in production.
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { startEmbeddedPostgres } from './embedded-postgres.ts';

// DEV_DATA_DIR lets a second checkout or a test keep its own secrets, embedded database and demo keys.
const DATA = process.env.DEV_DATA_DIR || '.data';
const SECRETS = `${DATA}/dev-secrets.json`;
const DEMO = `${DATA}/demo-key.json`;
mkdirSync(DATA, { recursive: true, mode: 0o700 });

function devSecrets() {
  const kept = existsSync(SECRETS) ? JSON.parse(readFileSync(SECRETS, 'utf8')) : {};
  // A secret added by a later version is generated into an existing file; the others are kept.
  const secrets = {
    API_KEY_PEPPER: randomBytes(32).toString('base64url'),
    CURSOR_SECRET: randomBytes(32).toString('base64url'),
    SECRETS_KEY: `dev1:${randomBytes(32).toString('base64')}`,
    ...kept,
  };
  if (Object.keys(secrets).length !== Object.keys(kept).length) writeFileSync(SECRETS, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

const env = { ...process.env };
for (const [name, value] of Object.entries(devSecrets())) env[name] ??= value;

async function startEmbedded() {
  const embedded = await startEmbeddedPostgres(`${DATA}/pglite`);
  console.log(`Embedded PostgreSQL (PGlite) on ${new URL(embedded.url).host}, data in ${DATA}/pglite`);
  return embedded;
}

const embedded = env.DATABASE_URL ? undefined : await startEmbedded();
if (embedded) env.DATABASE_URL = embedded.url;
// A development setup, said explicitly: the service takes WEBHOOKS_ALLOW_PRIVATE only then.
env.NODE_ENV ??= 'development';
env.WEBHOOKS_ALLOW_PRIVATE ??= 'true';
// Those settings (private webhook addresses, a demo key kept in a file) are for this machine only:
// the API listens on loopback unless HOST names another address (HOST=0.0.0.0 for every interface).
env.HOST ||= '127.0.0.1';
// Without Redis there is no worker: the API runs the same jobs on in-memory queues itself.
const inProcess = !env.REDIS_URL;
if (inProcess) env.IN_PROCESS_JOBS = 'true';
const port = env.PORT ?? '3000';
// One address for everything printed and linked (docs/design-record.md#d29): the one the API
// listens on (loopback when it listens on every interface), unless PUBLIC_BASE_URL names another.
// The API's sign-in links and the admin command's use it too, so a session cookie set by one is
// sent to all the others (127.0.0.1 and localhost are different hosts to a browser).
const host = ['0.0.0.0', '::'].includes(env.HOST) ? '127.0.0.1' : env.HOST.includes(':') ? `[${env.HOST}]` : env.HOST;
env.PUBLIC_BASE_URL ||= `http://${host}:${port}`;
const base = env.PUBLIC_BASE_URL.replace(/\/+$/, '');
// No extension is enabled for the demo, as in any deployment: `EXTENSIONS=waitlist npm start`
// serves the worked example of docs/extending.md too.
// What `npm run admin` needs to reach this database (`set -a; . .data/dev.env; set +a`), with the
// same extensions enabled.
const DEV_ENV = `${DATA}/dev.env`;
writeFileSync(
  DEV_ENV,
  [
    'NODE_ENV',
    'DATABASE_URL',
    'API_KEY_PEPPER',
    'CURSOR_SECRET',
    'SECRETS_KEY',
    'WEBHOOKS_ALLOW_PRIVATE',
    'IN_PROCESS_JOBS',
    'REDIS_URL',
    'EXTENSIONS',
    // The admin command's sign-in links name the running API's address and port.
    'PORT',
    'PUBLIC_BASE_URL',
  ]
    .filter((name) => env[name])
    .map((name) => `${name}='${env[name].replaceAll("'", "'\\''")}'\n`)
    .join(''),
  { mode: 0o600 },
);

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

// The demo key belongs to one database: the embedded one, or the server of DATABASE_URL.
const database = embedded ? 'embedded' : redactPassword(env.DATABASE_URL);
function redactPassword(url) {
  const parsed = new URL(url);
  parsed.password = '';
  return parsed.toString();
}
const saved = existsSync(DEMO) ? JSON.parse(readFileSync(DEMO, 'utf8')) : null;
const sameDatabase = saved && (saved.database ?? 'embedded') === database;
let key = sameDatabase ? saved.key : null;
let testKey = sameDatabase ? (saved.testKey ?? null) : null;
const DEMO_SCOPES = 'appointments.read,appointments.write,clients.read,clients.write,services.read,payments.read,sales.read';
// Another key of the demo business's owner (live, or with --test on its sandbox).
const demoKey = async (...extra) =>
  (
    await admin(
      'key',
      'create',
      '--business',
      'demo-salon',
      '--member',
      'ana@demo-salon.example',
      '--name',
      extra.length > 0 ? 'Demo test key' : 'Demo key',
      '--scopes',
      DEMO_SCOPES,
      ...extra,
    )
  ).key;
if (!key) {
  try {
    const { keys } = (await admin('fixtures', 'load', 'scripts/demo-fixture.json')).businesses.demo;
    key = keys.demo.key;
    testKey = keys.demoTest.key;
  } catch {
    // The demo business exists already in this database: give it a new key instead.
    key = await demoKey();
  }
}
// A demo saved before test mode, or a new key for an existing business: a test key too.
testKey ??= await demoKey('--test');
writeFileSync(DEMO, JSON.stringify({ key, testKey, database }, null, 2), { mode: 0o600 });
// A one-time link (15 minutes) that signs the demo owner in to the console: a new one at each start.
const { url: consoleLink } = await admin('member', 'sign-in-link', '--business', 'demo-salon', '--email', 'ana@demo-salon.example');
// The banner is the last thing printed at start (each process says it is ready, over IPC, once its
// own start lines are out), so the key is on screen, not scrolled away by them.
const banner = () =>
  console.log(`
Development mode (not for production), listening on ${env.HOST === '127.0.0.1' ? 'this machine only (HOST=127.0.0.1)' : `HOST=${env.HOST}`}. Demo business "demo-salon", demo key:

  ${key}

and a test key, which reads and changes only the demo business's sandbox (a copy of its catalogue;
its e-mails are kept in the mail folder, never sent; \`npm run admin -- sandbox reset --business demo-salon\`
starts it afresh):

  ${testKey}

Try:
  curl -H "Authorization: Bearer ${key}" ${base}/v1/api/me
  curl -H "Authorization: Bearer ${key}" ${base}/v1/api/services
  curl -H "Authorization: Bearer ${key}" ${base}/v1/api/staff
  curl -H "Authorization: Bearer ${key}" "${base}/v1/api/availability?serviceId=<a service id>&from=<date-time>&to=<date-time>"
  curl -H "Authorization: Bearer ${key}" ${base}/v1/api/webhook-endpoints
  curl -H "Authorization: Bearer ${key}" ${base}/v1/api/events
  curl -H "Authorization: Bearer ${testKey}" ${base}/v1/api/me
  open ${base}/docs

The owner's console (API keys, webhooks, test mode, audit) at ${base}/console, signed in as the
demo owner by this one-time link (15 minutes; \`npm run admin -- member sign-in-link --business
demo-salon --email ana@demo-salon.example\` prints another, with the settings below):

  ${consoleLink}
${
  inProcess
    ? `
No REDIS_URL: the API delivers notices and e-mails itself (e-mails go to ${env.SMTP_URL ? 'SMTP_URL' : (env.MAIL_DIR ?? '.data/mail')}).`
    : `
REDIS_URL is set: the API and the worker run as in production.`
}
The keys are kept in ${DEMO} and printed again at each start.
Admin commands against this database: set -a; . ${DEV_ENV}; set +a; npm run admin -- <command>
Ctrl-C stops (the processes finish what they are doing first; press it again to stop at once).
`);

const processes = [['api', 'dist/apps/api/src/main.js'], ...(inProcess ? [] : [['worker', 'dist/apps/worker/src/main.js']])].map(
  ([name, script]) => ({ name, child: spawn(process.execPath, [script], { env, stdio: ['inherit', 'inherit', 'inherit', 'ipc'] }) }),
);
// The banner once every process is ready; none if one stops first (its exit is reported below).
const ready = processes.map(
  ({ child }) =>
    new Promise((resolve) => {
      child.on('message', (message) => message === 'ready' && resolve(true));
      child.once('exit', () => resolve(false));
    }),
);
void Promise.all(ready).then((all) => {
  if (all.every(Boolean) && !stopping) banner();
});

let stopping = false;
let stoppingSince = 0;
let exitCode = 0;
function stopAll(signal) {
  for (const { child } of processes) if (child.exitCode === null && child.signalCode === null) child.kill(signal);
}
// The first signal asks every process to drain (Ctrl-C reaches them from the terminal as well;
// they ignore a repeat while draining); a second one, a moment later, stops them at once. One
// Ctrl-C can arrive more than once (from the terminal and through npm), hence the moment.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (!stopping) {
      stopping = true;
      stoppingSince = Date.now();
      console.log('Stopping: letting the requests and deliveries under way finish…');
      stopAll('SIGTERM');
    } else if (Date.now() - stoppingSince > 1000) {
      console.log('Stopping at once.');
      stopAll('SIGKILL');
    }
  });
}
// One process ending on its own (a crash, a bad setting) ends the others: half a service is no use.
const exits = processes.map(
  ({ name, child }) =>
    new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        if (!stopping) {
          console.error(`The ${name} process stopped (${signal ?? `exit code ${code}`}); stopping the others.`);
          stopping = true;
          stopAll('SIGTERM');
        }
        if (code !== 0) exitCode = 1;
        resolve();
      }),
    ),
);
await Promise.all(exits);
await embedded?.stop();
console.log(exitCode === 0 ? 'Stopped.' : 'Stopped, after a failure.');
process.exit(exitCode);
