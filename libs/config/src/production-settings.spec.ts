import { loadConfig } from './app-config.js';

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
