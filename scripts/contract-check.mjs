// Fails when the committed generated files (the types and the operation facts) are not what
// generate-contract.mjs makes of the document today.
// Usage: node scripts/contract-check.mjs <document.yaml> <committed output folder>
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateContract, generatedFiles } from './generate-contract.mjs';

const [documentPath, committedDir] = process.argv.slice(2);
if (!documentPath || !committedDir) {
  console.error('Usage: node scripts/contract-check.mjs <document.yaml> <committed output folder>');
  process.exit(2);
}
const freshDir = mkdtempSync(join(tmpdir(), 'contract-'));
generateContract(documentPath, freshDir);
const stale = generatedFiles(documentPath).filter((file) => {
  const committed = join(committedDir, file);
  try {
    return readFileSync(join(freshDir, file), 'utf8') !== readFileSync(committed, 'utf8');
  } catch {
    return true;
  }
});
if (stale.length > 0) {
  for (const file of stale) console.error(`${join(committedDir, file)} differs from ${documentPath}.`);
  console.error('Run `npm run contract:generate` and commit the result.');
  process.exit(1);
}
console.log(`Generated contract files in ${committedDir} are up to date with ${documentPath}.`);
