// `npm run contract:compat`: proves openapi/v1.3.0.yaml a backward-compatible superset of the frozen
// openapi/v1.2.0.yaml (docs/design-record.md#d13), and openapi/v1.4.0.yaml one of 1.3.0 and
// openapi/v1.5.0.yaml one of 1.4.0 for requests (docs/design-record.md#d22), each in two parts:
// 1. Optic's breaking-change rules (a maintained checker): removed operations, parameters, response
//    fields or statuses, new required request fields, narrowed request types. `--validation loose`
//    accepts OpenAPI 3.1's `jsonSchemaDialect`; telemetry is off, so it runs offline. optic.compat.yml
//    leaves GET /me (x-scope-list-grows) to part 2, which lets its scope list, and nothing else, grow.
// 2. contract-compat-rules.mjs: what D13 forbids beyond those rules (a new field or enum value in a
//    1.2.0 response, any change to a 1.2.0 notice) and every narrowing of a request (a lower maximum
//    or maxLength, a higher minimum, a new format, pattern or required property, a lost enum value,
//    a closed object, a narrower type, a newly required parameter) but the exceptions it lists.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { compatibilityProblems, narrowingLocation, requestCompatibility } from './contract-compat-rules.mjs';

/**
 * The pairs checked when no paths are given: 1.3.0 against 1.2.0 in full (D13), then each later
 * version against the one before for requests only (D22: answers are shaped for the caller's pinned
 * version, so they may grow).
 */
const PAIRS = [
  { frozenPath: 'openapi/v1.2.0.yaml', currentPath: 'openapi/v1.3.0.yaml', responses: true },
  { frozenPath: 'openapi/v1.3.0.yaml', currentPath: 'openapi/v1.4.0.yaml', responses: false },
  { frozenPath: 'openapi/v1.4.0.yaml', currentPath: 'openapi/v1.5.0.yaml', responses: false },
];

const args = process.argv.slice(2);
const requestsOnly = args.includes('--requests-only');
const paths = args.filter((arg) => arg !== '--requests-only');
const pairs = paths.length === 2 ? [{ frozenPath: paths[0], currentPath: paths[1], responses: !requestsOnly }] : PAIRS;

const read = (path) => parse(readFileSync(path, 'utf8'));
let failed = false;
for (const { frozenPath, currentPath, responses } of pairs) {
  console.log(`Optic: breaking changes from ${frozenPath} to ${currentPath}`);
  const optic = spawnSync(
    'node_modules/.bin/optic',
    ['diff', frozenPath, currentPath, '--check', '--validation', 'loose', '--standard', 'optic.compat.yml'],
    { stdio: 'inherit', env: { ...process.env, OPTIC_TELEMETRY_LEVEL: 'off' } },
  );
  if (optic.error) throw optic.error;

  const [frozen, current] = [read(frozenPath), read(currentPath)];
  const problems = compatibilityProblems(frozen, current, { responses });
  const allowed = requestCompatibility(frozen, current).allowed;
  console.log(
    responses
      ? `\nResponses, notices and request rules of ${frozenPath} kept by ${currentPath}:`
      : `\nRequest rules of ${frozenPath} kept by ${currentPath} (its answers are shaped per pinned version):`,
  );
  if (problems.length === 0) console.log('  nothing removed or narrowed.');
  for (const { narrowing, exception } of allowed) {
    const kind = 'from' in exception ? 'relaxed' : 'narrowed on purpose';
    console.log(`  ${kind} in ${exception.version} (listed): ${narrowingLocation(narrowing)}: ${narrowing.what}`);
  }
  for (const problem of problems) console.log(`  ✖ ${problem}`);

  if (optic.status !== 0 || problems.length > 0) {
    console.error(`\n${currentPath} is not a compatible superset of ${frozenPath}.\n`);
    failed = true;
  } else {
    console.log(`\n${currentPath} is a compatible superset of ${frozenPath}${responses ? '' : ' for requests'}.\n`);
  }
}
if (failed) process.exit(1);
