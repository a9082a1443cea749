// contract:generate and contract:check for every extension's document (docs/extending.md): each
// extensions/<name>/openapi.yaml has its generated files in extensions/<name>/generated, made and
// checked by the same scripts as the core's.
// Usage: node scripts/extension-contracts.mjs generate|check
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const SCRIPTS = { generate: 'scripts/generate-contract.mjs', check: 'scripts/contract-check.mjs' };
const script = SCRIPTS[process.argv[2]];
if (!script) {
  console.error('Usage: node scripts/extension-contracts.mjs generate|check');
  process.exit(2);
}
const folders = existsSync('extensions') ? readdirSync('extensions', { withFileTypes: true }).filter((entry) => entry.isDirectory()) : [];
for (const folder of folders) {
  const document = join('extensions', folder.name, 'openapi.yaml');
  if (!existsSync(document)) continue;
  try {
    execFileSync(process.execPath, [script, document, join('extensions', folder.name, 'generated')], { stdio: 'inherit' });
  } catch {
    process.exit(1);
  }
}
