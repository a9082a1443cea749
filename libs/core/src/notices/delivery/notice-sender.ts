import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { request } from 'undici';
import { AppConfig } from '#config/app-config.js';
import { CURRENT_API_VERSION } from '#contract/versions/api-versions.js';
import { refuseInsideTransaction } from '#database/database.js';
import { resolveDeliveryTarget, withoutResolvedAddress } from '../endpoints/delivery-target.js';
import { PinnedDispatchers } from '../endpoints/pinned-dispatchers.js';
import { parseRetryAfter } from './retry-after.js';
import { responseExcerpt, RESPONSE_EXCERPT_BYTES } from './response-excerpt.js';
import { HTTP_REDIRECT, HTTP_STATUS, NOT_SENT, failureClassOf, failureCodeOf, type SendFailure } from './send-failure.js';
import { WebhookResolver } from '../endpoints/webhook-resolver.js';
/** The sender's time and size limits; a token so that tests can shorten them. */
export const NOTICE_SEND_LIMITS = Symbol('NOTICE_SEND_LIMITS');

export interface NoticeSendLimits {
  connectTimeoutMs: number;
  /** Resolving, connecting, sending and reading the answer, together. */
  totalTimeoutMs: number;
  /** How much of the answer is read; the rest is dropped with the connection. */
  maxResponseBytes: number;
}

/** docs/design-record.md#d9: 5 s to connect, 15 s in all, at most 64 KiB of the response read. */
export const NOTICE_SEND_LIMITS_D9: NoticeSendLimits = {
  connectTimeoutMs: 5_000,
  totalTimeoutMs: 15_000,
  maxResponseBytes: 64 * 1024,
};

export interface OutgoingNotice {
  /** The live business's id (a sandbox's notices count as its live business's): whose share of name resolution it takes. */
  tenantId: string;
  url: string;
  /** The notice id: webhook-id. */
  id: string;
  /** Unix seconds of this attempt: webhook-timestamp. */
  timestamp: number;
  body: string;
  /** The webhook-signature value, also sent as x-service-signature. */
  signature: string;
}

export interface SendResult {
  /** The receiver answered 2xx. */
  delivered: boolean;
  /** Null when no answer came (refused address, time-out, connection error). */
  statusCode: number | null;
  durationMs: number;
  /** Why it was not delivered, for the business's delivery log; null when it was. */
  error: string | null;
  /** What kind of failure it was, without a word of the receiver's (a test ping's answer); null when delivered. */
  failure: SendFailure | null;
  /** What a Retry-After on a 429 or 503 asked for; null otherwise. */
  retryAfterMs: number | null;
  /** The failure's code for the delivery log (attemptErrorText words it); null when delivered. */
  failureCode: string | null;
  /** The request's headers as sent, in order; null when nothing was sent (the address refused). */
  requestHeaders: [string, string][] | null;
  /** The first 1 KB of the answer's body as text; null when no answer or an empty one. */
  responseExcerpt: string | null;
}

/** The sender names the service's current version, whatever version a notice is shaped for. */
const USER_AGENT = `business-scheduling-notices/${CURRENT_API_VERSION}`;
/** How much of a failed answer is kept in the attempt's error, for whoever investigates it. */
const ERROR_EXCERPT_CHARS = 200;

/** Reads at most `limit` bytes of a body; stopping early destroys the stream (and the connection). */
async function readAtMost(body: AsyncIterable<Buffer>, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) break;
  }
  return Buffer.concat(chunks).subarray(0, limit);
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${code ?? error.name}: ${error.message}${cause}`.slice(0, 500);
}

function excerpt(body: Buffer): string {
  const text = body.toString('utf8', 0, Math.min(body.length, ERROR_EXCERPT_CHARS * 4));
  // Control characters and newlines from a stranger's answer have no place in a log or a report.
  const cleaned = text.replace(/\p{Cc}+/gu, ' ').trim();
  return cleaned.slice(0, ERROR_EXCERPT_CHARS);
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * POSTs one signed notice (docs/design-record.md#d9). Refuses to run inside a transaction
 * (docs/design-record.md#d24). The address is checked and resolved first, before any connection
 * (https only, public addresses and WEBHOOK_PORTS only, unless WEBHOOKS_ALLOW_PRIVATE), and the connection goes
 * to the checked address with the name kept for SNI and Host. Redirects are never followed: a 3xx
 * is a failed attempt like any other non-2xx. Never throws: every outcome is a SendResult.
 */
@Injectable()
export class NoticeSender implements OnApplicationShutdown {
  private readonly dispatchers: PinnedDispatchers;

  constructor(
    private readonly config: AppConfig,
    private readonly resolver: WebhookResolver,
    @Inject(NOTICE_SEND_LIMITS) private readonly limits: NoticeSendLimits,
  ) {
    this.dispatchers = new PinnedDispatchers(limits.connectTimeoutMs);
  }

  /** After the worker's drain: no attempt is under way any more, only idle connections are left. */
  async onApplicationShutdown(): Promise<void> {
    await this.dispatchers.close();
  }

  async send(notice: OutgoingNotice): Promise<SendResult> {
    refuseInsideTransaction('Sending a notice');
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let requestHeaders: [string, string][] | null = null;
    let answer: string | null = null;
    const failed = (
      statusCode: number | null,
      error: string,
      failure: SendFailure,
      failureCode: string,
      retryAfterMs: number | null = null,
    ): SendResult => ({
      delivered: false,
      statusCode,
      durationMs: elapsed(),
      error,
      failure,
      retryAfterMs,
      failureCode,
      requestHeaders,
      responseExcerpt: answer,
    });

    const target = await resolveDeliveryTarget(notice.url, {
      allowPrivate: this.config.WEBHOOKS_ALLOW_PRIVATE,
      ports: this.config.WEBHOOK_PORTS,
      resolve: (hostname) => this.resolver.resolve(notice.tenantId, hostname, this.limits.connectTimeoutMs),
    });
    if (!target.ok) {
      const unresolved = target.unresolved === true;
      return failed(
        null,
        `not sent: ${target.reason}`,
        unresolved ? 'dns' : 'refused',
        unresolved ? NOT_SENT.hostNotFound : NOT_SENT.addressRefused,
      );
    }

    const remaining = Math.max(1, this.limits.totalTimeoutMs - elapsed());
    // Kept as sent, in order, for the delivery log (docs/design-record.md#d29).
    requestHeaders = [
      ['content-type', 'application/json'],
      ['user-agent', USER_AGENT],
      ['webhook-id', notice.id],
      ['webhook-timestamp', String(notice.timestamp)],
      ['webhook-signature', notice.signature],
      ['x-service-signature', notice.signature],
    ];
    try {
      const response = await request(target.url, {
        method: 'POST',
        dispatcher: this.dispatchers.for(target.address),
        signal: AbortSignal.timeout(remaining),
        headersTimeout: remaining,
        bodyTimeout: remaining,
        headers: requestHeaders.flat(),
        body: notice.body,
      });
      const { statusCode } = response;
      let body: Buffer = Buffer.alloc(0);
      try {
        // No more than the log keeps is read; a slow body is cut by the same signal as the rest.
        body = await readAtMost(response.body, Math.min(this.limits.maxResponseBytes, RESPONSE_EXCERPT_BYTES));
      } catch {
        // The status line decides the outcome; an answer cut short changes nothing.
      }
      answer = responseExcerpt(body);
      if (statusCode >= 200 && statusCode <= 299) {
        return {
          delivered: true,
          statusCode,
          durationMs: elapsed(),
          error: null,
          failure: null,
          retryAfterMs: null,
          failureCode: null,
          requestHeaders,
          responseExcerpt: answer,
        };
      }
      if (statusCode >= 300 && statusCode <= 399) {
        const location = header(response.headers.location) ?? '(none)';
        return failed(statusCode, `HTTP ${statusCode}: redirect not followed (Location: ${location.slice(0, 200)})`, 'http', HTTP_REDIRECT);
      }
      const retryAfterMs =
        statusCode === 429 || statusCode === 503 ? parseRetryAfter(header(response.headers['retry-after']), new Date()) : null;
      const said = excerpt(body);
      return failed(statusCode, `HTTP ${statusCode}${said === '' ? '' : `: ${said}`}`, 'http', HTTP_STATUS, retryAfterMs);
    } catch (error) {
      return failed(null, withoutResolvedAddress(describeError(error), target), failureClassOf(error), failureCodeOf(error));
    }
  }
}
