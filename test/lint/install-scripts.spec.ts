import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * npm 11 warns at `npm ci` about every dependency with an install script that `allowScripts` in
 * package.json does not decide (npm 12 skips them). The project needs none of them (README, "Quick
 * start"), so each is decided by name: a new dependency that brings one fails here until it is
 * reviewed, and an entry for a package no longer installed is removed.
 */
const ROOT = process.cwd();
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };
const lockfile = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { hasInstallScript?: boolean }>;
};

/** The names of the locked packages that have an install script (`node_modules/a/node_modules/@b/c` → `@b/c`). */
const withInstallScripts = [
  ...new Set(
    Object.entries(lockfile.packages)
      .filter(([path, entry]) => path !== '' && entry.hasInstallScript === true)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)),
  ),
].sort();

describe('install scripts (allowScripts in package.json)', () => {
  it('decides every locked package that has an install script', () => {
    const decided = Object.keys(manifest.allowScripts ?? {}).map((key) => key.replace(/(?<=.)@.*$/, ''));
    expect(withInstallScripts.length).toBeGreaterThan(0);
    expect(withInstallScripts.filter((name) => !decided.includes(name))).toEqual([]);
  });

  it('names only packages that are locked with an install script', () => {
    const stale = Object.keys(manifest.allowScripts ?? {}).filter((key) => !withInstallScripts.includes(key.replace(/(?<=.)@.*$/, '')));
    expect(stale).toEqual([]);
  });
});
