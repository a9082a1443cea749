// `npm run contract:compat`: proves openapi/v1.3.0.yaml a backward-compatible superset of the frozen
// openapi/v1.2.0.yaml (docs/design-record.md#d13), in two parts:
// 1. Optic's breaking-change rules (a maintained checker): removed operations, parameters, response
//    fields or statuses, new required request fields, narrowed request types. `--validation loose`
//    accepts OpenAPI 3.1's `jsonSchemaDialect`; telemetry is off, so it runs offline. optic.compat.yml
//    leaves GET /me (x-scope-list-grows) to part 2, which lets its scope list, and nothing else, grow.
// 2. contract-compat-rules.mjs: what D13 forbids beyond those rules (a new field or enum value in a
//    1.2.0 response, any change to a 1.2.0 notice).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { compatibilityProblems } from './contract-compat-rules.mjs';

const [frozenPath = 'openapi/v1.2.0.yaml', currentPath = 'openapi/v1.3.0.yaml'] = process.argv.slice(2);

console.log(`Optic: breaking changes from ${frozenPath} to ${currentPath}`);
const optic = spawnSync(
  'node_modules/.bin/optic',
  ['diff', frozenPath, currentPath, '--check', '--validation', 'loose', '--standard', 'optic.compat.yml'],
  {
    stdio: 'inherit',
    env: { ...process.env, OPTIC_TELEMETRY_LEVEL: 'off' },
  },
);
if (optic.error) throw optic.error;

const read = (path) => parse(readFileSync(path, 'utf8'));
const problems = compatibilityProblems(read(frozenPath), read(currentPath));
console.log(`\nResponses and notices of ${frozenPath} answered the same by ${currentPath}:`);
if (problems.length === 0) console.log('  every 1.2.0 response schema and notice is unchanged.');
for (const problem of problems) console.log(`  ✖ ${problem}`);

if (optic.status !== 0 || problems.length > 0) {
  console.error(`\n${currentPath} is not a compatible superset of ${frozenPath}.`);
  process.exit(1);
}
console.log(`\n${currentPath} is a compatible superset of ${frozenPath}.`);
