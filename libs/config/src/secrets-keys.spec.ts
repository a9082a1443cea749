import { ConfigError, loadConfig } from './app-config.js';

const settings = { API_KEY_PEPPER: 'p'.repeat(32), CURSOR_SECRET: 'c'.repeat(32) };
const A = `${'A'.repeat(43)}=`;
const B = `${'B'.repeat(43)}=`;

describe('SECRETS_KEY at start (docs/design-record.md#d25)', () => {
  it('refuses a key id given twice, naming it: one key would seal and the other open', () => {
    let error: unknown;
    try {
      loadConfig({ ...settings, SECRETS_KEY: `k1:${A},k2:${B},k1:${B}` });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/SECRETS_KEY: the key id "k1" is given more than once/);
    expect((error as Error).message).not.toMatch(/"k2"/);
  });

  it('takes distinct ids, the rotation form included', () => {
    expect(loadConfig({ ...settings, SECRETS_KEY: `k2:${B},k1:${A}` }).SECRETS_KEY).toBe(`k2:${B},k1:${A}`);
  });
});
