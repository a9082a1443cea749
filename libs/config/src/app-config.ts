import 'reflect-metadata';
import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  validateSync,
} from 'class-validator';

const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
const toBool = ({ value }: { value: unknown }): unknown => {
  if (value === undefined || value === '') return undefined;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return value;
};

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

  /** PostgreSQL connection URL. Secret (may carry a password). */
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/scheduling';

  /** Redis connection URL (rate limit, queues). Secret (may carry a password). */
  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL = 'redis://127.0.0.1:6379';

  /** Secret key of the HMAC that stores API keys. At least 32 characters. Secret. */
  @IsString()
  @MinLength(32, { message: 'API_KEY_PEPPER must be at least 32 characters' })
  API_KEY_PEPPER!: string;

  /** Secret key that authenticates list cursors. At least 32 characters. Secret. */
  @IsString()
  @MinLength(32, { message: 'CURSOR_SECRET must be at least 32 characters' })
  CURSOR_SECRET!: string;

  /** SMTP server for e-mails (smtp:// or smtps://); empty writes e-mails to MAIL_DIR. Secret. */
  @IsOptional()
  @Matches(/^smtps?:\/\/.+/, { message: 'SMTP_URL must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  /** Folder where e-mails are written when SMTP_URL is not set. */
  @IsString()
  MAIL_DIR = './.data/mail';

  /** Lets webhook addresses be http and resolve to private ranges: local use and tests only. */
  @Transform(toBool)
  @IsBoolean()
  WEBHOOKS_ALLOW_PRIVATE = false;

  /** How long a key lookup may be cached; revocations and plan changes apply within this. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1000)
  AUTH_CACHE_TTL_MS = 500;

  /** Prefix of every BullMQ key in Redis: lets several deployments (or test runs) share one Redis. */
  @Matches(/^[A-Za-z0-9_:-]{1,64}$/, { message: 'QUEUE_PREFIX must be 1 to 64 letters, digits, _ : or -' })
  QUEUE_PREFIX = 'bull';

  /** Minimum log level: fatal, error, warn, log, debug, verbose. */
  @IsIn(['fatal', 'error', 'warn', 'log', 'debug', 'verbose'])
  LOG_LEVEL = 'log';
}

/** Names of the variables whose values must never be logged. */
export const SECRET_SETTINGS: readonly (keyof AppConfig)[] = [
  'DATABASE_URL',
  'REDIS_URL',
  'API_KEY_PEPPER',
  'CURSOR_SECRET',
  'SMTP_URL',
];

export class ConfigError extends Error {}

/**
 * Parses and validates the environment. Throws a ConfigError naming every bad variable,
 * so a process stops at boot instead of failing on first use.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const known = Object.keys(new AppConfig());
  const relevant: Record<string, string> = {};
  for (const name of [...known, 'API_KEY_PEPPER', 'CURSOR_SECRET', 'SMTP_URL']) {
    const value = env[name];
    if (value !== undefined && value !== '') relevant[name] = value;
  }
  const config = plainToInstance(AppConfig, relevant);
  const errors = validateSync(config, { forbidUnknownValues: true });
  if (errors.length > 0) {
    const lines = errors.map((e) => {
      const messages = Object.values(e.constraints ?? {});
      return `  ${e.property}: ${messages.join('; ')}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return config;
}
