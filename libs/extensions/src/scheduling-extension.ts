import type { DynamicModule } from '@nestjs/common';
import type { Command } from 'commander';
import type { MigrationInterface } from 'typeorm';
import type { OperationFacts } from '#contract/generated/operations.js';
import type { CommandContext } from './command-context.js';

/** A TypeORM migration class, as libs/database/src/migrations.ts lists them. */
export type MigrationClass = new () => MigrationInterface;

/** What an extension's contract adds: its own OpenAPI document and the facts generated from it. */
export interface ExtensionContract {
  /** The document, relative to the repository root: extensions/<name>/openapi.yaml. */
  readonly document: string;
  /** OPERATIONS of the extension's generated/operations.ts. */
  readonly operations: Readonly<Record<string, OperationFacts>>;
  /** NOTICE_TYPES of the extension's generated/operations.ts. */
  readonly noticeTypes: readonly string[];
}

/** What an extension gives the admin command line. */
export interface ExtensionAdmin {
  /** The Nest module the commands take their services from; the admin application imports it. */
  readonly module: DynamicModule;
  /** Adds the extension's commands, as apps/admin/src/commands/*.command.ts do for the core's. */
  register(program: Command, context: CommandContext): void;
}

/**
 * A module an enterprise team adds to the service (docs/extending.md). The descriptor itself holds
 * data only (names, generated facts, migration classes); the code that imports the libs (the Nest
 * modules, the commands) is loaded through `api` and `admin` when an app boots. That is what lets
 * the libs read the registry (the accepted notice types, the migrations, the served contract)
 * without an import cycle through the extension's own services, which import those libs.
 */
export interface SchedulingExtension {
  /** Lower-case name; also its folder under extensions/. */
  readonly name: string;
  readonly contract: ExtensionContract;
  /** Run after the core's migrations, in this order. */
  readonly migrations: readonly MigrationClass[];
  /** The module ApiModule imports: its controllers and providers, under the API's global guards. */
  api(): Promise<DynamicModule>;
  admin(): Promise<ExtensionAdmin>;
}
