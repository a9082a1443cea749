import { Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { AppConfig } from '#config/app-config.js';
import type { Scope } from '#contract/generated/operations.js';
import type { ApiKeyLookup } from '#core/api-keys/api-keys.repository.js';
import { consoleOrigin } from '#core/console-auth/console-origin.js';
import { AccessTokenCallers } from '#core/oauth/access-token-callers.js';
import { protectedResourceMetadataUrl } from '#core/oauth/oauth-resources.js';
import { headerOccurrences } from '#http/header-occurrences.js';

/** Why a request to /mcp is refused before any tool runs, and what its answer's WWW-Authenticate says. */
export interface McpRefusal {
  status: 401 | 403;
  wwwAuthenticate: string;
  message: string;
}

/**
 * Who calls the remote MCP server (docs/design-record.md#d30): an OAuth access token issued for the
 * MCP resource, as `Authorization: Bearer`. A refusal's WWW-Authenticate names the resource's
 * metadata (RFC 9728), which is how an MCP client finds where to get a token.
 */
@Injectable()
export class McpCaller {
  private readonly resourceMetadata: string;

  constructor(
    private readonly tokens: AccessTokenCallers,
    config: AppConfig,
  ) {
    this.resourceMetadata = protectedResourceMetadataUrl(consoleOrigin(config), 'mcp');
  }

  /** The token's caller, or the 401 to answer: no token, or one that is unknown, expired, revoked or for the REST API. */
  async authenticate(req: IncomingMessage): Promise<ApiKeyLookup | McpRefusal> {
    const token = bearerToken(req);
    const caller = token ? await this.tokens.callerOf(token, 'mcp') : null;
    if (caller) return caller;
    return {
      status: 401,
      wwwAuthenticate:
        token === undefined
          ? `Bearer resource_metadata="${this.resourceMetadata}"`
          : `Bearer error="invalid_token", resource_metadata="${this.resourceMetadata}"`,
      message:
        token === undefined
          ? 'Send an OAuth access token for this MCP server as "Authorization: Bearer <token>".'
          : 'The access token is not valid for this MCP server: unknown, expired, revoked, or issued for another resource.',
    };
  }

  /**
   * The 403 that asks for more scopes (step-up), or null when the caller has every scope the call's
   * tools need. The challenge names the caller's scopes with the missing ones: a client that asks
   * the owner again for exactly those keeps what it already had.
   */
  stepUp(caller: ApiKeyLookup, needed: readonly { tool: string; scope: Scope }[]): McpRefusal | null {
    const missing = needed.filter(({ scope }) => !caller.scopes.includes(scope));
    if (missing.length === 0) return null;
    const scopes = [...new Set([...caller.scopes, ...missing.map(({ scope }) => scope)])].join(' ');
    return {
      status: 403,
      wwwAuthenticate: `Bearer error="insufficient_scope", scope="${scopes}", resource_metadata="${this.resourceMetadata}"`,
      message: missing.map(({ tool, scope }) => `The tool ${tool} needs the scope ${scope}, which this access was not granted.`).join(' '),
    };
  }
}

/** The token of `Authorization: Bearer <token>`; undefined when none is sent, or it is not one Bearer header. */
function bearerToken(req: IncomingMessage): string | undefined {
  if (headerOccurrences(req, 'authorization') !== 1) return undefined;
  return /^Bearer ([^\s]+)$/i.exec(req.headers.authorization?.trim() ?? '')?.[1];
}
