import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTRACT_VERSION } from '#sdk/generated/contract.js';

/**
 * The partner SDK is numbered like the contract it is generated from (its User-Agent says
 * `scheduling-sdk/<CONTRACT_VERSION>`), and the documents name the packed file by that number or by
 * `<version>`: a file name left at an older version is a command that fails.
 */
const ROOT = process.cwd();
const DOCUMENTS = ['README.md', 'docs/partners.md', 'docs/operations-interface.md', 'libs/sdk/README.md'];
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
const sdkPackage = JSON.parse(read('libs/sdk/package.json')) as { version: string; description: string };

describe('the SDK’s version', () => {
  it('is the contract’s, and its description names no other', () => {
    expect(sdkPackage.version).toBe(CONTRACT_VERSION);
    expect(sdkPackage.description.match(/\d+\.\d+\.\d+/g) ?? []).toEqual([]);
  });

  it.each(DOCUMENTS)('%s names the packed SDK only by its version', (document) => {
    const named = [...read(document).matchAll(/scheduling-sdk-(\d+\.\d+\.\d+)\.tgz/g)].map((match) => match[1]);
    expect(named.filter((version) => version !== sdkPackage.version)).toEqual([]);
  });

  it('the SDK’s README is titled with its version', () => {
    expect(read('libs/sdk/README.md')).toMatch(
      new RegExp(`^The typed client of the Business Scheduling API ${CONTRACT_VERSION.replaceAll('.', '\\.')} `, 'm'),
    );
  });
});
