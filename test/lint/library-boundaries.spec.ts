import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

/**
 * Imports go one way: apps → extensions → libs (eslint.config.mjs), and inside the libs the route
 * layer (libs/http) and the queue engine (libs/jobs) sit above the rules and the documents
 * (docs/design-record.md#layout). The rules are checked on snippets, then on every file of the libs
 * and the extensions as they are. The type-checked rules
 * are off (the snippets are not files of the TypeScript project); the boundaries are the project's own.
 */
const eslint = new ESLint({ cwd: process.cwd(), overrideConfig: tseslint.configs.disableTypeChecked });

const restricted = (messages: { ruleId: string | null; message: string }[]): string[] =>
  messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return restricted(result.messages);
}

const LIB_FILES = [
  'libs/config/src/app-config.ts',
  'libs/contract/src/served-contract.ts',
  'libs/core/src/notices/outbox/notice-types.ts',
  'libs/database/src/migrations.ts',
  'libs/extensions/src/routes.ts',
  'libs/http/src/operation.decorator.ts',
  'libs/jobs/src/job-queues.ts',
  'libs/sdk/src/index.ts',
];

describe('a library imports no app, no extension registry and no extension', () => {
  it.each(
    LIB_FILES.flatMap((file) => [
      [file, "import { ApiModule } from '#api/api.module.js';"],
      [file, "import { x } from '#worker/main.js';"],
    ]),
  )('forbids, in %s, %s', async (file, code) => {
    expect(await restrictedImports(file, code)).toEqual([expect.stringMatching(/Libraries must not import an app/)]);
  });

  it.each(
    LIB_FILES.flatMap((file) => [
      [file, "import { EXTENSIONS } from '#extensions/index.js';"],
      [file, "import waitlist from '#extensions/waitlist/waitlist.extension.js';"],
      [file, "export { WaitlistService } from '#extensions/waitlist/waitlist.service.js';"],
    ]),
  )('forbids, in %s, %s', async (file, code) => {
    expect(await restrictedImports(file, code)).toEqual([
      expect.stringMatching(/Libraries must not import the extension registry or an extension/),
    ]);
  });

  it('forbids a path into apps/ or extensions/, however it is written', async () => {
    expect(await restrictedImports('libs/core/src/notices/outbox/notice-types.ts', "import { x } from 'extensions/index.js';")).toEqual([
      expect.stringMatching(/Libraries must not import the extension registry or an extension/),
    ]);
    expect(await restrictedImports('libs/contract/src/served-contract.ts', "import { x } from '/srv/app/apps/api/src/main.js';")).toEqual([
      expect.stringMatching(/Libraries must not import an app/),
    ]);
  });

  it('excepts no file: the public extension API re-exports no app either', async () => {
    expect(
      await restrictedImports('libs/extensions/src/routes.ts', "export { Operation } from '#api/http/operation.decorator.js';"),
    ).toEqual([expect.stringMatching(/Libraries must not import an app/)]);
  });

  it('lets a library import the libraries', async () => {
    expect(
      await restrictedImports(
        'libs/extensions/src/routes.ts',
        "import { x } from '#core/errors/domain-error.js';\nimport { y } from '#contract/served-contract.js';\nimport { z } from '#http/operation.decorator.js';",
      ),
    ).toEqual([]);
  });

  it.each([
    ['libs/core/src/notices/outbox/notice-types.ts', "import { Operation } from '#http/operation.decorator.js';"],
    ['libs/contract/src/served-contract.ts', "import type { ApiRequest } from '#http/api-request.js';"],
    ['libs/database/src/migrations.ts', "import { x } from '#jobs/job-queues.js';"],
    ['libs/config/src/app-config.ts', "import type { CommandContext } from '#extensions-api/command-context.js';"],
  ])('keeps the rules and the documents below the route layer and the queue engine: forbids, in %s, %s', async (file, code) => {
    expect(await restrictedImports(file, code)).toEqual([
      expect.stringMatching(/must not import the route layer, the queue engine or the extension API/),
    ]);
  });

  it('keeps the route layer below the extension API, which re-exports it, and beside the queue engine', async () => {
    expect(
      await restrictedImports('libs/http/src/operation.decorator.ts', "import { Operation } from '#extensions-api/routes.js';"),
    ).toEqual([expect.stringMatching(/The route layer \(libs\/http\) must not import the queue engine or the extension API/)]);
    expect(await restrictedImports('libs/http/src/problem.ts', "import { x } from '#jobs/job-queues.js';")).toEqual([
      expect.stringMatching(/The route layer \(libs\/http\) must not import the queue engine or the extension API/),
    ]);
    expect(await restrictedImports('libs/jobs/src/job-queues.ts', "import { problemBody } from '#http/problem.js';")).toEqual([
      expect.stringMatching(/The queue engine \(libs\/jobs\) must not import the route layer or the extension API/),
    ]);
    expect(
      await restrictedImports(
        'libs/http/src/operation.decorator.ts',
        "import { x } from '#core/errors/domain-error.js';\nimport { y } from '#contract/served-contract.js';\nimport { z } from '#config/app-config.js';",
      ),
    ).toEqual([]);
  });

  it('forbids the extension registry to import an app', async () => {
    expect(await restrictedImports('extensions/index.ts', "import { ApiModule } from '#api/api.module.js';")).toEqual([
      expect.stringMatching(/The extension registry must not import an app/),
    ]);
    expect(await restrictedImports('extensions/index.ts', "import { x } from '#config/app-config.js';")).toEqual([]);
  });

  it('holds for every file of the libraries and the extensions', async () => {
    const results = await eslint.lintFiles(['libs/*/src/**/*.ts', 'extensions/**/*.ts']);
    expect(results.length).toBeGreaterThan(100);
    const found = results.flatMap((result) => restricted(result.messages).map((message) => `${result.filePath}: ${message}`));
    expect(found).toEqual([]);
  });
});
