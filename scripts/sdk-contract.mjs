// The SDK's view of the contract (libs/sdk/src/generated/): the types openapi-typescript makes of
// openapi/v1.5.0.yaml, and contract.ts with the facts the SDK needs at run time (every operationId,
// every problem code). The SDK is packed and installed on its own (`npm pack` in libs/sdk), so it
// cannot import libs/contract; the types are generated here, the only place, and libs/contract
// imports them from the SDK. `check` keeps both files true to the document.
// Usage: node scripts/sdk-contract.mjs generate|check
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';

const DOCUMENT = 'openapi/v1.5.0.yaml';
const SDK_GENERATED = 'libs/sdk/src/generated';
const FILES = ['openapi.ts', 'contract.ts'];
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function renderContract(document) {
  const operationIds = Object.values(document.paths).flatMap((item) =>
    METHODS.filter((method) => item[method]).map((method) => item[method].operationId),
  );
  const schemas = document.components.schemas;
  const problemCodes = [
    ...schemas.ProblemCode.enum,
    ...schemas.WebhookProblemCode.anyOf.filter((member) => Array.isArray(member.enum)).flatMap((member) => member.enum),
  ];
  const list = (values) => `[\n${values.map((value) => `  '${value}',`).join('\n')}\n] as const`;
  return `// Generated from ${DOCUMENT} by scripts/sdk-contract.mjs (npm run contract:generate); never edited.

/** The version of the contract this SDK was made from. */
export const CONTRACT_VERSION = '${document.info.version}';

/** Every operation of the contract (its paths; the webhooks are notices, see verifyNotice). */
export const OPERATION_IDS = ${list(operationIds)};
export type OperationId = (typeof OPERATION_IDS)[number];

/** Every problem code an answer can carry: ProblemCode and WebhookProblemCode. */
export const PROBLEM_CODES = ${list(problemCodes)};
export type ProblemCode = (typeof PROBLEM_CODES)[number];
`;
}

export function generateSdkContract(outputDir) {
  mkdirSync(outputDir, { recursive: true });
  execFileSync('node_modules/.bin/openapi-typescript', [DOCUMENT, '-o', join(outputDir, 'openapi.ts')], { stdio: 'ignore' });
  writeFileSync(join(outputDir, 'contract.ts'), renderContract(parse(readFileSync(DOCUMENT, 'utf8'))));
}

const command = process.argv[2];
if (command === 'generate') {
  generateSdkContract(SDK_GENERATED);
  console.log(`Generated ${SDK_GENERATED}/openapi.ts and contract.ts from ${DOCUMENT}.`);
} else if (command === 'check') {
  const fresh = mkdtempSync(join(tmpdir(), 'sdk-contract-'));
  generateSdkContract(fresh);
  const stale = FILES.filter((file) => {
    try {
      return readFileSync(join(fresh, file), 'utf8') !== readFileSync(join(SDK_GENERATED, file), 'utf8');
    } catch {
      return true;
    }
  });
  if (stale.length > 0) {
    for (const file of stale) console.error(`${join(SDK_GENERATED, file)} differs from ${DOCUMENT}.`);
    console.error('Run `npm run contract:generate` and commit the result.');
    process.exit(1);
  }
  console.log(`The SDK's generated contract files in ${SDK_GENERATED} are up to date with ${DOCUMENT}.`);
} else {
  console.error('Usage: node scripts/sdk-contract.mjs generate|check');
  process.exit(2);
}
