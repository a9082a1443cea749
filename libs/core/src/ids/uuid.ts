const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a value is written as a UUID (any version), checked before it reaches a uuid column:
 * PostgreSQL would refuse anything else with an error instead of simply finding nothing.
 */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * A UUID as PostgreSQL writes it (lower case), for a value checked with isUuid: what a uuid
 * column compares case-insensitively, code that uses the id as text (a sealed value's additional
 * data) must write the same way.
 */
export function canonicalUuid(value: string): string {
  return value.toLowerCase();
}
