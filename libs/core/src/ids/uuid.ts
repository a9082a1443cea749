const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a value is written as a UUID (any version), checked before it reaches a uuid column:
 * PostgreSQL would refuse anything else with an error instead of simply finding nothing.
 */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
