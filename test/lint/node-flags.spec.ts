import { readFileSync } from 'node:fs';
// eslint-disable-next-line no-restricted-imports -- the bench's reading of the npm scripts lives in bench/, which has no alias
import { nodeFlagsOf } from '../../bench/harness/node-flags.js';

/**
 * The API and the worker are started in three places: the npm scripts (what the bench measures,
 * docs/running.md), the image's default command and docker-compose. Their V8 flags are part of
 * what the performance figures mean (docs/design-record.md#per-request-cost), so the three must
 * agree.
 */
const read = (path: string): string => readFileSync(path, 'utf8');

/** The `node …` commands written as JSON-style arrays, as the Dockerfile and docker-compose.yml do. */
function arrayCommands(text: string): string[][] {
  return [...text.matchAll(/\[\s*(["'])node\1[^\]]*\]/g)].map(([command]) =>
    [...command.matchAll(/(["'])([^"']*)\1/g)].map((match) => match[2]),
  );
}

function flagsRunning(commands: string[][], script: string): string[][] {
  return commands.filter((command) => command.at(-1) === script).map((command) => command.slice(1, -1));
}

describe.each([
  ['start:api', 'dist/apps/api/src/main.js'],
  ['start:worker', 'dist/apps/worker/src/main.js'],
])('the node flags of npm run %s', (npmScript, script) => {
  it('start the built entry point', () => {
    expect(() => nodeFlagsOf(read('package.json'), npmScript, script)).not.toThrow();
  });

  const flags = nodeFlagsOf(read('package.json'), npmScript, script);

  it("are docker-compose's", () => {
    expect(flagsRunning(arrayCommands(read('docker-compose.yml')), script)).toEqual([flags]);
  });

  it('are the ones the Dockerfile names for it', () => {
    // The image's CMD is the API's; its header comment lists each process's command.
    const dockerfile = read('Dockerfile');
    if (npmScript === 'start:api') expect(flagsRunning(arrayCommands(dockerfile), script)).toEqual([flags]);
    expect(dockerfile).toContain(`node ${flags.join(' ')} ${script}`);
  });

  it('keep objects young: V8 does not pretenure by allocation site', () => {
    expect(flags).toContain('--no-allocation-site-pretenuring');
  });
});
