import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every level, so equal bodies hash alike however keys are ordered. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What makes two requests "the same" for an Idempotency-Key (docs/design-record.md#d4): method, route and body. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  const bodyHash = createHash('sha256')
    .update(canonicalJson(body ?? null))
    .digest('hex');
  return `${method.toUpperCase()} ${path} ${bodyHash}`;
}
