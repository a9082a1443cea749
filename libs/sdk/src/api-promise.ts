import type { ResponseHeaders } from './response-headers.js';

/** What `withResponse()` answers: the data, the answer's status and what its headers say. */
export interface WithResponse<T> {
  data: T;
  /** The HTTP status of the answer (200, 201, 204). */
  status: number;
  headers: ResponseHeaders;
}

/**
 * The promise every single-request method of SchedulingClient returns: awaited, the data, as any
 * promise; `.withResponse()` gives the same call's data with its status and headers (Location,
 * Idempotent-Replayed, Api-Version, RateLimit-*), so a caller needs no fetch of its own to read them.
 * Both read one request: calling both sends nothing twice.
 *
 * The data is derived only when the promise is awaited (then/catch/finally), so a caller of
 * withResponse() alone sees a failure once, there, and never as an unhandled rejection.
 */
export class ApiPromise<T> extends Promise<T> {
  // then/catch/finally of the built-in promise make plain promises, not ApiPromises.
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  readonly #answer: Promise<WithResponse<T>>;

  constructor(answer: Promise<WithResponse<T>>) {
    // The built-in promise underneath is never read: every reader goes through #answer.
    super((resolve) => resolve(undefined as T));
    this.#answer = answer;
  }

  /** The data with the answer's status and headers; rejects as the call does (SchedulingApiError, abort, network). */
  withResponse(): Promise<WithResponse<T>> {
    return this.#answer;
  }

  override then<R1 = T, R2 = never>(
    onFulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#answer.then((answer) => answer.data).then(onFulfilled, onRejected);
  }

  override catch<R = never>(onRejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.then(undefined, onRejected);
  }

  override finally(onFinally?: (() => void) | null): Promise<T> {
    return this.#answer.then((answer) => answer.data).finally(onFinally);
  }
}
