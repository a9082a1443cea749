import { Injectable } from '@nestjs/common';
import { ConsoleAuthentication } from '../console-auth/console-authentication.js';
import { DomainError } from '../errors/domain-error.js';
import { checkOAuthClientInput, type OAuthClientInput } from './oauth-client-input.js';
import { OAuthClientsRepository, type ListedOAuthClient } from './oauth-clients.repository.js';
import { OAuthGrantsRepository } from './oauth-grants.repository.js';

/** A confidential app just made: its secret is shown this once. */
export interface CreatedOAuthClient {
  clientId: string;
  clientSecret: string;
  name: string;
  kind: 'confidential';
  redirectUris: string[];
  scopes: string[];
  createdAt: Date;
}

/** An app disabled, and how many of its grants that ended. */
export interface RevokedOAuthClient {
  clientId: string;
  name: string | null;
  disabled: true;
  grantsRevoked: number;
}

/**
 * The operator's side of the OAuth apps (docs/design-record.md#d30): registering a partner's
 * server app that keeps a secret (public apps register themselves), listing every app, and
 * revoking one with all that the owners granted it.
 */
@Injectable()
export class OAuthClientsService {
  constructor(
    private readonly authentication: ConsoleAuthentication,
    private readonly clients: OAuthClientsRepository,
    private readonly grants: OAuthGrantsRepository,
  ) {}

  async createConfidential(input: OAuthClientInput): Promise<CreatedOAuthClient> {
    const checked = checkOAuthClientInput(input);
    const created = await this.authentication.createConfidentialClient(checked);
    return {
      clientId: created.clientId,
      clientSecret: created.clientSecret,
      name: checked.name,
      kind: 'confidential',
      redirectUris: checked.redirectUris,
      scopes: checked.scopes,
      createdAt: created.createdAt,
    };
  }

  list(): Promise<ListedOAuthClient[]> {
    return this.clients.all();
  }

  /**
   * Disables the app, so it can neither be authorized nor refresh, and ends every grant of it and
   * their tokens, in one transaction. Again on a disabled app: nothing is left to end (0 grants).
   */
  async revoke(clientId: string): Promise<RevokedOAuthClient> {
    const disabled = await this.clients.disable(clientId, () => this.grants.revokeAllOfApp(clientId));
    if (!disabled) throw new DomainError('NOT_FOUND', `No OAuth app has the client id ${clientId}.`);
    return { clientId, name: disabled.name, disabled: true, grantsRevoked: disabled.then };
  }
}
