import { failureClassOf } from './send-failure.js';

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
