import { ConfigError } from '#config/app-config.js';
import { ServedContract } from '#contract/served-contract.js';
import { enableExtensions, EXTENSION_MIGRATIONS, EXTENSIONS } from './index.js';

describe('the extension registry', () => {
  it('refuses a name no extension is registered under, naming the registered ones', () => {
    expect(() => enableExtensions(['waitlist', 'loyalty'])).toThrow(ConfigError);
    expect(() => enableExtensions(['waitlist', 'loyalty'])).toThrow(
      'Invalid configuration:\n  EXTENSIONS: no extension is registered as loyalty (registered: waitlist)',
    );
  });

  it("hands the enabled extensions' operations and notice types to the served contract", () => {
    const enabled = enableExtensions(['waitlist']);
    expect(enabled.map((extension) => extension.name)).toEqual(['waitlist']);
    const contract = new ServedContract(enabled);
    expect(contract.operation('joinWaitlist')?.routePath).toBe('waitlist');
    expect(contract.noticeTypes).toContain('waitlist.joined');
  });

  it("lists every registered extension's migrations for `migrate`, enabled or not", () => {
    expect(EXTENSION_MIGRATIONS).toEqual(EXTENSIONS.flatMap((extension) => extension.migrations));
    expect(EXTENSION_MIGRATIONS.map((migration) => migration.name)).toContain('WaitlistEntries1795320000000');
  });
});
