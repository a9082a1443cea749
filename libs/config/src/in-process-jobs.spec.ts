import { loadConfig } from './app-config.js';

const secrets = { API_KEY_PEPPER: 'p'.repeat(32), CURSOR_SECRET: 'c'.repeat(32), SECRETS_KEY: `k1:${'A'.repeat(43)}=` };

describe('IN_PROCESS_JOBS and QUEUE_DASHBOARD_TOKEN', () => {
  it('runs with Redis unless IN_PROCESS_JOBS=true says otherwise', () => {
    expect(loadConfig(secrets).IN_PROCESS_JOBS).toBe(false);
    expect(loadConfig({ ...secrets, IN_PROCESS_JOBS: 'true' }).IN_PROCESS_JOBS).toBe(true);
    // An empty REDIS_URL is no REDIS_URL (as every empty variable is unset).
    expect(loadConfig({ ...secrets, IN_PROCESS_JOBS: 'true', REDIS_URL: '' }).IN_PROCESS_JOBS).toBe(true);
    expect(() => loadConfig({ ...secrets, IN_PROCESS_JOBS: 'yes' })).toThrow(/IN_PROCESS_JOBS/);
  });

  it('refuses IN_PROCESS_JOBS with a REDIS_URL, in production, or with the queue dashboard', () => {
    expect(() => loadConfig({ ...secrets, IN_PROCESS_JOBS: 'true', REDIS_URL: 'redis://127.0.0.1:6379' })).toThrow(
      /REDIS_URL must not be set/,
    );
    expect(() => loadConfig({ ...secrets, IN_PROCESS_JOBS: 'true', NODE_ENV: 'production' })).toThrow(/not for NODE_ENV=production/);
    expect(() => loadConfig({ ...secrets, IN_PROCESS_JOBS: 'true', QUEUE_DASHBOARD_TOKEN: 't'.repeat(32) })).toThrow(
      /dashboard needs Redis/,
    );
  });

  it('takes a dashboard token of at least 32 characters, and none by default', () => {
    expect(loadConfig(secrets).QUEUE_DASHBOARD_TOKEN).toBeUndefined();
    expect(loadConfig({ ...secrets, QUEUE_DASHBOARD_TOKEN: 't'.repeat(32) }).QUEUE_DASHBOARD_TOKEN).toBe('t'.repeat(32));
    expect(() => loadConfig({ ...secrets, QUEUE_DASHBOARD_TOKEN: 'short' })).toThrow(
      /QUEUE_DASHBOARD_TOKEN must be at least 32 characters/,
    );
  });
});
