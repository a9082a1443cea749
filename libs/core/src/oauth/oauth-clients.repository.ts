import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import { defineStatement } from '#database/statement.js';

/** How an app came to be registered (docs/design-record.md#d30). */
export type OAuthClientKind = 'confidential' | 'public' | 'metadata-document';

/** One app as `admin oauth-client list` shows it. */
export interface ListedOAuthClient {
  clientId: string;
  name: string | null;
  kind: OAuthClientKind;
  redirectUris: string[];
  createdAt: Date | null;
  disabled: boolean;
  activeGrants: number;
}

// A Client ID Metadata Document's app keeps no secret whatever it says; a registered one without
// a secret (auth method `none`) is public; any other keeps a secret.
const ALL_CLIENTS = defineStatement<[], ListedOAuthClient>({
  name: 'all_oauth_clients',
  text: `SELECT c.client_id AS "clientId", c.name,
       CASE WHEN c.client_discovery_id IS NOT NULL THEN 'metadata-document'
            WHEN c.token_endpoint_auth_method = 'none' THEN 'public' ELSE 'confidential' END AS kind,
       c.redirect_uris AS "redirectUris", c.created_at AS "createdAt", coalesce(c.disabled, false) AS disabled,
       (SELECT count(*)::int FROM api_keys k WHERE k.oauth_client_id = c.client_id AND k.origin = 'oauth' AND k.revoked_at IS NULL) AS "activeGrants"
  FROM oauth_clients c
 ORDER BY c.created_at, c.client_id`,
});

const DISABLE_CLIENT = defineStatement<[clientId: string], { name: string | null }>({
  name: 'disable_oauth_client',
  text: `UPDATE oauth_clients SET disabled = true, updated_at = now() WHERE client_id = $1 RETURNING name`,
});

/**
 * The apps (oauth_clients, Better Auth's table) as the operator sees them. Better Auth makes and
 * reads them; its API has no way to disable one, so that one column is set here: its provider then
 * refuses the app at authorization and at the token endpoint.
 */
@Injectable()
export class OAuthClientsRepository {
  constructor(private readonly database: Database) {}

  all(): Promise<ListedOAuthClient[]> {
    return this.database.rows(ALL_CLIENTS, []);
  }

  /**
   * Disables the app and runs `then` (ending its grants) in the same transaction; the app's name
   * and what `then` returned, or undefined when there is no such app.
   */
  async disable<T>(clientId: string, then: () => Promise<T>): Promise<{ name: string | null; then: T } | undefined> {
    return this.database.transactional(async () => {
      const disabled = await this.database.maybeOne(DISABLE_CLIENT, [clientId]);
      if (!disabled) return undefined;
      return { name: disabled.name, then: await then() };
    });
  }
}
