import { randomUUID } from 'node:crypto';
import { Command, CommanderError } from 'commander';
import { ConfigError, loadConfig, loadExtensionsSetting, type AppConfig } from '#config/app-config.js';
import { DomainError } from '#core/errors/domain-error.js';
import { enableExtensions } from '#extensions/index.js';
import { withAdminContext } from './admin-context.js';
import { registerAppointmentCommands } from './commands/appointment.command.js';
import { registerBusinessCommands } from './commands/business.command.js';
import type { CommandContext } from './commands/command-context.js';
import { registerFixturesCommands } from './commands/fixtures.command.js';
import { registerKeyCommands } from './commands/key.command.js';
import { registerMemberCommands } from './commands/member.command.js';
import { registerMigrateCommand } from './commands/migrate.command.js';
import { registerOAuthClientCommands } from './commands/oauth-client.command.js';
import { registerPaymentCommands } from './commands/payment.command.js';
import { registerSaleCommands } from './commands/sale.command.js';
import { registerSandboxCommands } from './commands/sandbox.command.js';
import { registerSecretsCommands } from './commands/secrets.command.js';
import { registerWebhookCommands } from './commands/webhook.command.js';

export interface AdminOutput {
  write(text: string): unknown;
}

export interface AdminIo {
  stdout: AdminOutput;
  stderr: AdminOutput;
}

/** Exit codes: 0 done, 1 refused or failed (domain or unexpected error), 2 wrong usage. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** Codes of the command line's own errors, beside the domain's (docs/design-record.md#d3). */
type AdminErrorCode = DomainError['code'] | 'USAGE' | 'CONFIG_INVALID';

interface ErrorReport {
  error: { code: AdminErrorCode; detail: string; errors?: { path: string; message: string }[]; requestId?: string; debug?: string };
}

/** Levels at which an unexpected error's own message is printed (an operator debugging, not a log collector). */
const DEBUG_LEVELS: ReadonlySet<string> = new Set(['debug', 'verbose', 'trace']);

function printJson(out: AdminOutput, value: object): void {
  out.write(`${JSON.stringify(value, null, 2)}\n`);
}

async function buildProgram(
  io: AdminIo,
  context: CommandContext,
  migrationContext: CommandContext,
  extensionNames: readonly string[],
): Promise<Command> {
  const program = new Command('admin')
    .description('Administer the scheduling service. Every command prints one JSON object.')
    // In-process and testable: commander throws instead of exiting, and its error text is
    // replaced by the JSON report of runAdmin.
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: () => undefined,
      outputError: () => undefined,
    });

  // One register function per command group, each in commands/<group>.command.ts.
  registerMigrateCommand(program, migrationContext);
  registerFixturesCommands(program, context);
  registerBusinessCommands(program, context);
  registerKeyCommands(program, context);
  registerMemberCommands(program, context);
  registerSandboxCommands(program, context);
  registerWebhookCommands(program, context);
  registerSecretsCommands(program, context);
  registerPaymentCommands(program, context);
  registerSaleCommands(program, context);
  registerAppointmentCommands(program, context);
  registerOAuthClientCommands(program, context);
  // Then the enabled extensions' commands (docs/extending.md).
  for (const extension of enableExtensions(extensionNames)) (await extension.admin()).register(program, context);
  return program;
}

function report(error: unknown, logLevel: string | undefined): { exitCode: number; body: ErrorReport } {
  if (error instanceof CommanderError) {
    // Commander raises 'commander.help' when a command group is given no command.
    const detail = error.code === 'commander.help' ? 'A command is missing; run with --help to see the commands.' : error.message;
    return { exitCode: EXIT_USAGE, body: { error: { code: 'USAGE', detail: detail.replace(/^error: /, '') } } };
  }
  if (error instanceof DomainError) {
    const body: ErrorReport = { error: { code: error.code, detail: error.detail } };
    if (error.fieldErrors.length > 0) body.error.errors = error.fieldErrors;
    return { exitCode: EXIT_FAILED, body };
  }
  if (error instanceof ConfigError) {
    return { exitCode: EXIT_FAILED, body: { error: { code: 'CONFIG_INVALID', detail: error.message } } };
  }
  // An unexpected error's text can carry what an operator's terminal, CI log or ticket should not
  // (a PostgreSQL message naming tables, values or hosts): a generic detail and an id to quote,
  // the error itself only when LOG_LEVEL asks for debugging.
  const requestId = randomUUID();
  const body: ErrorReport = {
    error: {
      code: 'INTERNAL',
      detail: `The command failed on an unexpected error (request id ${requestId}); run it again with LOG_LEVEL=debug to see the error itself.`,
      requestId,
    },
  };
  if (logLevel !== undefined && DEBUG_LEVELS.has(logLevel)) {
    body.error.debug = error instanceof Error ? (error.stack ?? error.message) : String(error);
  }
  return { exitCode: EXIT_FAILED, body };
}

/**
 * Runs one admin command (docs/operations-interface.md) and returns the exit code; never exits the process.
 * The result is printed on stdout as one JSON object, an error on stderr as { error: { code,
 * detail, errors? } }. `config` defaults to the environment, read only when a command needs it.
 */
export async function runAdmin(argv: readonly string[], io: AdminIo, config?: AppConfig): Promise<number> {
  const context: CommandContext = {
    run: async (work) => printJson(io.stdout, await withAdminContext(config ?? loadConfig(), work)),
  };
  // migrate opens no secret, and runs before the table of SECRETS_KEY's check values exists.
  const migrationContext: CommandContext = {
    run: async (work) => printJson(io.stdout, await withAdminContext(config ?? loadConfig(), work, { checkSecretsKey: false })),
  };
  try {
    // EXTENSIONS alone when no configuration is given: `--help` and usage errors need no other setting.
    const extensionNames = config?.EXTENSIONS ?? loadExtensionsSetting();
    await (await buildProgram(io, context, migrationContext, extensionNames)).parseAsync([...argv], { from: 'user' });
    return EXIT_OK;
  } catch (error) {
    // --help is delivered as an error with exit code 0.
    if (error instanceof CommanderError && error.exitCode === 0) return EXIT_OK;
    const { exitCode, body } = report(error, config?.LOG_LEVEL ?? process.env.LOG_LEVEL);
    printJson(io.stderr, body);
    return exitCode;
  }
}
