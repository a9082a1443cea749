import { canonicalJson, requestFingerprint } from './fingerprint.js';

describe('request fingerprint', () => {
  it('ignores key order and whitespace, not values', () => {
    const a = requestFingerprint('POST', '/v1/api/clients', { name: 'Ana', phone: '+351912345678', nested: { b: 1, a: [2, 1] } });
    const b = requestFingerprint(
      'post',
      '/v1/api/clients',
      JSON.parse('{ "nested": {"a":[2,1],"b":1}, "phone":"+351912345678","name":"Ana"}'),
    );
    expect(a).toBe(b);
    expect(requestFingerprint('POST', '/v1/api/clients', { name: 'Ana ' })).not.toBe(
      requestFingerprint('POST', '/v1/api/clients', { name: 'Ana' }),
    );
    expect(requestFingerprint('POST', '/v1/api/a/1/cancel', {})).not.toBe(requestFingerprint('POST', '/v1/api/a/2/cancel', {}));
  });

  it('writes canonical JSON', () => {
    expect(canonicalJson({ b: [1, { d: null, c: 'x' }], a: true })).toBe('{"a":true,"b":[1,{"c":"x","d":null}]}');
  });
});
