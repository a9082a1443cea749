import { attemptErrorText, failureClassOf, failureCodeOf } from './send-failure.js';

const withCode = (code: string, message = code) => Object.assign(new Error(message), { code });

describe('failureClassOf', () => {
  it('names time-outs, name errors, TLS errors and the rest in one word', () => {
    expect(failureClassOf(withCode('UND_ERR_CONNECT_TIMEOUT'))).toBe('timeout');
    expect(failureClassOf(Object.assign(new Error('aborted'), { name: 'TimeoutError' }))).toBe('timeout');
    expect(failureClassOf(withCode('ENOTFOUND'))).toBe('dns');
    expect(failureClassOf(withCode('DEPTH_ZERO_SELF_SIGNED_CERT'))).toBe('tls');
    expect(failureClassOf(Object.assign(new Error('fetch failed'), { cause: withCode('ERR_TLS_CERT_ALTNAME_INVALID') }))).toBe('tls');
    expect(failureClassOf(withCode('ECONNREFUSED'))).toBe('refused');
    expect(failureClassOf(withCode('ECONNRESET'))).toBe('refused');
    expect(failureClassOf('not even an error')).toBe('refused');
  });
});

describe('failureCodeOf', () => {
  it('is the first code on the chain of causes, else a time-out name', () => {
    expect(failureCodeOf(withCode('ECONNREFUSED'))).toBe('ECONNREFUSED');
    expect(failureCodeOf(Object.assign(new Error('fetch failed'), { cause: withCode('ENOTFOUND') }))).toBe('ENOTFOUND');
    expect(failureCodeOf(Object.assign(new Error('aborted'), { name: 'TimeoutError' }))).toBe('TimeoutError');
    expect(failureCodeOf('not even an error')).toBe('UNKNOWN');
  });
});

describe('attemptErrorText', () => {
  const facts = (failure: string | null, statusCode: number | null = null, error: string | null = null, durationMs = 15_000) => ({
    failure,
    statusCode,
    durationMs,
    error,
  });

  it('says what happened in words an owner reads, with the code kept', () => {
    expect(attemptErrorText(facts('ECONNREFUSED'))).toBe('The receiver refused the connection (ECONNREFUSED)');
    expect(attemptErrorText(facts('UND_ERR_HEADERS_TIMEOUT', null, null, 10_004))).toBe('No answer within 10 s (UND_ERR_HEADERS_TIMEOUT)');
    expect(attemptErrorText(facts('TimeoutError', null, null, 15_001))).toBe('No answer within 15 s (TimeoutError)');
    expect(attemptErrorText(facts('UND_ERR_CONNECT_TIMEOUT', null, null, 5_000))).toBe(
      'No connection within 5 s (UND_ERR_CONNECT_TIMEOUT)',
    );
    expect(attemptErrorText(facts('HOST_NOT_FOUND', null, 'not sent: the host name x.example does not resolve (ENOTFOUND)'))).toBe(
      'The host name could not be found',
    );
    expect(attemptErrorText(facts('ENOTFOUND'))).toBe('The host name could not be found (ENOTFOUND)');
    expect(attemptErrorText(facts('ECONNRESET'))).toBe('The receiver closed the connection before answering (ECONNRESET)');
    expect(attemptErrorText(facts('CERT_HAS_EXPIRED'))).toBe(
      "The receiver's certificate or secure connection was refused (CERT_HAS_EXPIRED)",
    );
    expect(attemptErrorText(facts('EWHATEVER'))).toBe('The connection failed (EWHATEVER)');
  });

  it('names the status of an answer that was not a success, and says nothing of a success', () => {
    expect(attemptErrorText(facts('HTTP_STATUS', 500, 'HTTP 500: oops'))).toBe('The receiver answered HTTP 500');
    expect(attemptErrorText(facts('HTTP_REDIRECT', 301))).toBe('The receiver answered HTTP 301, a redirect, which is never followed');
    expect(attemptErrorText(facts(null, 200))).toBeNull();
  });

  it('gives the reason of an attempt that never left', () => {
    expect(attemptErrorText(facts('ADDRESS_REFUSED', null, 'not sent: the address is not https'))).toBe(
      'Not sent: the address is not https',
    );
    expect(attemptErrorText(facts('ENDPOINT_DISABLED', null, 'not sent: the endpoint is disabled (by the business)'))).toBe(
      'Not sent: the endpoint is disabled (by the business)',
    );
    expect(attemptErrorText(facts('SECRET_UNUSABLE'))).toMatch(/^Not sent: the endpoint's signing secret/);
  });

  it("reads a test ping's class and an attempt recorded before codes were kept", () => {
    expect(attemptErrorText(facts('timeout', null, 'timeout', 15_000))).toBe('No answer within 15 s');
    expect(attemptErrorText(facts('dns', null, 'dns'))).toBe('The host name could not be found');
    expect(attemptErrorText(facts(null, 503, 'HTTP 503'))).toBe('The receiver answered HTTP 503');
    expect(attemptErrorText(facts(null, null, 'ECONNREFUSED: connect ECONNREFUSED'))).toBe('ECONNREFUSED: connect ECONNREFUSED');
  });
});
