import { runAdmin } from '#admin/run-admin.js';
import type { AppConfig } from '#config/app-config.js';
import { testConfig } from './test-config.js';

/** One admin command as the command line ran it: its exit code, its output, and both parsed. */
export interface AdminRun {
  code: number;
  stdout: string;
  stderr: string;
  /**
   * stdout parsed: every command prints one JSON object. Tests read it freely, its shape being
   * what they check.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  /** The error object a failed command prints on stderr. */
  error: { code: string; detail: string; errors?: { path: string; message: string }[]; requestId?: string; debug?: string };
}

const parse = (text: string): Record<string, unknown> => (text === '' ? {} : (JSON.parse(text) as Record<string, unknown>));

/**
 * Runs an admin command in this process, through the same entry as `npm run admin` (runAdmin), on
 * the test configuration unless another is given.
 */
export async function runAdminCommand(argv: string[], config: AppConfig = testConfig()): Promise<AdminRun> {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(
    argv,
    { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: (text: string) => (stderr += text) } },
    config,
  );
  return { code, stdout, stderr, json: parse(stdout), error: parse(stderr).error as AdminRun['error'] };
}

/** Runs an admin command that must succeed, and returns what it printed. */
export async function adminOutput(argv: string[], config?: AppConfig): Promise<Record<string, unknown>> {
  const run = await runAdminCommand(argv, config);
  if (run.code !== 0) throw new Error(`admin ${argv.join(' ')} failed (${run.code}): ${run.stderr}`);
  return run.json as Record<string, unknown>;
}
