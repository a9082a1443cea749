import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The design record's Layout table (docs/design-record.md#layout) describes the tree as it is: every
 * path it names exists, every folder it names inside a path (`relay/`) exists there, and every app,
 * library and test folder of the tree has its row. A folder moved or added without its row fails here.
 */
const ROOT = process.cwd();

interface LayoutRow {
  path: string;
  says: string;
}

function layoutRows(): LayoutRow[] {
  const record = readFileSync(join(ROOT, 'docs', 'design-record.md'), 'utf8');
  const start = record.indexOf('### Layout');
  const section = record.slice(start, record.indexOf('\n---', start));
  return [...section.matchAll(/^\| `([^`]+)` +\| (.*) \|$/gm)].map(([, path, says]) => ({ path: path.replace(/\/$/, ''), says }));
}

/** Whether git ignores the path (what a run leaves, such as test/artifacts/): not part of the layout. */
function ignored(path: string): boolean {
  try {
    execFileSync('git', ['check-ignore', '-q', path], { cwd: ROOT });
    return true;
  } catch {
    return false;
  }
}

const folders = (path: string): string[] =>
  readdirSync(join(ROOT, path)).filter(
    (name) => statSync(join(ROOT, path, name)).isDirectory() && !name.startsWith('.') && !ignored(`${path}/${name}/`),
  );

describe("the design record's Layout table", () => {
  const rows = layoutRows();

  it('has rows', () => {
    expect(rows.length).toBeGreaterThan(10);
  });

  it('names only paths that exist, and only folders that exist inside them', () => {
    const missing: string[] = [];
    for (const { path, says } of rows) {
      const base = path.replace('/<feature>', '');
      if (!existsSync(join(ROOT, base))) missing.push(path);
      for (const [, folder] of says.matchAll(/`([a-z0-9-]+)\/`/g)) {
        if (!existsSync(join(ROOT, base, folder)) && !existsSync(join(ROOT, base, 'src', folder))) missing.push(`${path}: ${folder}/`);
      }
      if (path.endsWith('/<feature>')) {
        for (const [, feature] of says.matchAll(/`([a-z0-9-]+)`/g)) {
          if (!existsSync(join(ROOT, base, 'src', feature))) missing.push(`${path}: ${feature}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('has a row for every app, library and test folder', () => {
    const listed = new Set(rows.map(({ path }) => path.replace('/<feature>', '')));
    const tree = [
      ...folders('apps').map((name) => `apps/${name}`),
      ...folders('libs').map((name) => `libs/${name}`),
      ...folders('test').map((name) => `test/${name}`),
    ];
    expect(tree.filter((path) => !listed.has(path))).toEqual([]);
  });
});
