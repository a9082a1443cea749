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
