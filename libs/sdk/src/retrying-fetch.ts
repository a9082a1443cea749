import type { AccessTokenSource } from './oauth-token-source.js';
import { isReplaySafe, parseRetryAfter, retryDelay, type AttemptOutcome, type RetryPolicy } from './retry-policy.js';
import type { Sleep } from './sleep.js';

/**
 * What each attempt sends as `Authorization: Bearer`: an API key (a source without `invalidate`),
 * or an OAuth token source, which may be asked for a new token once per call after a 401.
 */
export type BearerCredential = Pick<AccessTokenSource, 'getAccessToken'> & Partial<Pick<AccessTokenSource, 'invalidate'>>;

export interface RetryingFetchOptions {
  fetch: (request: Request) => Promise<Response>;
  credential: BearerCredential;
  policy: RetryPolicy;
  sleep: Sleep;
  random: () => number;
  now: () => number;
  /** Told of every wait before a retry (its length and why), e.g. for logs. */
  onRetry?: (wait: { attempt: number; delayMs: number; outcome: AttemptOutcome; request: Request }) => void;
}

/**
 * A fetch that retries as retry-policy.ts says. The request is sent again exactly as first built,
 * headers included, so a write's Idempotency-Key is the same on every attempt of one call. The
 * caller's AbortSignal (the request's) stops both an attempt and a wait.
 *
 * Each attempt carries the credential's current token (an OAuth token may have been refreshed
 * during a wait). A 401 with a credential that can be invalidated is answered once per call: the
 * token is invalidated and the request sent again at once with the next one, outside the retry
 * count (the API acted on nothing). A second 401 is the call's answer.
 */
export function retryingFetch(options: RetryingFetchOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    const replaySafe = isReplaySafe(request.method, request.headers.has('idempotency-key'));
    // The body is read once, so that each attempt sends the same bytes.
    const body = request.body === null ? undefined : await request.arrayBuffer();
    let reauthorized = false;
    for (let retries = 0; ;) {
      request.signal.throwIfAborted();
      const token = await untilAborted(options.credential.getAccessToken(), request.signal);
      const headers = new Headers(request.headers);
      headers.set('Authorization', `Bearer ${token}`);
      const attempt = new Request(request.url, { method: request.method, headers, body, signal: request.signal });
      let outcome: AttemptOutcome;
      let response: Response | undefined;
      let failure: unknown;
      try {
        response = await options.fetch(attempt);
        outcome = {
          kind: 'response',
          status: response.status,
          retryAfterMs: parseRetryAfter(response.headers.get('retry-after'), options.now()),
        };
      } catch (error) {
        if (request.signal.aborted) throw error;
        failure = error;
        outcome = { kind: 'network-error' };
      }
      if (response?.status === 401 && !reauthorized && options.credential.invalidate !== undefined) {
        reauthorized = true;
        options.credential.invalidate(token);
        await response.body?.cancel().catch(() => undefined);
        continue;
      }
      const delayMs = retryDelay(retries, outcome, replaySafe, options.policy, options.random);
      if (delayMs === null) {
        if (response !== undefined) return response;
        throw failure;
      }
      // The answer is dropped: release its connection before waiting.
      await response?.body?.cancel().catch(() => undefined);
      retries += 1;
      options.onRetry?.({ attempt: retries, delayMs, outcome, request });
      await options.sleep(delayMs, request.signal);
    }
  };
}

/** The token, unless the caller aborts first: a refresh other calls share goes on without this one. */
function untilAborted<T>(value: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    void value.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
