// Generates the code's view of a contract document into a folder: openapi.ts (the types, by
// openapi-typescript) and operations.ts (the facts of contract-facts.mjs). The core document's
// types are written once, into the partner SDK (libs/sdk/src/generated/openapi.ts, by
// sdk-contract.mjs): the SDK is packed on its own and cannot import libs/contract, so libs/contract
// imports the SDK's types instead, and its folder holds operations.ts only.
// Usage: node scripts/generate-contract.mjs <document.yaml> <output folder>
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { parse } from 'yaml';
import { contractFacts, renderFacts } from './contract-facts.mjs';

const CORE_DOCUMENT = 'openapi/v1.5.0.yaml';

const readDocument = (path) => parse(readFileSync(path, 'utf8'));

/** The files generateContract writes for a document. */
export function generatedFiles(documentPath) {
  return normalize(documentPath) === CORE_DOCUMENT ? ['operations.ts'] : ['openapi.ts', 'operations.ts'];
}

export function generateContract(documentPath, outputDir) {
  mkdirSync(outputDir, { recursive: true });
  if (generatedFiles(documentPath).includes('openapi.ts')) {
    execFileSync('node_modules/.bin/openapi-typescript', [documentPath, '-o', join(outputDir, 'openapi.ts')], { stdio: 'ignore' });
  }
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
  const written = generatedFiles(documentPath).map((file) => join(outputDir, file));
  console.log(`Generated ${written.join(' and ')} from ${documentPath}.`);
}
