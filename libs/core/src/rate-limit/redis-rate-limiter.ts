import { createHash, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { RedisConnection } from '../redis/redis-connection.js';
import { InMemoryRateLimiter } from './in-memory-rate-limiter.js';
import { assertValidPolicy, toDecision } from './rate-limit-decision.js';
import type { Clock, RateLimitDecision, RateLimitLogger, RateLimitPolicy } from './rate-limit.types.js';
import { SLIDING_WINDOW_LUA, SLIDING_WINDOW_PEEK_LUA } from './sliding-window.lua.js';

export interface RedisRateLimiterOptions {
  /** A rate-limit check must not hold a request hostage to a slow Redis. */
  timeoutMs?: number;
  /** After a failure, skip Redis for this long so a hung server costs one timeout per period, not one per request. */
  failureCooldownMs?: number;
  /** Minimum gap between two "Redis unavailable" log lines, so an outage cannot flood the log. */
  errorLogIntervalMs?: number;
  /** Milliseconds, monotonic; shared with the in-memory fallback. */
  clock?: Clock;
  /** Bounds the fallback's memory, see InMemoryRateLimiter. */
  maxFallbackSubjects?: number;
}

interface Script {
  lua: string;
  sha: string;
}

const script = (lua: string): Script => ({ lua, sha: createHash('sha1').update(lua).digest('hex') });
const CONSUME = script(SLIDING_WINDOW_LUA);
const PEEK = script(SLIDING_WINDOW_PEEK_LUA);

type ScriptReply = [allowed: number, remaining: number, resetMs: number];

/**
 * docs/design-record.md#d11 rate limit shared by all API instances: one atomic Lua script per request on Redis's clock.
 * When Redis fails or is slow, this instance limits on its own (InMemoryRateLimiter) and logs an
 * error; `consume` never throws and never refuses a request because Redis is down.
 *
 * The client must fail fast rather than queue while disconnected, otherwise commands pile up in
 * memory for the whole outage and only the timeout protects the request. Construct it with:
 *   new Redis({ host, port, enableOfflineQueue: false, maxRetriesPerRequest: 1 })
 * and attach an 'error' listener (ioredis prints unhandled connection errors to stderr).
 *
 * `subject` becomes part of a Redis key: pass an identifier such as an API key's id, not a secret.
 */
export class RedisRateLimiter {
  private readonly fallback: InMemoryRateLimiter;
  private readonly windowMs: number;
  private readonly timeoutMs: number;
  private readonly failureCooldownMs: number;
  private readonly errorLogIntervalMs: number;
  private readonly clock: Clock;
  /** Members must be unique across instances and calls, or two requests would count as one. */
  private readonly memberPrefix = randomUUID();
  private sequence = 0;
  private redisRetryAt = Number.NEGATIVE_INFINITY;
  private lastErrorLoggedAt = Number.NEGATIVE_INFINITY;
  private unloggedFailures = 0;

  constructor(
    private readonly redis: RedisConnection,
    private readonly policy: RateLimitPolicy,
    private readonly logger: RateLimitLogger,
    private readonly keyPrefix = 'rl:',
    options: RedisRateLimiterOptions = {},
  ) {
    assertValidPolicy(policy);
    this.windowMs = policy.windowSeconds * 1000;
    this.timeoutMs = options.timeoutMs ?? 250;
    this.failureCooldownMs = options.failureCooldownMs ?? 1000;
    this.errorLogIntervalMs = options.errorLogIntervalMs ?? 10_000;
    this.clock = options.clock ?? (() => performance.now());
    this.fallback = new InMemoryRateLimiter(policy, { clock: this.clock, maxSubjects: options.maxFallbackSubjects });
  }

  async consume(subject: string): Promise<RateLimitDecision> {
    const reply = await this.tryScript(CONSUME, subject);
    if (!reply) return this.fallback.consume(subject);
    const [allowed, remaining, resetMs] = reply;
    // The fallback shadows this instance's admissions: should Redis fail mid-window, it
    // carries on from them instead of granting the key a whole new window's worth.
    if (allowed === 1) this.fallback.recordAdmission(subject);
    return toDecision(this.policy, allowed === 1, remaining, resetMs);
  }

  /** Whether `consume` would admit now, recording nothing. */
  async peek(subject: string): Promise<RateLimitDecision> {
    const reply = await this.tryScript(PEEK, subject);
    if (!reply) return this.fallback.peek(subject);
    const [allowed, remaining, resetMs] = reply;
    return toDecision(this.policy, allowed === 1, remaining, resetMs);
  }

  /** The script's reply, or null when Redis failed or is cooling down (the caller then asks the fallback). */
  private async tryScript(script: Script, subject: string): Promise<ScriptReply | null> {
    if (this.clock() < this.redisRetryAt) return null;
    try {
      return await this.runScript(script, subject);
    } catch (error) {
      this.redisRetryAt = this.clock() + this.failureCooldownMs;
      this.reportFailure(error);
      return null;
    }
  }

  private async runScript(script: Script, subject: string): Promise<ScriptReply> {
    let timer: NodeJS.Timeout | undefined;
    // The timer fires in the event loop's timers phase, before the poll phase reads sockets: on a
    // loop busy for longer than the timeout (a flood of requests), a reply already received would
    // lose to it. setImmediate runs after the poll phase, so such a reply is read first.
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => setImmediate(() => reject(new Error(`no reply within ${this.timeoutMs} ms`))), this.timeoutMs);
    });
    try {
      // A reply arriving after the timeout still recorded its admission in Redis; that only
      // makes the shared count stricter, never more lenient.
      return parseReply(await Promise.race([this.evalScript(script, subject), timeout]));
    } finally {
      clearTimeout(timer);
    }
  }

  /** EVALSHA keeps the script off the wire; EVAL is only needed after a restart or SCRIPT FLUSH. */
  private async evalScript(script: Script, subject: string): Promise<unknown> {
    const key = `${this.keyPrefix}${subject}`;
    const member = `${this.memberPrefix}:${++this.sequence}`;
    try {
      return await this.redis.evalsha(script.sha, 1, key, this.policy.limit, this.windowMs, member);
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) {
        throw error;
      }
      return this.redis.eval(script.lua, 1, key, this.policy.limit, this.windowMs, member);
    }
  }

  private reportFailure(error: unknown): void {
    this.unloggedFailures++;
    const now = this.clock();
    if (now - this.lastErrorLoggedAt < this.errorLogIntervalMs) {
      return;
    }
    const reason = error instanceof Error ? error.message : String(error);
    this.logger.error(
      `Rate limiter: Redis unavailable (${reason}); limiting per instance in memory ` +
        `(${this.unloggedFailures} failure(s) since last report)`,
      error instanceof Error ? error.stack : undefined,
    );
    this.lastErrorLoggedAt = now;
    this.unloggedFailures = 0;
  }
}

function parseReply(reply: unknown): ScriptReply {
  if (Array.isArray(reply) && reply.length === 3 && reply.every((value: unknown) => Number.isInteger(value))) {
    return reply as ScriptReply;
  }
  throw new Error(`unexpected rate-limit script reply ${JSON.stringify(reply)}`);
}
