import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppConfig, SECRET_SETTINGS } from './app-config.js';

const README = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'README.md');

/** The variables of the README's configuration table, in order. */
function documented(): string[] {
  const readme = readFileSync(README, 'utf8');
  const start = readme.indexOf('## Configuration');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  return [...section.matchAll(/^\| `([A-Z0-9_]+)` +\|/gm)].map((match) => match[1]);
}

describe('the README configuration table', () => {
  it('lists every setting AppConfig reads, and nothing else', () => {
    const settings = new Set([...Object.keys(new AppConfig()), ...SECRET_SETTINGS]);
    expect([...documented()].sort()).toEqual([...settings].sort());
  });
});
