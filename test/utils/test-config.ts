import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type AppConfig } from '#config/app-config.js';
import { TEST_DATABASE_NAME, testDatabaseUrl } from './test-database.js';

/** The configuration every test process uses: the test database, local Redis, fixed secrets. */
export function testConfig(overrides: Record<string, string> = {}): AppConfig {
  return loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    DATABASE_URL: testDatabaseUrl(),
    API_KEY_PEPPER: 'test-pepper-test-pepper-test-pepper-0001',
    CURSOR_SECRET: 'test-cursor-secret-test-cursor-secret-01',
    SECRETS_KEY: 'test1:dGVzdC1zZWNyZXRzLWtleS10ZXN0LXNlY3JldHMta2U=',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    LOG_LEVEL: 'error',
    // E-mails written without SMTP go to a scratch folder, never into the working tree.
    MAIL_DIR: join(tmpdir(), `scheduling-mail-${TEST_DATABASE_NAME}`),
    // One prefix per test database, so parallel runs on one Redis never share queues.
    QUEUE_PREFIX: `test-${TEST_DATABASE_NAME}`,
    // Every test process calls from 127.0.0.1 and many tests fail authentication on purpose; the
    // limit's own tests set it low.
    AUTH_FAILURE_LIMIT: '1000000',
    ...overrides,
  });
}
