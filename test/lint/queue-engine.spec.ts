import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * libs/jobs is the queue engine (queues, drivers, polling, limits) with what runs on it apart, in
 * `processors/` (docs/design-record.md#layout): the engine names no processor, so a processor is
 * added, moved or removed without touching it, and every processor sits in that folder.
 */
const JOBS = join(process.cwd(), 'libs', 'jobs', 'src');

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(folder, entry.name)) : entry.name.endsWith('.ts') ? [join(folder, entry.name)] : [],
  );
}

const files = filesUnder(JOBS).map((file) => relative(JOBS, file));
const inProcessors = (file: string): boolean => file.startsWith('processors/');
const importsOf = (file: string): string[] =>
  [...readFileSync(join(JOBS, file), 'utf8').matchAll(/\bfrom\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/g)].map((m) => m[1] ?? m[2]);

describe('the queue engine apart from what runs on it (libs/jobs)', () => {
  it('keeps every processor, relay and sweep in processors/', () => {
    const outside = files.filter(
      (file) => !inProcessors(file) && /\.processor\.ts$|-relay\.ts$|-sweep\.ts$|notice-listener\.ts$/.test(file),
    );
    expect(outside).toEqual([]);
    expect(files.filter(inProcessors).length).toBeGreaterThan(0);
  });

  it('has an engine that imports nothing of processors/', () => {
    const crossing = files
      .filter((file) => !inProcessors(file))
      .flatMap((file) =>
        importsOf(file)
          .filter((specifier) => /(^|\/)processors\//.test(specifier))
          .map((specifier) => `${file} → ${specifier}`),
      );
    expect(crossing).toEqual([]);
  });
});
