import type { SchedulingExtension } from '#extensions-api/scheduling-extension.js';

/**
 * The registered extensions (docs/extending.md). The API serves their routes and documents, the
 * admin command line their commands, the migrations create their tables, and webhooks accept their
 * notice types. One line each, the import included, so that adding or removing an extension is a
 * one-line change here (its descriptor holds data only: see SchedulingExtension). Prettier leaves
 * the list as written, one line per extension even while it is empty.
 */
// prettier-ignore
export const EXTENSIONS: readonly SchedulingExtension[] = [
  (await import('./waitlist/waitlist.extension.js')).default,
];
