/**
 * The two protected resources an access token can be bound to (RFC 8707,
 * docs/design-record.md#d30): the REST API and the remote MCP server. A token is good for the one it
 * was issued for and refused by the other.
 */
export type OAuthResource = 'rest' | 'mcp';

/** The resource's identifier: what a client sends as `resource` and what a token's audience names. */
export function oauthResourceUrl(origin: string, resource: OAuthResource): string {
  return resource === 'rest' ? `${origin}/v1/api` : `${origin}/mcp`;
}

/** Where the resource's RFC 9728 metadata is served: the well-known path, then the resource's own path. */
export function protectedResourceMetadataUrl(origin: string, resource: OAuthResource): string {
  return `${origin}/.well-known/oauth-protected-resource${resource === 'rest' ? '/v1/api' : '/mcp'}`;
}
