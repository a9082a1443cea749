import { jest } from '@jest/globals';
import { Child, childEnv } from '../../utils/child-process.js';
import { createTenant } from '../../utils/tenant-factory.js';

/**
 * docs/operations-interface.md: `npm run admin -- <command> | jq` works, so the stdout of the real
 * `npm run admin` (npm, its shell, the build step, the command) is the command's JSON alone. npm
 * printed its banner there before (`> business-scheduling-api@1.4.0 admin` and the command line);
 * the project's .npmrc sends it to stderr, and the build step prints nothing on stdout.
 */
jest.setTimeout(180_000);

function npmRunAdmin(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = Child.spawn('npm', ['run', 'admin', '--', ...args], { ...childEnv('admin-npm-stdout'), HOME: process.env.HOME });
  let stdout = '';
  let stderr = '';
  child.process.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.process.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return child.exited.then((code) => ({ code, stdout, stderr }));
}

describe('npm run admin', () => {
  it("prints the command's JSON alone on stdout, npm's banner on stderr", async () => {
    const tenant = await createTenant();
    const run = await npmRunAdmin(['member', 'list', '--business', tenant.slug]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ members: [expect.objectContaining({ email: tenant.ownerEmail })] });
    expect(run.stderr).toContain('> business-scheduling-api@');
  });

  it("keeps a failed command's error on stderr, and stdout JSON", async () => {
    const run = await npmRunAdmin(['member', 'list', '--business', 'no-such-business-anywhere']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('"code": "NOT_FOUND"');
    // npm's own account of the failure, in JSON mode: still JSON, not text ahead of it.
    expect(JSON.parse(run.stdout)).toEqual({ error: expect.objectContaining({ code: 1 }) });
  });
});
