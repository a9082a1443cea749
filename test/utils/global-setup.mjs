// Once per test run: a fresh, empty test database. The schema is then built by the migrations
// (test/utils/migrate-once.ts), so tests always run on what `npm run migrate` produces.
// Plain JavaScript: Jest loads global setup outside its TypeScript transform.
import { mkdirSync, rmSync } from 'node:fs';
import pg from 'pg';
import { contractCoverageDir } from './contract-coverage-dir.mjs';

export default async function globalSetup() {
  resetContractCoverage();
  const server = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const name = process.env.TEST_DATABASE_NAME ?? 'scheduling_test';
  if (process.env.TEST_DATABASE_CREATED === name) return;
  const admin = new pg.Client({ connectionString: server.toString() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  process.env.TEST_DATABASE_CREATED = name;
}

// The (operation, status) pairs this run's responses showed are appended there by
// ContractResponseValidator; `npm run coverage:contract` checks them after the run. Emptied once
// per run (every project with this global setup calls it; the first one clears).
function resetContractCoverage() {
  const dir = contractCoverageDir();
  process.env.CONTRACT_COVERAGE_DIR = dir;
  if (process.env.CONTRACT_COVERAGE_RESET === dir) return;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  process.env.CONTRACT_COVERAGE_RESET = dir;
}
