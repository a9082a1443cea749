import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the reference page's script is: copied into dist by the build, or straight from the package in development. */
const CANDIDATES = ['dist/apps/api/assets/scalar-api-reference.js', 'node_modules/@scalar/api-reference/dist/browser/standalone.js'];

export function findReferenceScript(start = dirname(fileURLToPath(import.meta.url))): string | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    const found = CANDIDATES.map((c) => join(dir, c)).find((path) => existsSync(path));
    if (found) return found;
    if (dirname(dir) === dir) return undefined;
  }
}
