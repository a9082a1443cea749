/**
 * What kind of failure a send was, in a word (docs/design-record.md#d25): what a test ping
 * reports. The receiver's own words and the TLS library's messages stay in the delivery log, so
 * that the ping cannot be used to read what a host that is not a receiver answers.
 */
export type SendFailure = 'timeout' | 'refused' | 'dns' | 'tls' | 'http';

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT', 'ETIMEOUT']);
const DNS_CODES = new Set(['ENOTFOUND', 'ENODATA', 'ESERVFAIL', 'EAI_AGAIN', 'ENONAME']);

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The class of an error thrown while connecting, sending or reading the answer. */
export function failureClassOf(error: unknown): SendFailure {
  for (let cause: unknown = error, depth = 0; cause !== undefined && cause !== null && depth < 5; depth += 1) {
    const code = codeOf(cause);
    const name = cause instanceof Error ? cause.name : '';
    if (name === 'TimeoutError' || name === 'AbortError' || (code !== undefined && TIMEOUT_CODES.has(code))) return 'timeout';
    if (code !== undefined && DNS_CODES.has(code)) return 'dns';
    if (code !== undefined && /^(ERR_TLS|ERR_SSL|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_|ERR_OSSL|HOSTNAME_MISMATCH)/.test(code))
      return 'tls';
    if (cause instanceof Error && /\b(TLS|SSL|certificate)\b/i.test(cause.message)) return 'tls';
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return 'refused';
}

/**
 * An attempt's failure as stored (delivery_attempts.failure): the error code of the connection
 * (`ECONNREFUSED`, `UND_ERR_HEADERS_TIMEOUT`, `TimeoutError`, ...), one of ours for an answer that
 * was not a success or an attempt that never left, or a test ping's class (SendFailure), which is
 * all a ping keeps (docs/design-record.md#d25).
 */
export const NOT_SENT = {
  /** The address was refused before any connection (not https, a private address, a port not allowed). */
  addressRefused: 'ADDRESS_REFUSED',
  /** The host name did not resolve. */
  hostNotFound: 'HOST_NOT_FOUND',
  endpointDisabled: 'ENDPOINT_DISABLED',
  bodyUnusable: 'BODY_UNUSABLE',
  secretUnusable: 'SECRET_UNUSABLE',
} as const;
export const HTTP_REDIRECT = 'HTTP_REDIRECT';
export const HTTP_STATUS = 'HTTP_STATUS';

/** The code of an error thrown while connecting, sending or reading: the first code on its chain of causes, else a time-out's name. */
export function failureCodeOf(error: unknown): string {
  let named: string | undefined;
  for (let cause: unknown = error, depth = 0; cause !== undefined && cause !== null && depth < 5; depth += 1) {
    const code = codeOf(cause);
    if (code !== undefined) return code;
    if (cause instanceof Error && named === undefined && cause.name !== 'Error') named = cause.name;
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return named ?? 'UNKNOWN';
}

/** What an owner reads of an attempt: its stored code and status, how long it took, and the stored error for the rest. */
export interface AttemptOutcomeFacts {
  failure: string | null;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

const seconds = (ms: number): string => `${Math.max(1, Math.round(ms / 1000))} s`;
const notSentBecause = (error: string | null, fallback: string): string => `Not sent: ${error?.replace(/^not sent: /, '') ?? fallback}`;

/**
 * The one mapping from what an attempt recorded to a sentence a salon owner can read
 * (docs/design-record.md#d29); null when it succeeded. The code stays in parentheses, for whoever
 * the owner forwards it to. Attempts recorded before the failure was kept (no code) read from
 * their status, else their stored error.
 */
export function attemptErrorText(attempt: AttemptOutcomeFacts): string | null {
  const { failure, statusCode, durationMs, error } = attempt;
  if (statusCode !== null && statusCode >= 200 && statusCode <= 299) return null;
  if (failure === null) {
    if (statusCode !== null) return `The receiver answered HTTP ${statusCode}`;
    return error;
  }
  if (failure === HTTP_REDIRECT) return `The receiver answered HTTP ${statusCode ?? '3xx'}, a redirect, which is never followed`;
  if (failure === HTTP_STATUS || failure === 'http') return `The receiver answered HTTP ${statusCode ?? '(no status)'}`;
  switch (failure) {
    case NOT_SENT.addressRefused:
      return notSentBecause(error, 'the address is not allowed');
    case NOT_SENT.hostNotFound:
      return 'The host name could not be found';
    case NOT_SENT.endpointDisabled:
      return notSentBecause(error, 'the endpoint is disabled');
    case NOT_SENT.bodyUnusable:
      return "Not sent: the notice could not be built for the endpoint's version";
    case NOT_SENT.secretUnusable:
      return "Not sent: the endpoint's signing secret cannot be opened by the service; rotating the secret replaces it";
    case 'ECONNREFUSED':
      return 'The receiver refused the connection (ECONNREFUSED)';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'EPIPE':
      return `The receiver closed the connection before answering (${failure})`;
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `No connection within ${seconds(durationMs)} (${failure})`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `The receiver cannot be reached from here (${failure})`;
    case 'timeout':
      return `No answer within ${seconds(durationMs)}`;
    case 'refused':
      return 'The connection was refused or closed';
    case 'dns':
      return 'The host name could not be found';
    case 'tls':
      return 'The secure connection (TLS) could not be made';
  }
  if (TIMEOUT_CODES.has(failure) || failure === 'TimeoutError' || failure === 'AbortError') {
    return `No answer within ${seconds(durationMs)} (${failure})`;
  }
  if (DNS_CODES.has(failure)) return `The host name could not be found (${failure})`;
  if (failureClassOf(Object.assign(new Error(failure), { code: failure })) === 'tls') {
    return `The receiver's certificate or secure connection was refused (${failure})`;
  }
  return `The connection failed (${failure})`;
}
