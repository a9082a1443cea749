import { loadConfig } from './app-config.js';

const secrets = { API_KEY_PEPPER: 'p'.repeat(32), CURSOR_SECRET: 'c'.repeat(32), SECRETS_KEY: `k1:${'A'.repeat(43)}=` };

describe('the HTTP server and database pool settings (docs/design-record.md#d24, #d25)', () => {
  it('default to 10 s for the headers, 30 s for a whole request, a pool of 10 waited on 5 s, metrics on loopback', () => {
    const config = loadConfig(secrets);
    expect(config).toMatchObject({
      HTTP_HEADERS_TIMEOUT_MS: 10_000,
      HTTP_REQUEST_TIMEOUT_MS: 30_000,
      DATABASE_POOL_SIZE: 10,
      DATABASE_CONNECT_TIMEOUT_MS: 5000,
      METRICS_HOST: '127.0.0.1',
    });
    expect(config.PUBLIC_BASE_URL).toBeUndefined();
  });

  it('refuses a headers timeout longer than the whole request, and values out of range', () => {
    expect(() => loadConfig({ ...secrets, HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '10000' })).toThrow(
      /HTTP_HEADERS_TIMEOUT_MS: must not be longer than HTTP_REQUEST_TIMEOUT_MS/,
    );
    expect(() => loadConfig({ ...secrets, HTTP_REQUEST_TIMEOUT_MS: '0' })).toThrow(/HTTP_REQUEST_TIMEOUT_MS/);
    expect(() => loadConfig({ ...secrets, DATABASE_POOL_SIZE: '0' })).toThrow(/DATABASE_POOL_SIZE/);
    expect(() => loadConfig({ ...secrets, DATABASE_CONNECT_TIMEOUT_MS: 'soon' })).toThrow(/DATABASE_CONNECT_TIMEOUT_MS/);
  });

  it('leaves HOST unset by default (every interface, as a production container needs), and takes an IP address, nothing else', () => {
    expect(loadConfig(secrets).HOST).toBeUndefined();
    expect(loadConfig({ ...secrets, HOST: '' }).HOST).toBeUndefined();
    expect(loadConfig({ ...secrets, HOST: '127.0.0.1' }).HOST).toBe('127.0.0.1');
    expect(loadConfig({ ...secrets, HOST: '0.0.0.0', NODE_ENV: 'production' }).HOST).toBe('0.0.0.0');
    expect(loadConfig({ ...secrets, HOST: '::1' }).HOST).toBe('::1');
    expect(() => loadConfig({ ...secrets, HOST: 'my-laptop' })).toThrow(/HOST must be an IP address/);
  });

  it('takes an IP address as METRICS_HOST, nothing else', () => {
    expect(loadConfig({ ...secrets, METRICS_HOST: '0.0.0.0' }).METRICS_HOST).toBe('0.0.0.0');
    expect(loadConfig({ ...secrets, METRICS_HOST: '::1' }).METRICS_HOST).toBe('::1');
    expect(() => loadConfig({ ...secrets, METRICS_HOST: 'metrics.internal; rm -rf' })).toThrow(/METRICS_HOST must be an IP address/);
  });

  it('takes an http(s) address as PUBLIC_BASE_URL, without its trailing slash', () => {
    expect(loadConfig({ ...secrets, PUBLIC_BASE_URL: 'https://api.salon.example/' }).PUBLIC_BASE_URL).toBe('https://api.salon.example');
    expect(loadConfig({ ...secrets, PUBLIC_BASE_URL: 'https://salon.example/scheduling' }).PUBLIC_BASE_URL).toBe(
      'https://salon.example/scheduling',
    );
    for (const refused of ['api.salon.example', 'ftp://api.salon.example', 'https://user:pw@api.salon.example', 'https://a.example/?x=1']) {
      expect(() => loadConfig({ ...secrets, PUBLIC_BASE_URL: refused })).toThrow(/PUBLIC_BASE_URL must be an http/);
    }
  });
});
