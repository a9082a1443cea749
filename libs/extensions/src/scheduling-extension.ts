import type { DynamicModule } from '@nestjs/common';
import type { Command } from 'commander';
import type { ExtensionContract } from '#contract/served-contract.js';
import type { MigrationClass } from '#database/migrations.js';
import type { CommandContext } from './command-context.js';

export type { ExtensionContract, MigrationClass };

/** What an extension gives the admin command line. */
export interface ExtensionAdmin {
  /** The Nest module the commands take their services from; the admin application imports it. */
  readonly module: DynamicModule;
  /** Adds the extension's commands, as apps/admin/src/commands/*.command.ts do for the core's. */
  register(program: Command, context: CommandContext): void;
}

/**
 * A module an enterprise team adds to the service (docs/extending.md), registered in
 * extensions/index.ts and served where a deployment enables it by name (EXTENSIONS). The
 * descriptor itself holds data only (names, generated facts, migration classes); the code that
 * imports the libs (the Nest modules, the commands) is loaded through `api` and `admin` when an app
 * boots with the extension enabled. The apps hand the descriptor's data to the libs at start (the
 * contract and notice types to the served contract, the migrations to the data source that
 * migrates): the libs never import an extension.
 */
export interface SchedulingExtension {
  /** Lower-case name; also its folder under extensions/, and what EXTENSIONS names. */
  readonly name: string;
  readonly contract: ExtensionContract;
  /** Run after the core's migrations, in this order, whether or not the extension is enabled. */
  readonly migrations: readonly MigrationClass[];
  /** The module ApiModule imports: its controllers and providers, under the API's global guards. */
  api(): Promise<DynamicModule>;
  admin(): Promise<ExtensionAdmin>;
}
