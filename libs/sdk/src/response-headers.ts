import type { components } from './generated/openapi.js';

type ContractHeaders = components['headers'];

/** The RateLimit-* headers of an answer: the key's quota and how much of it is left. */
export interface RateLimit {
  /** RateLimit-Limit: requests allowed per window for this key. */
  limit: number;
  /** RateLimit-Remaining: requests left in the current window. */
  remaining: number;
  /** RateLimit-Reset: seconds until the window has room again (0 when requests remain). */
  resetSeconds: number;
  /** RateLimit-Policy, e.g. `120;w=60`. */
  policy: string | null;
}

/** What the headers of a successful answer say, read as the contract declares them. */
export interface ResponseHeaders {
  /**
   * Location (since 1.4.0, on every 201 and its replays): the address of what the write created, for
   * a reschedule the new appointment. As sent: a path such as `/v1/api/appointments/{id}`, or an
   * absolute address when the operator configured one.
   */
  location: string | null;
  /** Idempotent-Replayed: true when the answer is the stored one of an earlier write with the same Idempotency-Key. */
  idempotentReplayed: boolean;
  /** Api-Version: the version the answer is shaped for (the SDK asks for its CONTRACT_VERSION). */
  apiVersion: ContractHeaders['Api-Version'] | null;
  /** X-Request-Id: give it to support. */
  requestId: string | null;
  /** The key's quota, null when the answer has no RateLimit-* headers. */
  rateLimit: RateLimit | null;
  /** Every header as received, for any other. */
  all: Headers;
}

const API_VERSION = /^\d+\.\d+\.\d+$/;

/** Reads the contract's headers of an answer; a header that is absent or malformed reads as null. */
export function readResponseHeaders(headers: Headers): ResponseHeaders {
  const apiVersion = headers.get('api-version');
  return {
    location: headers.get('location'),
    idempotentReplayed: headers.get('idempotent-replayed') === 'true',
    // The contract's enum is the versions this SDK knows; a newer server may name a later one.
    apiVersion: apiVersion !== null && API_VERSION.test(apiVersion) ? (apiVersion as ContractHeaders['Api-Version']) : null,
    requestId: headers.get('x-request-id'),
    rateLimit: readRateLimit(headers),
    all: headers,
  };
}

function readRateLimit(headers: Headers): RateLimit | null {
  const limit = wholeNumber(headers.get('ratelimit-limit'));
  const remaining = wholeNumber(headers.get('ratelimit-remaining'));
  const resetSeconds = wholeNumber(headers.get('ratelimit-reset'));
  if (limit === null || remaining === null || resetSeconds === null) return null;
  return { limit, remaining, resetSeconds, policy: headers.get('ratelimit-policy') };
}

function wholeNumber(value: string | null): number | null {
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : null;
}
