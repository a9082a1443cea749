// Generates the code's view of a contract document into a folder: openapi.ts (the types, by
// openapi-typescript) and operations.ts (the facts of contract-facts.mjs).
// Usage: node scripts/generate-contract.mjs <document.yaml> <output folder>
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { contractFacts, renderFacts } from './contract-facts.mjs';

const CORE_DOCUMENT = 'openapi/v1.3.0.yaml';

const readDocument = (path) => parse(readFileSync(path, 'utf8'));

export function generateContract(documentPath, outputDir) {
  mkdirSync(outputDir, { recursive: true });
  execFileSync('node_modules/.bin/openapi-typescript', [documentPath, '-o', join(outputDir, 'openapi.ts')], { stdio: 'ignore' });
  // An extension's operations are checked against the scopes of the core contract.
  const coreScopes = contractFacts(readDocument(CORE_DOCUMENT)).scopes;
  const facts = contractFacts(readDocument(documentPath), coreScopes);
  writeFileSync(join(outputDir, 'operations.ts'), renderFacts(facts, documentPath));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [documentPath, outputDir] = process.argv.slice(2);
  if (!documentPath || !outputDir) {
    console.error('Usage: node scripts/generate-contract.mjs <document.yaml> <output folder>');
    process.exit(2);
  }
  generateContract(documentPath, outputDir);
  console.log(`Generated ${outputDir}/openapi.ts and ${outputDir}/operations.ts from ${documentPath}.`);
}
