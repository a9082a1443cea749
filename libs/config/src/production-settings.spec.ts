import { loadConfig } from './app-config.js';

const secrets = { API_KEY_PEPPER: 'p'.repeat(32), CURSOR_SECRET: 'c'.repeat(32), SECRETS_KEY: `k1:${'A'.repeat(43)}=` };

describe('settings refused in production', () => {
  it('refuses WEBHOOKS_ALLOW_PRIVATE=true with NODE_ENV=production, and only there', () => {
    expect(() => loadConfig({ ...secrets, NODE_ENV: 'production', WEBHOOKS_ALLOW_PRIVATE: 'true' })).toThrow(
      /WEBHOOKS_ALLOW_PRIVATE: .*refused with NODE_ENV=production/,
    );
    expect(loadConfig({ ...secrets, NODE_ENV: 'production', WEBHOOKS_ALLOW_PRIVATE: 'false' }).WEBHOOKS_ALLOW_PRIVATE).toBe(false);
    expect(loadConfig({ ...secrets, NODE_ENV: 'development', WEBHOOKS_ALLOW_PRIVATE: 'true' }).WEBHOOKS_ALLOW_PRIVATE).toBe(true);
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
