import 'reflect-metadata';
import { plainToInstance, Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsIP,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  validateSync,
} from 'class-validator';
import { parseDurationList } from './duration-list.js';
import { SECRETS_KEY_PATTERN, secretsKeyProblems } from './secrets-keys.js';

const toInt = ({ value }: { value: unknown }): unknown => (typeof value === 'string' && value.trim() !== '' ? Number(value) : value);
const toBool = ({ value }: { value: unknown }): unknown => {
  if (value === undefined || value === '') return undefined;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return value;
};
// `on`/`off` as an operator writes a switch; anything else stays a string, so that IsBoolean names the variable.
const toSwitch = ({ value }: { value: unknown }): unknown => (value === 'on' ? true : value === 'off' ? false : value);
// A malformed list is left as the string it was, so that IsArray names the variable.
const toDurationList = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' ? (parseDurationList(value) ?? value) : value;
// A malformed list is left as the string it was, so that IsArray names the variable.
const toPortList = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^\s*\d+(\s*,\s*\d+)*\s*$/.test(value) ? value.split(',').map((port) => Number(port.trim())) : value;
const toList = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== '')
    : value;
const PORTS_MESSAGE = 'WEBHOOK_PORTS must be a comma-separated list of 1 to 16 ports (1 to 65535), such as 443,8443';
const withoutTrailingSlash = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.replace(/\/+$/, '') : value);
const DAY_MS = 24 * 3_600_000;
/** Nest's level names, and pino's two that differ from them (info = log, trace = verbose): operators type either. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'log', 'info', 'debug', 'verbose', 'trace'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
const RETRY_SCHEDULE_MESSAGE =
  'WEBHOOK_RETRY_SCHEDULE must be a comma-separated list of 1 to 50 durations such as 5s,5m,2h (each at most 24h)';

/**
 * Every environment variable the service reads, validated once at boot.
 * This is the only code that reads process.env (see loadConfig).
 */
export class AppConfig {
  /** development, test or production. */
  @IsIn(['development', 'test', 'production'])
  NODE_ENV = 'development';

  /** HTTP port of the API. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  /**
   * Address the API listens on. Unset, every interface (IPv6 and IPv4), as a production container
   * behind its own network needs; `npm start` sets 127.0.0.1, since its development settings
   * (private webhook addresses, a demo key in a file) are for this machine only.
   */
  @IsOptional()
  @IsIP(undefined, { message: 'HOST must be an IP address, such as 127.0.0.1 or 0.0.0.0' })
  HOST: string | undefined = undefined;

  /**
   * How long a client may take to send a request's headers, and a whole request (headers and
   * body); past either the connection is closed with 408. Not how long the answer may take: a
   * request that has arrived is served however long that takes. A client that trickles its bytes
   * holds a connection no longer than this (docs/design-record.md#d25).
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(300_000)
  HTTP_HEADERS_TIMEOUT_MS = 10_000;

  /** See HTTP_HEADERS_TIMEOUT_MS; at least as long as it. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(300_000)
  HTTP_REQUEST_TIMEOUT_MS = 30_000;

  /**
   * Port of the Prometheus scrape endpoint (GET /metrics), apart from the API's so that it can stay
   * on the internal network; 0 takes any free port (the log says which).
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  METRICS_PORT = 9464;

  /**
   * Address the metrics server listens on: loopback unless an operator names the monitoring
   * network's interface (or 0.0.0.0 in a container whose port only the monitoring network reaches).
   */
  @IsIP(undefined, { message: 'METRICS_HOST must be an IP address, such as 127.0.0.1 or 0.0.0.0' })
  METRICS_HOST = '127.0.0.1';

  /** PostgreSQL connection URL. Secret (may carry a password). */
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/scheduling';

  /** Connections to PostgreSQL each process keeps at most (the API's and the worker's each). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  DATABASE_POOL_SIZE = 10;

  /**
   * Longest wait for a connection, when every one of the pool is in use or a new one is opening.
   * Past it a request answers 503 SERVICE_UNAVAILABLE with Retry-After rather than waiting on
   * (docs/error-codes.md, docs/design-record.md#d24).
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(60_000)
  DATABASE_CONNECT_TIMEOUT_MS = 5000;

  /** Redis connection URL (rate limit, queues). Not read with IN_PROCESS_JOBS. Secret (may carry a password). */
  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL = 'redis://127.0.0.1:6379';

  /**
   * REDIS_URL names a node of a Redis Cluster: the rate limits, the job queues and the delivery
   * slots then run on the cluster, with keys under the hash tag {QUEUE_PREFIX}.
   */
  @Transform(toBool)
  @IsBoolean()
  REDIS_CLUSTER = false;

  /**
   * Runs without Redis, for trying and developing the service on one machine (`npm start` sets it
   * when no REDIS_URL is given): the API process delivers notices and e-mails itself, with the
   * worker's relay, signing, retry schedule and mail code and no queue in between; the rate limit
   * is counted in that process's memory. Excludes REDIS_URL and NODE_ENV=production, and the
   * worker app refuses to start with it.
   */
  @Transform(toBool)
  @IsBoolean()
  IN_PROCESS_JOBS = false;

  /** Secret key of the HMAC that stores API keys. At least 32 characters. Secret. */
  @IsString()
  @MinLength(32, { message: 'API_KEY_PEPPER must be at least 32 characters' })
  API_KEY_PEPPER!: string;

  /** Secret key that authenticates list cursors. At least 32 characters. Secret. */
  @IsString()
  @MinLength(32, { message: 'CURSOR_SECRET must be at least 32 characters' })
  CURSOR_SECRET!: string;

  /**
   * Key-encryption keys of the webhook secrets stored in the database (AES-256-GCM): `<id>:<base64
   * of 32 bytes>`, e.g. `k1:` + `openssl rand -base64 32`. To rotate, put a new key first and keep
   * the old one after a comma until `admin secrets re-encrypt` has run. Secret.
   */
  @Matches(SECRETS_KEY_PATTERN, {
    message: 'SECRETS_KEY must be <id>:<base64 of 32 bytes>[,<id>:<base64 of 32 bytes>...], e.g. k1:$(openssl rand -base64 32)',
  })
  SECRETS_KEY!: string;

  /** SMTP server for e-mails (smtp:// or smtps://); empty writes e-mails to MAIL_DIR. Secret. */
  @IsOptional()
  @Matches(/^smtps?:\/\/.+/, { message: 'SMTP_URL must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  /** Folder where e-mails are written when SMTP_URL is not set. */
  @IsString()
  MAIL_DIR = './.data/mail';

  /**
   * Sender address of e-mails; the business's name is shown as the sender's name. Also the
   * calendar invitation's organizer when the business has no notification address.
   */
  @Matches(/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/, { message: 'MAIL_FROM must be an e-mail address' })
  MAIL_FROM = 'no-reply@scheduling.example';

  /**
   * Reverse proxies in front of the API whose X-Forwarded-Proto/-Host/-For are believed (a hop
   * count, Express's "trust proxy"). 0: none, the socket and the Host header are what counts.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(10)
  TRUSTED_PROXIES = 0;

  /**
   * The address partners reach the service at (https://api.example.com, or with the path a proxy
   * serves it under): the served documents name `<PUBLIC_BASE_URL>/v1/api` as their server. Unset,
   * they name the address each request reached (its Host, or X-Forwarded-* behind TRUSTED_PROXIES).
   * The console's sign-in links and redirects use it too; in production with the console on it
   * must be set, and https (docs/design-record.md#d29).
   */
  @Transform(withoutTrailingSlash)
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/?#@]+(\/[^\s?#]*)?$/, {
    message:
      'PUBLIC_BASE_URL must be an http:// or https:// address without credentials, query or fragment, such as https://api.example.com',
  })
  PUBLIC_BASE_URL: string | undefined = undefined;

  /**
   * The owner's console at /console (docs/design-record.md#d26): `on` (the default) or `off`. Off,
   * every /console path is the API's ordinary 404 and no sign-in link is sent; a deployment without
   * an https PUBLIC_BASE_URL runs so in production.
   */
  @Transform(toSwitch)
  @IsBoolean({ message: 'CONSOLE must be on or off' })
  CONSOLE = true;

  /** Lets webhook addresses be http and resolve to private ranges: local use and tests only. */
  @Transform(toBool)
  @IsBoolean()
  WEBHOOKS_ALLOW_PRIVATE = false;

  /**
   * The ports a webhook address may use (docs/design-record.md#d25): only web receivers' ports, so
   * that the service cannot be used to probe others. WEBHOOKS_ALLOW_PRIVATE lifts the rule.
   */
  @Transform(toPortList)
  @IsArray({ message: PORTS_MESSAGE })
  @ArrayMinSize(1, { message: PORTS_MESSAGE })
  @ArrayMaxSize(16, { message: PORTS_MESSAGE })
  @IsInt({ each: true, message: PORTS_MESSAGE })
  @Min(1, { each: true, message: PORTS_MESSAGE })
  @Max(65535, { each: true, message: PORTS_MESSAGE })
  WEBHOOK_PORTS: number[] = [443, 8443];

  /**
   * DNS servers that webhook addresses are resolved with (docs/design-record.md#d24), comma-separated
   * `address` or `address:port`; empty: the machine's (/etc/resolv.conf). /etc/hosts is never read
   * for them.
   */
  @Transform(toList)
  @IsArray()
  @Matches(/^(\[[0-9A-Fa-f:.]+\](:\d{1,5})?|[0-9A-Fa-f:.]+)$/, {
    each: true,
    message: 'WEBHOOK_DNS_SERVERS must be a comma-separated list of IP addresses, each optionally with :port ([v6]:port)',
  })
  WEBHOOK_DNS_SERVERS: string[] = [];

  /** How long a key lookup may be cached; revocations and plan changes apply within this. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1000)
  AUTH_CACHE_TTL_MS = 500;

  /**
   * Failed authentications one client address may make per rolling minute (missing, malformed,
   * unknown or revoked keys); beyond it the address gets 429 without its keys being looked up.
   * The address is the socket's, or X-Forwarded-For's behind TRUSTED_PROXIES.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  AUTH_FAILURE_LIMIT = 30;

  /** Prefix of every BullMQ key in Redis: lets several deployments (or test runs) share one Redis. */
  @Matches(/^[A-Za-z0-9_:-]{1,64}$/, { message: 'QUEUE_PREFIX must be 1 to 64 letters, digits, _ : or -' })
  QUEUE_PREFIX = 'bull';

  /**
   * Delays before each retry of a change notice that failed, after the immediate first attempt
   * (docs/design-record.md#d9): comma-separated durations (ms, s, m or h; each at most 24h). The default is the
   * Standard Webhooks schedule (then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h); the
   * sender adds ±20% jitter. Tests compress it.
   */
  @Transform(toDurationList)
  @IsArray({ message: RETRY_SCHEDULE_MESSAGE })
  @ArrayMinSize(1, { message: RETRY_SCHEDULE_MESSAGE })
  @ArrayMaxSize(50, { message: RETRY_SCHEDULE_MESSAGE })
  @IsInt({ each: true, message: RETRY_SCHEDULE_MESSAGE })
  @Min(0, { each: true, message: RETRY_SCHEDULE_MESSAGE })
  @Max(DAY_MS, { each: true, message: RETRY_SCHEDULE_MESSAGE })
  WEBHOOK_RETRY_SCHEDULE: number[] = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000];

  /** Longest wait of the notice relay between two looks at the outbox; a NOTIFY wakes it sooner. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(1000)
  NOTICE_RELAY_POLL_MS = 1000;

  /**
   * How often the worker re-queues due notice deliveries that have no job (Redis lost its data,
   * a crash between commit and enqueue, a replay); it also runs at start.
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  NOTICE_SWEEP_EVERY_MS = 30_000;

  /**
   * Deliveries to one endpoint in flight at once, across every worker: a receiver that is slow or
   * never answers holds at most this many of a worker's 20 delivery slots, so other businesses'
   * notices keep flowing. The rest of its deliveries wait their turn (docs/design-record.md#d17).
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(20)
  WEBHOOK_ENDPOINT_CONCURRENCY = 4;

  /**
   * Deliveries of one business in flight at once, its sandbox's included, across every worker and
   * whatever the number of its endpoints (docs/design-record.md#d24): a business whose receivers are
   * all slow holds at most this many of the workers' delivery slots. The rest of its deliveries
   * wait their turn, as those of a busy endpoint do.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(20)
  WEBHOOK_BUSINESS_CONCURRENCY = 8;

  /**
   * Bearer token that opens the queue dashboard at /admin/queues on the API (at least 32
   * characters); without it that route does not exist. Needs Redis (not with IN_PROCESS_JOBS). Secret.
   */
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'QUEUE_DASHBOARD_TOKEN must be at least 32 characters' })
  QUEUE_DASHBOARD_TOKEN?: string;

  /** Lets the queue dashboard act on jobs (retry, promote, pause, remove); without it the dashboard only shows. */
  @Transform(toBool)
  @IsBoolean()
  QUEUE_DASHBOARD_WRITE = false;

  /**
   * The registered extensions this deployment serves, by name, comma-separated (`waitlist`;
   * docs/extending.md); empty, the default: none, and the served contract is the published one.
   * Give every process of a deployment (API, worker, admin) the same list; a name no extension is
   * registered under refuses the start (extensions/index.ts checks it, the libs knowing none).
   */
  @Transform(toList)
  @IsArray()
  @Matches(/^[a-z][a-z0-9-]*$/, { each: true, message: 'EXTENSIONS must be a comma-separated list of extension names, such as waitlist' })
  EXTENSIONS: string[] = [];

  /** Minimum log level: fatal, error, warn, log, debug, verbose; pino's names info and trace are also taken. */
  @IsIn(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: LogLevel = 'log';
}

/** Names of the variables whose values must never be logged. */
export const SECRET_SETTINGS: readonly (keyof AppConfig)[] = [
  'DATABASE_URL',
  'REDIS_URL',
  'API_KEY_PEPPER',
  'CURSOR_SECRET',
  'SECRETS_KEY',
  'SMTP_URL',
  'QUEUE_DASHBOARD_TOKEN',
];

export class ConfigError extends Error {}

/** Settings without a default: absent from `new AppConfig()`, so named here for loadConfig. */
const OPTIONAL_SETTINGS = ['API_KEY_PEPPER', 'CURSOR_SECRET', 'SECRETS_KEY', 'SMTP_URL', 'QUEUE_DASHBOARD_TOKEN'] as const;

/**
 * Parses and validates the environment. Throws a ConfigError naming every bad variable,
 * so a process stops at boot instead of failing on first use.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  return parseConfig(env, () => []);
}

/**
 * loadConfig, with the rules of the process that serves HTTP: the API (and so the console) refuses
 * to start where a worker or the admin command line, which serve no page, may run.
 */
export function loadApiConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  return parseConfig(env, consoleAddressProblems);
}

function parseConfig(env: NodeJS.ProcessEnv, processProblems: (config: AppConfig) => string[]): AppConfig {
  const known = Object.keys(new AppConfig());
  const relevant: Record<string, string> = {};
  for (const name of [...known, ...OPTIONAL_SETTINGS]) {
    const value = env[name];
    if (value !== undefined && value !== '') relevant[name] = value;
  }
  const config = plainToInstance(AppConfig, relevant);
  const lines = validateSync(config, { forbidUnknownValues: true }).map((e) => {
    const messages = Object.values(e.constraints ?? {});
    return `  ${e.property}: ${messages.join('; ')}`;
  });
  lines.push(...inProcessConflicts(config, relevant), ...developmentOnlyConflicts(config, relevant), ...httpTimeoutConflicts(config));
  lines.push(...processProblems(config));
  lines.push(...secretsKeyProblems(config.SECRETS_KEY));
  if (lines.length > 0) throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  return config;
}

/**
 * EXTENSIONS alone, checked as loadConfig checks it: the admin command line lists the enabled
 * extensions' commands before it knows whether the command asked for needs any other setting
 * (`--help` and usage errors need none).
 */
export function loadExtensionsSetting(env: NodeJS.ProcessEnv = process.env): string[] {
  const config = plainToInstance(AppConfig, env.EXTENSIONS ? { EXTENSIONS: env.EXTENSIONS } : {});
  const problems = validateSync(config)
    .filter((e) => e.property === 'EXTENSIONS')
    .flatMap((e) => Object.values(e.constraints ?? {}));
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  EXTENSIONS: ${problems.join('; ')}`);
  return config.EXTENSIONS;
}

/**
 * Settings that are safe on a developer's machine and a hole in production: accepted only where
 * NODE_ENV says so explicitly (docs/design-record.md#d25). NODE_ENV's default is development, and a
 * production host that forgot to set it must not be taken for one.
 */
function developmentOnlyConflicts(config: AppConfig, given: Record<string, string>): string[] {
  const lines: string[] = [];
  const saysDevelopment = given.NODE_ENV === 'development' || given.NODE_ENV === 'test';
  if (config.WEBHOOKS_ALLOW_PRIVATE && !saysDevelopment)
    lines.push(
      '  WEBHOOKS_ALLOW_PRIVATE: lets notices reach private addresses (the host, its cloud metadata service), so it is accepted only with NODE_ENV=development or NODE_ENV=test set explicitly',
    );
  return lines;
}

/**
 * The console signs in by links it mails and keeps a session in a cookie: in production both need
 * the address people reach it at, over https (a link to the wrong host, or a session cookie sent in
 * clear, is a hole), so the API does not start without one unless the console is off
 * (docs/design-record.md#d29).
 */
function consoleAddressProblems(config: AppConfig): string[] {
  if (!config.CONSOLE || config.NODE_ENV !== 'production') return [];
  if (config.PUBLIC_BASE_URL?.startsWith('https://')) return [];
  const found = config.PUBLIC_BASE_URL === undefined ? 'it is not set' : `it is ${config.PUBLIC_BASE_URL}`;
  return [
    `  PUBLIC_BASE_URL: the console's sign-in links and session cookies need the https address people reach the API at, such as https://api.example.com (${found}); set it, or set CONSOLE=off to run without the console`,
  ];
}

/** Node refuses a headers timeout longer than the whole request's. */
function httpTimeoutConflicts(config: AppConfig): string[] {
  if (config.HTTP_HEADERS_TIMEOUT_MS <= config.HTTP_REQUEST_TIMEOUT_MS) return [];
  return ['  HTTP_HEADERS_TIMEOUT_MS: must not be longer than HTTP_REQUEST_TIMEOUT_MS (the headers are part of the request)'];
}

/**
 * IN_PROCESS_JOBS means "no Redis at all". A REDIS_URL next to it would look used and is not, a
 * production process would limit each instance on its own (docs/design-record.md#d11 wants one shared count), and the
 * dashboard shows queues that do not exist: each is refused rather than silently ignored.
 */
function inProcessConflicts(config: AppConfig, given: Record<string, string>): string[] {
  if (config.IN_PROCESS_JOBS !== true) return [];
  const lines: string[] = [];
  if (given.REDIS_URL !== undefined) lines.push('  IN_PROCESS_JOBS: runs without Redis, so REDIS_URL must not be set with it');
  if (config.NODE_ENV === 'production')
    lines.push('  IN_PROCESS_JOBS: is for trying and developing the service, not for NODE_ENV=production (set REDIS_URL)');
  if (config.QUEUE_DASHBOARD_TOKEN !== undefined)
    lines.push('  QUEUE_DASHBOARD_TOKEN: the queue dashboard needs Redis, and IN_PROCESS_JOBS runs without it');
  return lines;
}
