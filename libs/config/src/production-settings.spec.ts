import { ConfigError, loadApiConfig, loadConfig } from './app-config.js';

const secrets = { API_KEY_PEPPER: 'p'.repeat(32), CURSOR_SECRET: 'c'.repeat(32), SECRETS_KEY: `k1:${'A'.repeat(43)}=` };

describe('settings refused in production', () => {
  it('takes WEBHOOKS_ALLOW_PRIVATE=true only with NODE_ENV=development or test set explicitly', () => {
    const refusal = /WEBHOOKS_ALLOW_PRIVATE: .*accepted only with NODE_ENV=development or NODE_ENV=test set explicitly/;
    expect(() => loadConfig({ ...secrets, NODE_ENV: 'production', WEBHOOKS_ALLOW_PRIVATE: 'true' })).toThrow(refusal);
    // NODE_ENV's default is development, but a host that never set it may well be production.
    expect(() => loadConfig({ ...secrets, WEBHOOKS_ALLOW_PRIVATE: 'true' })).toThrow(refusal);
    expect(() => loadConfig({ ...secrets, NODE_ENV: '', WEBHOOKS_ALLOW_PRIVATE: '1' })).toThrow(refusal);
    expect(loadConfig({ ...secrets, NODE_ENV: 'production', WEBHOOKS_ALLOW_PRIVATE: 'false' }).WEBHOOKS_ALLOW_PRIVATE).toBe(false);
    expect(loadConfig({ ...secrets, WEBHOOKS_ALLOW_PRIVATE: 'false' }).WEBHOOKS_ALLOW_PRIVATE).toBe(false);
    expect(loadConfig({ ...secrets, NODE_ENV: 'development', WEBHOOKS_ALLOW_PRIVATE: 'true' }).WEBHOOKS_ALLOW_PRIVATE).toBe(true);
    expect(loadConfig({ ...secrets, NODE_ENV: 'test', WEBHOOKS_ALLOW_PRIVATE: 'true' }).WEBHOOKS_ALLOW_PRIVATE).toBe(true);
  });
});

describe('LOG_LEVEL', () => {
  it("takes Nest's names and pino's info and trace", () => {
    for (const level of ['fatal', 'error', 'warn', 'log', 'info', 'debug', 'verbose', 'trace']) {
      expect(loadConfig({ ...secrets, LOG_LEVEL: level }).LOG_LEVEL).toBe(level);
    }
  });

  it('names the accepted values when given another', () => {
    expect(() => loadConfig({ ...secrets, LOG_LEVEL: 'loud' })).toThrow(
      /LOG_LEVEL must be one of fatal, error, warn, log, info, debug, verbose, trace/,
    );
  });
});

describe('the console in production (docs/design-record.md#d29)', () => {
  const refusal = /PUBLIC_BASE_URL: .*https address people reach the API at.*set CONSOLE=off to run without the console/;

  it('stops the API without an https PUBLIC_BASE_URL, naming the setting and CONSOLE=off', () => {
    expect(() => loadApiConfig({ ...secrets, NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadApiConfig({ ...secrets, NODE_ENV: 'production' })).toThrow(refusal);
    expect(() => loadApiConfig({ ...secrets, NODE_ENV: 'production', PUBLIC_BASE_URL: 'http://api.example.com' })).toThrow(refusal);
    expect(() => loadApiConfig({ ...secrets, NODE_ENV: 'production', CONSOLE: 'on' })).toThrow(/it is not set/);
  });

  it('starts with an https PUBLIC_BASE_URL, or with the console off', () => {
    expect(loadApiConfig({ ...secrets, NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://api.example.com/' }).PUBLIC_BASE_URL).toBe(
      'https://api.example.com',
    );
    const off = loadApiConfig({ ...secrets, NODE_ENV: 'production', CONSOLE: 'off' });
    expect(off.CONSOLE).toBe(false);
  });

  it('asks nothing of the worker and the admin command line, which serve no page, nor outside production', () => {
    expect(loadConfig({ ...secrets, NODE_ENV: 'production' }).CONSOLE).toBe(true);
    expect(loadApiConfig({ ...secrets, NODE_ENV: 'development' }).PUBLIC_BASE_URL).toBeUndefined();
    expect(loadApiConfig({ ...secrets, NODE_ENV: 'test', PUBLIC_BASE_URL: 'http://127.0.0.1:3000' }).CONSOLE).toBe(true);
  });
});

describe('CONSOLE', () => {
  it('is on by default, and takes on or off', () => {
    expect(loadConfig(secrets).CONSOLE).toBe(true);
    expect(loadConfig({ ...secrets, CONSOLE: 'on' }).CONSOLE).toBe(true);
    expect(loadConfig({ ...secrets, CONSOLE: 'off' }).CONSOLE).toBe(false);
  });

  it('names the accepted values when given another', () => {
    expect(() => loadConfig({ ...secrets, CONSOLE: 'maybe' })).toThrow(/CONSOLE must be on or off/);
  });
});
