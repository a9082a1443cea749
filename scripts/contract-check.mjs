// Fails when libs/contract/src/generated/openapi.ts is not what openapi-typescript makes of the
// contract today: the committed types must follow openapi/v1.2.0.yaml.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const committed = 'libs/contract/src/generated/openapi.ts';
const fresh = join(mkdtempSync(join(tmpdir(), 'contract-')), 'openapi.ts');
execFileSync('node_modules/.bin/openapi-typescript', ['openapi/v1.2.0.yaml', '-o', fresh], { stdio: 'ignore' });
if (readFileSync(fresh, 'utf8') !== readFileSync(committed, 'utf8')) {
  console.error(`${committed} differs from the contract. Run \`npm run contract:generate\` and commit the result.`);
  process.exit(1);
}
console.log('Generated contract types are up to date.');
