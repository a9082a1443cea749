import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The README and docs/ name the files they talk about (`libs/core/src/…`); a file moved or removed
 * without its mention fails here, so the documentation does not point a newcomer at nothing.
 * Placeholders (`extensions/<name>/…`, `bench/results/<date>.json`) are not paths.
 */
const ROOT = process.cwd();
const DOCUMENTS = [
  'README.md',
  'docs/README.md',
  'docs/design-record.md',
  'docs/history.md',
  'docs/error-codes.md',
  'docs/operations-interface.md',
  'docs/extending.md',
  'docs/partners.md',
  'docs/running.md',
  'docs/performance.md',
];
const PATH = /`((?:apps|libs|test|extensions|scripts|bench|examples|openapi|docs)\/[A-Za-z0-9_./-]+\.(?:ts|mjs|js|md|json|yaml|sql))`/g;

describe('paths named in the documentation', () => {
  it.each(DOCUMENTS)('%s names only files that exist', (document) => {
    const text = readFileSync(join(ROOT, document), 'utf8');
    const missing = [...new Set([...text.matchAll(PATH)].map((match) => match[1]))].filter((path) => !existsSync(join(ROOT, path)));
    expect(missing).toEqual([]);
  });
});
