// Where the responses of one test run record the (operation, status) pairs they showed.
// Plain JavaScript: read by global-setup.mjs and by the coverage gate, which run outside Jest's
// TypeScript transform.
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** CONTRACT_COVERAGE_DIR when set (CI sets one per run), else a folder per test database. */
export function contractCoverageDir(env = process.env) {
  return env.CONTRACT_COVERAGE_DIR || join(tmpdir(), `contract-coverage-${env.TEST_DATABASE_NAME ?? 'scheduling_test'}`);
}
