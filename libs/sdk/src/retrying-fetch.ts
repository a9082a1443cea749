import { isReplaySafe, parseRetryAfter, retryDelay, type AttemptOutcome, type RetryPolicy } from './retry-policy.js';
import type { Sleep } from './sleep.js';

export interface RetryingFetchOptions {
  fetch: (request: Request) => Promise<Response>;
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
 */
export function retryingFetch(options: RetryingFetchOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    const replaySafe = isReplaySafe(request.method, request.headers.has('idempotency-key'));
    // The body is read once, so that each attempt sends the same bytes.
    const body = request.body === null ? undefined : await request.arrayBuffer();
    for (let retries = 0; ; retries += 1) {
      request.signal.throwIfAborted();
      const attempt = new Request(request.url, { method: request.method, headers: request.headers, body, signal: request.signal });
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
      const delayMs = retryDelay(retries, outcome, replaySafe, options.policy, options.random);
      if (delayMs === null) {
        if (response !== undefined) return response;
        throw failure;
      }
      // The answer is dropped: release its connection before waiting.
      await response?.body?.cancel().catch(() => undefined);
      options.onRetry?.({ attempt: retries + 1, delayMs, outcome, request });
      await options.sleep(delayMs, request.signal);
    }
  };
}
