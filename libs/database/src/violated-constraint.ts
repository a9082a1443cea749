import { StatementFailedError } from './statement-failed-error.js';

/** The name of the constraint a failed statement violated, if that is why it failed. */
export function violatedConstraint(error: unknown): string | undefined {
  return error instanceof StatementFailedError ? error.constraint : undefined;
}
