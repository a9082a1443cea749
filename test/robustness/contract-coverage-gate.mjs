// The contract coverage gate (issue 8): fails unless the test run produced, through
// ContractResponseValidator, every operation × documented status of openapi/v1.5.0.yaml and of the
// extensions' documents (extensions/*/openapi.yaml), apart from the few pairs listed with a reason
// in contract-coverage-exclusions.json.
//
//   npm run coverage:contract      (after `npm test`; .ci/run runs it as the step after the tests)
//
// The pairs are read from CONTRACT_COVERAGE_DIR (see test/utils/contract-coverage-dir.mjs), where
// every test file appends what its responses showed. Plain JavaScript, run by node directly.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { contractCoverageDir } from '../utils/contract-coverage-dir.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

function documentPaths() {
  const extensions = join(root, 'extensions');
  const extensionDocuments = existsSync(extensions)
    ? readdirSync(extensions, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && existsSync(join(extensions, entry.name, 'openapi.yaml')))
        .map((entry) => join(extensions, entry.name, 'openapi.yaml'))
    : [];
  return [join(root, 'openapi', 'v1.5.0.yaml'), ...extensionDocuments];
}

function documentedPairs() {
  const pairs = [];
  for (const path of documentPaths()) pairs.push(...pairsOf(parse(readFileSync(path, 'utf8'))));
  return pairs;
}

function pairsOf(document) {
  const pairs = [];
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      for (const status of Object.keys(operation.responses)) {
        if (!/^\d{3}$/.test(status))
          throw new Error(`${operation.operationId}: status ${status} is not a plain status; the gate cannot check it`);
        pairs.push(`${operation.operationId} ${status}`);
      }
    }
  }
  return pairs;
}

function seenPairs(dir) {
  const seen = new Set();
  if (!existsSync(dir)) return seen;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl'))) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const { operationId, status } = JSON.parse(line);
      seen.add(`${operationId} ${status}`);
    }
  }
  return seen;
}

const dir = contractCoverageDir();
const documented = documentedPairs();
const { excluded } = JSON.parse(readFileSync(join(here, 'contract-coverage-exclusions.json'), 'utf8'));
const excludedPairs = new Map(excluded.map((e) => [`${e.operationId} ${e.status}`, e.reason]));
const seen = seenPairs(dir);

const problems = [];
if (seen.size === 0) {
  problems.push(
    `No responses were recorded in ${dir}: run the tests first (npm test), with the same CONTRACT_COVERAGE_DIR or TEST_DATABASE_NAME.`,
  );
}
for (const pair of excludedPairs.keys()) {
  if (!documented.includes(pair)) problems.push(`Excluded ${pair} is not a documented operation × status; remove it from the exclusions.`);
  else if (seen.has(pair)) problems.push(`Excluded ${pair} was produced by a test; remove it from the exclusions.`);
}
const missing = documented.filter((pair) => !seen.has(pair) && !excludedPairs.has(pair));
for (const pair of missing) problems.push(`Never produced: ${pair}`);

const produced = documented.filter((pair) => seen.has(pair)).length;
console.log(
  `Contract coverage: ${produced} of ${documented.length} operation × status pairs produced, ` +
    `${excludedPairs.size} excluded (test/robustness/contract-coverage-exclusions.json), ${missing.length} missing.`,
);
if (problems.length > 0) {
  console.error(problems.map((p) => `  ${p}`).join('\n'));
  process.exit(1);
}
