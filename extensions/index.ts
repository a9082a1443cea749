import { ConfigError } from '#config/app-config.js';
import type { MigrationClass } from '#database/migrations.js';
import type { SchedulingExtension } from '#extensions-api/scheduling-extension.js';

/**
 * The registered extensions (docs/extending.md): compiled into every build, served only where a
 * deployment enables them by name (EXTENSIONS, see enableExtensions). One line each, the import
 * included, so that adding or removing an extension is a one-line change here (its descriptor
 * holds data only: see SchedulingExtension). Prettier leaves the list as written, one line per
 * extension even while it is empty.
 */
// prettier-ignore
export const EXTENSIONS: readonly SchedulingExtension[] = [
  (await import('./waitlist/waitlist.extension.js')).default,
];

/**
 * The migrations of every registered extension, enabled or not, which the admin's `migrate` runs
 * after the core's: the schema is the build's, so enabling an extension later is a change of
 * EXTENSIONS alone, and every process of a deployment finds the same tables whatever it enables.
 */
export const EXTENSION_MIGRATIONS: readonly MigrationClass[] = EXTENSIONS.flatMap((extension) => extension.migrations);

/**
 * The registered extensions that EXTENSIONS names, in the registry's order. Each app hands them to
 * the libs as it builds its module: its ServedContract takes their operations, documents and notice
 * types (ServedContractModule.forRoot), and the app loads their modules only. Nothing is set for
 * the process: two applications in one process may serve different extensions. A name no
 * extension has refuses the start.
 */
export function enableExtensions(names: readonly string[]): readonly SchedulingExtension[] {
  const unknown = names.filter((name) => !EXTENSIONS.some((extension) => extension.name === name));
  if (unknown.length > 0) {
    const registered = EXTENSIONS.map((extension) => extension.name).join(', ') || 'none';
    throw new ConfigError(
      `Invalid configuration:\n  EXTENSIONS: no extension is registered as ${unknown.join(', ')} (registered: ${registered})`,
    );
  }
  const enabled = EXTENSIONS.filter((extension) => names.includes(extension.name));
  return enabled;
}
