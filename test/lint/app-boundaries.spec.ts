import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

/**
 * The import boundaries of eslint.config.mjs, run on snippets: the type-checked rules are off
 * (the snippets are not files of the TypeScript project), the boundaries are the project's own.
 */
const eslint = new ESLint({ cwd: process.cwd(), overrideConfig: tseslint.configs.disableTypeChecked });

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

describe('import boundaries (eslint.config.mjs)', () => {
  it.each([
    ['apps/api/src/api.module.ts', "import { WorkerModule } from '#worker/worker.module.js';"],
    ['apps/api/src/metrics/queue-metrics.ts', "import { main } from '#admin/main.js';"],
    ['apps/worker/src/worker.module.ts', "import { ApiModule } from '#api/api.module.js';"],
    ['apps/admin/src/commands/key.command.ts', "import { x } from '../../../../apps/api/src/main.js';"],
    ['apps/worker/src/main.ts', "export { x } from 'apps/api/src/main.js';"],
    // The MCP server builds on the libs (the SDK, the contract) only.
    ['apps/mcp/src/tools.ts', "import { ClientsController } from '#api/controllers/clients.controller.js';"],
    ['apps/api/src/api.module.ts', "import { createMcpServer } from '#mcp/mcp-server.js';"],
  ])('forbids, in %s, %s', async (filePath, code) => {
    expect(await restrictedImports(filePath, code)).toContainEqual(expect.stringMatching(/An app must not import an app/));
  });

  it('forbids the SDK (a lib) to import the MCP app', async () => {
    expect(await restrictedImports('libs/sdk/src/index.ts', "import { createMcpServer } from '#mcp/mcp-server.js';")).toEqual([
      expect.stringMatching(/Libraries must not import an app/),
    ]);
  });

  it('still forbids a lib to import an app', async () => {
    expect(await restrictedImports('libs/jobs/src/job-queues.ts', "import { WorkerModule } from '#worker/worker.module.js';")).toEqual([
      expect.stringMatching(/Libraries must not import an app/),
    ]);
  });

  it('lets an app import the libs and its own files, and tests import the apps', async () => {
    expect(
      await restrictedImports(
        'apps/api/src/api.module.ts',
        "import { JobsModule } from '#jobs/jobs.module.js';\nimport { Operation } from '#http/operation.decorator.js';\nimport { x } from './http/json-body.js';",
      ),
    ).toEqual([]);
    expect(await restrictedImports('test/e2e/x.e2e-spec.ts', "import { WorkerModule } from '#worker/worker.module.js';")).toEqual([]);
  });

  it.each([
    [
      'extensions/waitlist/api/waitlist.controller.ts',
      "import { Operation } from '#api/http/operation.decorator.js';",
      /must not import an app/,
    ],
    ['extensions/waitlist/waitlist.service.ts', "import { x } from '../../apps/api/src/main.js';", /must not import an app/],
    [
      'extensions/waitlist/waitlist.module.ts',
      "import { EXTENSIONS } from '#extensions/index.js';",
      /must not import the registry or another extension/,
    ],
    ['extensions/waitlist/waitlist.e2e-spec.ts', "import { runAdmin } from '#admin/run-admin.js';", /must not import an app/],
  ])('forbids, in the extension file %s, %s', async (filePath, code, message) => {
    expect(await restrictedImports(filePath, code)).toContainEqual(expect.stringMatching(message));
  });

  it('lets an extension import the libs and the public extension API, and its e2e tests the test harness', async () => {
    expect(
      await restrictedImports(
        'extensions/waitlist/api/waitlist.controller.ts',
        "import { Operation } from '#extensions-api/routes.js';\nimport { ValidBody } from '#http/operation-params.js';\nimport { x } from '#core/errors/domain-error.js';\nimport { y } from '../waitlist.service.js';",
      ),
    ).toEqual([]);
    expect(
      await restrictedImports('extensions/waitlist/waitlist.e2e-spec.ts', "import { E2eApi } from '../../test/utils/e2e-api.js';"),
    ).toEqual([]);
  });
});
