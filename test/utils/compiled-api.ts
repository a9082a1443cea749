import { Child, buildApps, childEnv, freePort } from './child-process.js';
import { ContractResponseValidator } from './contract-response-validator.js';

/**
 * The compiled API (and, for notices, the compiled worker) as production runs them, on this test
 * run's database, Redis and a queue prefix of `name`: what the SDK and the MCP server are tested
 * against. `start` builds dist/ first (incremental).
 */
export class CompiledApi {
  private constructor(
    readonly api: Child,
    readonly worker: Child | null,
    /** The service's address, without /v1/api. */
    readonly origin: string,
    readonly port: number,
  ) {}

  /** `nodeArgs` go before the script (e.g. `--import` a preload); `env` adds to childEnv's. */
  static async start(
    name: string,
    options: { worker?: boolean; nodeArgs?: string[]; env?: Record<string, string> } = {},
  ): Promise<CompiledApi> {
    await buildApps();
    const port = await freePort();
    const env = childEnv(name, { LOG_LEVEL: 'error', PORT: String(port), ...options.env });
    const api = Child.spawn(process.execPath, [...(options.nodeArgs ?? []), 'dist/apps/api/src/main.js'], env);
    const worker = options.worker ? Child.spawn(process.execPath, ['dist/apps/worker/src/main.js'], { ...env, LOG_LEVEL: 'log' }) : null;
    const origin = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (api.process.exitCode !== null) throw new Error(`The API exited:\n${api.output}`);
      try {
        if ((await fetch(`${origin}/health/live`)).status === 200) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`The API did not answer within 60 s:\n${api.output}`);
      await new Promise((done) => setTimeout(done, 100));
    }
    await worker?.waitForOutput(/Worker started/, 60_000);
    return new CompiledApi(api, worker, origin, port);
  }

  async stop(): Promise<void> {
    await Promise.all([this.api.kill(), this.worker?.kill()]);
  }
}

/**
 * A fetch that checks every answer against the contract, as E2eApi does for in-process calls; the
 * answers that break it are collected in `violations` (a test asserts it stays empty) rather than
 * thrown, since a thrown error would look like a lost answer to the SDK.
 */
export function contractCheckedFetch(violations: string[]): (request: Request) => Promise<Response> {
  const validator = new ContractResponseValidator();
  return async (request) => {
    const response = await fetch(request);
    const url = new URL(request.url);
    const problems = validator.check({
      method: request.method,
      path: url.pathname.replace(/^\/v1\/api/, ''),
      status: response.status,
      headers: Object.fromEntries(response.headers.entries()),
      text: await response.clone().text(),
    });
    violations.push(...problems.map((problem) => `${request.method} ${url.pathname}: ${problem}`));
    return response;
  };
}
