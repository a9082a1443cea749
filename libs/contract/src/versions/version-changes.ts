import type { ApiVersion } from './api-versions.js';

/**
 * One change of an answer's or a notice's shape between two published versions
 * (docs/design-record.md#d22): what a version added to which schemas of its document, and how an
 * instance of such a schema is shown to a caller pinned to the version before. Every shape change
 * is declared here, once; the answer shaper applies them, and a property test proves that
 * every operation's and notice's answer, shaped for each version, validates against that
 * version's document (test/integration/contract/version-shaping.int-spec.ts).
 */
export interface VersionChange {
  /** A short name, unique, that says what changed (kebab-case). */
  readonly name: string;
  /** The version that made the change: callers pinned to an earlier one get `down`'s result. */
  readonly version: ApiVersion;
  readonly description: string;
  /** The component schemas (`#/components/schemas/<name>`) whose instances the change touches. */
  readonly schemas: readonly string[];
  /**
   * The instance as the version before `version` shows it, given as the later one has it (a
   * fresh copy the function may change). `undefined` leaves an array's item out altogether.
   */
  down(instance: Record<string, unknown>): Record<string, unknown> | undefined;
}

/** Removes the given fields: the down-conversion of a change that only adds fields. */
export function withoutFields(...fields: readonly string[]): VersionChange['down'] {
  return (instance) => {
    for (const field of fields) delete instance[field];
    return instance;
  };
}

/** Every declared change, oldest version first. 1.3.0 changed no answer of 1.2.0 (D13). */
export const VERSION_CHANGES: readonly VersionChange[] = [];
