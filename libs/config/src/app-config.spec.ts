import { ConfigError, loadConfig, loadExtensionsSetting } from './app-config.js';

const secrets = {
  API_KEY_PEPPER: 'p'.repeat(32),
  CURSOR_SECRET: 'c'.repeat(32),
  SECRETS_KEY: `k1:${'A'.repeat(43)}=`,
};

describe('loadConfig', () => {
  it('applies defaults and parses types', () => {
    const config = loadConfig({ ...secrets, NODE_ENV: 'development', PORT: '8080', WEBHOOKS_ALLOW_PRIVATE: 'true' });
    expect(config.PORT).toBe(8080);
    expect(config.WEBHOOKS_ALLOW_PRIVATE).toBe(true);
    expect(config.DATABASE_URL).toMatch(/^postgres:\/\//);
    expect(config.AUTH_CACHE_TTL_MS).toBe(500);
  });

  it('names every missing or malformed variable', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const name of ['PORT', 'DATABASE_URL', 'API_KEY_PEPPER', 'CURSOR_SECRET']) {
      expect(message).toContain(name);
    }
  });

  it('refuses a short pepper and a revocation window over one second', () => {
    expect(() => loadConfig({ ...secrets, API_KEY_PEPPER: 'short' })).toThrow(/API_KEY_PEPPER/);
    expect(() => loadConfig({ ...secrets, AUTH_CACHE_TTL_MS: '5000' })).toThrow(/AUTH_CACHE_TTL_MS/);
  });
});

describe('EXTENSIONS', () => {
  it('enables no extension by default, and reads a comma-separated list of names', () => {
    expect(loadConfig(secrets).EXTENSIONS).toEqual([]);
    expect(loadConfig({ ...secrets, EXTENSIONS: ' waitlist , loyalty-points ' }).EXTENSIONS).toEqual(['waitlist', 'loyalty-points']);
  });

  it('refuses what cannot be a name', () => {
    expect(() => loadConfig({ ...secrets, EXTENSIONS: 'waitlist,Loyalty Points' })).toThrow(
      'EXTENSIONS: EXTENSIONS must be a comma-separated list of extension names, such as waitlist',
    );
  });

  it('is read alone by loadExtensionsSetting, which needs no other setting', () => {
    expect(loadExtensionsSetting({})).toEqual([]);
    expect(loadExtensionsSetting({ EXTENSIONS: 'waitlist' })).toEqual(['waitlist']);
    expect(() => loadExtensionsSetting({ EXTENSIONS: '../x' })).toThrow(
      new ConfigError(
        'Invalid configuration:\n  EXTENSIONS: EXTENSIONS must be a comma-separated list of extension names, such as waitlist',
      ),
    );
  });
});
