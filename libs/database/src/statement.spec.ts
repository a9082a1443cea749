import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { declaredStatements, defineStatement } from './statement.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** Every repository file under libs/ and extensions/: where the service's statements are declared. */
function repositoryFiles(): string[] {
  return ['libs', 'extensions'].flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.repository.ts'))
      .map((path) => join(ROOT, folder, path)),
  );
}

describe('declared statements', () => {
  it('have unique names across every repository', async () => {
    const files = repositoryFiles();
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) await import(pathToFileURL(file).href);
    const names = declaredStatements().map((statement) => statement.name);
    expect(names.length).toBeGreaterThan(50);
    const duplicates = names.filter((name, index) => names.indexOf(name) !== index);
    expect(duplicates).toEqual([]);
  });

  it('refuses a name the per-process suffix would push past what PostgreSQL keeps', () => {
    expect(() => defineStatement({ name: 'x'.repeat(41), text: 'SELECT 1' })).toThrow(/must match/);
    expect(() => defineStatement({ name: 'Client By Id', text: 'SELECT 1' })).toThrow(/must match/);
  });
});
