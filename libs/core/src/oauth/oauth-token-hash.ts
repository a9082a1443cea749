import { createHash } from 'node:crypto';

/**
 * How an OAuth token or code is stored (docs/design-record.md#d30): its SHA-256, base64url. The
 * tokens are 32 random letters or more, so a plain digest is enough; Better Auth's provider stores
 * with this function and the API looks access tokens up with it.
 */
export function oauthTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
