import { loadConfig } from './app-config.js';

const secrets = {
  API_KEY_PEPPER: 'p'.repeat(32),
  CURSOR_SECRET: 'c'.repeat(32),
  SECRETS_KEY: `k1:${'A'.repeat(43)}=`,
};

describe('change-notice settings', () => {
  it('default to the Standard Webhooks schedule, a 1 s relay poll and a 30 s sweep', () => {
    const config = loadConfig(secrets);
    expect(config.WEBHOOK_RETRY_SCHEDULE).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000,
    ]);
    expect(config.NOTICE_RELAY_POLL_MS).toBe(1000);
    expect(config.NOTICE_SWEEP_EVERY_MS).toBe(30_000);
  });

  it('read a compressed schedule', () => {
    expect(loadConfig({ ...secrets, WEBHOOK_RETRY_SCHEDULE: '100ms,1s,0' }).WEBHOOK_RETRY_SCHEDULE).toEqual([100, 1000, 0]);
  });

  it('refuse a malformed schedule, a delay over 24 h and a relay poll over 1 s', () => {
    expect(() => loadConfig({ ...secrets, WEBHOOK_RETRY_SCHEDULE: '5s,soon' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(() => loadConfig({ ...secrets, WEBHOOK_RETRY_SCHEDULE: '25h' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(() => loadConfig({ ...secrets, NOTICE_RELAY_POLL_MS: '5000' })).toThrow(/NOTICE_RELAY_POLL_MS/);
  });
});
