import { QueryFailedError } from 'typeorm';

/** The name of the constraint a failed statement violated, if that is why it failed. */
export function violatedConstraint(error: unknown): string | undefined {
  if (!(error instanceof QueryFailedError)) return undefined;
  const { constraint } = error.driverError as { constraint?: unknown };
  return typeof constraint === 'string' ? constraint : undefined;
}
